import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { buildConfig } from "../../config/load.js";
import { SelfMetrics } from "../../exposition/selfMetrics.js";
import { SampleStore } from "../../exposition/store.js";
import { HealthTracker } from "../../polling/health.js";
import { type CollectorEnv, CollectorStates } from "../../polling/model.js";
import { listedTargets } from "../../polling/targetLists.js";
import { CloudError } from "../../upstream/errors.js";
import type { CloudApi, UsagePage } from "../../upstream/types.js";
import { BILLING_STATE } from "./cache.js";
import { billingTasks, INVOICES_TARGET, USAGE_TARGET } from "./tasks.js";

const NOW = Date.parse("2026-03-15T10:30:00Z");

/** How the service refuses the billing key, as the client reports it. */
type Refusal = (endpoint: "POST /v2/usage/query" | "GET /v2/invoices") => CloudError;

/** A key without the role, by HTTP status. */
const FORBIDDEN: Refusal = (endpoint) =>
  new CloudError("auth_error", `${endpoint}: HTTP 403: permission denied`, { endpoint, httpStatus: 403 });
/** A key without the role, by the reference's own code. */
const SCOPE: Refusal = (endpoint) =>
  new CloudError("api_error", `${endpoint}: upstream code 96027: Please check your Apikey scope`, {
    endpoint,
    apiCode: 96027,
  });
/** A key the service does not accept at all (invalid or expired). */
const INVALID_KEY: Refusal = (endpoint) =>
  new CloudError("auth_error", `${endpoint}: HTTP 401`, { endpoint, httpStatus: 401 });

/** A billing API: usage of one day per call, or a refusal of the key. */
function billingApi(opts: { refuse?: Refusal } = {}) {
  const calls: string[] = [];
  const refuse = opts.refuse;
  const api = {
    queryDailyUsage: async (args: { start: string; end: string }): Promise<UsagePage> => {
      calls.push(`usage ${args.start}..${args.end}`);
      if (refuse) throw refuse("POST /v2/usage/query");
      return { total: 0, currentPage: 1, pageSize: 100, listed: 0, days: [] };
    },
    listInvoices: async () => {
      calls.push("invoices");
      if (refuse) throw refuse("GET /v2/invoices");
      return { total: 0, currentPage: 1, pageSize: 100, listed: 0, invoices: [] };
    },
  } as unknown as CloudApi;
  return { api, calls };
}

async function env(raw: Record<string, unknown>, billing: CloudApi, states = new CollectorStates()) {
  const lines: string[] = [];
  let now = NOW;
  const logger = pino({ level: "info" }, { write: (l: string) => void lines.push(l) });
  const store = new SampleStore({ now: () => now });
  const config = await buildConfig({ api: { api_key: "monitoring-key" }, ...raw }, { env: {} });
  const monitoring = {} as CloudApi;
  const e: CollectorEnv = {
    config,
    clusters: [],
    lists: listedTargets(config, new Map(), { index: 0, total: 1 }),
    shard: { index: 0, total: 1 },
    ctx: {
      store,
      health: new HealthTracker(store, logger, () => now),
      self: new SelfMetrics({ version: "t", defaultMetrics: false }),
      now: () => now,
      logger,
    },
    clients: {
      forCluster: () => monitoring,
      credentialOf: () => "default",
      rateOf: () => config.api.rateLimit,
      ownKey: () => billing,
      dataPlane: () => {
        throw new Error("no data plane");
      },
    },
    state: states,
    onClustersDiscovered: () => {},
    onScopesChanged: () => {},
  };
  return { env: e, lines, tick: (ms: number) => (now += ms), store };
}

const run = async (e: CollectorEnv) => {
  for (const t of billingTasks(e)) await t.run(new AbortController().signal);
};

describe("billingTasks", () => {
  it("plans nothing while billing is off, and usage plus invoices (or not) once on", async () => {
    const { api } = billingApi();
    expect(billingTasks((await env({}, api)).env)).toEqual([]);
    const on = billingTasks((await env({ billing: { enabled: true } }, api)).env);
    expect(on.map((t) => [t.id.target, t.credential, t.intervalMs])).toEqual([
      [USAGE_TARGET, "billing", 3_600_000],
      [INVOICES_TARGET, "billing", 3_600_000],
    ]);
    const noInvoices = billingTasks(
      (await env({ billing: { enabled: true, invoices: { enabled: false } } }, api)).env,
    );
    expect(noInvoices.map((t) => t.id.target)).toEqual([USAGE_TARGET]);
  });

  it("keeps its cache across a rebuild of the tasks (a reload), and empties it for another key", async () => {
    const { api, calls } = billingApi();
    const states = new CollectorStates();
    await run((await env({ billing: { enabled: true, api_key: "k1" } }, api, states)).env);
    await run((await env({ billing: { enabled: true, api_key: "k1" } }, api, states)).env);
    await run((await env({ billing: { enabled: true, api_key: "k2" } }, api, states)).env);
    expect(calls.filter((c) => c.startsWith("usage"))).toEqual([
      "usage 2026-03-01..2026-03-16",
      "usage 2026-03-12..2026-03-16",
      "usage 2026-03-01..2026-03-16",
    ]);
    expect(states.get(BILLING_STATE).fullReadDay).toBe("2026-03-15");
  });

  it.each([
    { name: "HTTP 403", refuse: FORBIDDEN },
    { name: "code 96027 (Apikey scope)", refuse: SCOPE },
  ])(
    "a key without the role ($name): not permitted, up, one warning for both targets and every cycle",
    async ({ refuse }) => {
      const { api } = billingApi({ refuse });
      const {
        env: e,
        lines,
        tick,
        store,
      } = await env({ billing: { enabled: true, api_key: "b-secret" } }, api);
      await run(e);
      tick(3 * 3_600_000);
      await run(e);
      const warnings = () => lines.map((l) => JSON.parse(l)).filter((l) => l.level >= 40);
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatchObject({ collector: "billing", credential: "billing" });
      expect(warnings()[0].msg).toContain("Organization Owner or Billing Admin");
      expect(lines.join("\n")).not.toContain("b-secret");
      const text = (await store.publishNow()).text.toString();
      // Not permitted, not down: the target is up (no failing-target alert), and says why it has no data.
      expect(text).toContain('vdbcloud_collector_up{collector="billing",target="usage"} 1');
      expect(text).toContain(
        'vdbcloud_collector_not_permitted{collector="billing",target="usage",credential="billing"} 1',
      );
      expect(text).toContain(
        'vdbcloud_collector_not_permitted{collector="billing",target="invoices",credential="billing"} 1',
      );
      expect(e.ctx.health.list().map((h) => [h.up, h.notPermitted, h.lastError])).toEqual([
        [true, "billing", null],
        [true, "billing", null],
      ]);
      store.close();
    },
  );

  it("a key the service refuses (HTTP 401): a failure, down, never shown as not permitted", async () => {
    const { api } = billingApi({ refuse: INVALID_KEY });
    const { env: e, lines, store } = await env({ billing: { enabled: true, api_key: "b-secret" } }, api);
    await run(e);
    const text = (await store.publishNow()).text.toString();
    expect(text).toContain('vdbcloud_collector_up{collector="billing",target="usage"} 0');
    expect(text).toContain('vdbcloud_collector_up{collector="billing",target="invoices"} 0');
    expect(text).not.toContain("vdbcloud_collector_not_permitted");
    expect(e.ctx.health.list().map((h) => [h.up, h.notPermitted, h.lastError?.code])).toEqual([
      [false, null, "auth_error"],
      [false, null, "auth_error"],
    ]);
    const failing = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "target failing");
    expect(failing.map((l) => [l.level, l.cause])).toEqual([
      [40, "API key refused (invalid or expired)"],
      [40, "API key refused (invalid or expired)"],
    ]);
    expect(lines.join("\n")).not.toContain("lacks the permission");
    expect(lines.join("\n")).not.toContain("b-secret");
    store.close();
  });
});
