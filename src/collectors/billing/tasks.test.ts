import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { buildConfig } from "../../config/load.js";
import { SelfMetrics } from "../../exposition/selfMetrics.js";
import { SampleStore } from "../../exposition/store.js";
import { HealthTracker } from "../../polling/health.js";
import { type CollectorEnv, CollectorStates } from "../../polling/model.js";
import { CloudError } from "../../upstream/errors.js";
import type { CloudApi, UsagePage } from "../../upstream/types.js";
import { BILLING_STATE } from "./cache.js";
import { billingTasks, INVOICES_TARGET, REFUSAL_WARN_EVERY_MS, USAGE_TARGET } from "./tasks.js";

const NOW = Date.parse("2026-03-15T10:30:00Z");

/** A billing API: usage of one day per call, or a refusal of the key. */
function billingApi(opts: { refuse?: boolean } = {}) {
  const calls: string[] = [];
  const refuse = (endpoint: "POST /v2/usage/query" | "GET /v2/invoices") =>
    new CloudError("auth_error", `${endpoint}: HTTP 403: permission denied`, { endpoint, httpStatus: 403 });
  const api = {
    queryDailyUsage: async (args: { start: string; end: string }): Promise<UsagePage> => {
      calls.push(`usage ${args.start}..${args.end}`);
      if (opts.refuse) throw refuse("POST /v2/usage/query");
      return { total: 0, currentPage: 1, pageSize: 100, rows: 0, days: [] };
    },
    listInvoices: async () => {
      calls.push("invoices");
      if (opts.refuse) throw refuse("GET /v2/invoices");
      return { count: 0, currentPage: 1, pageSize: 100, invoices: [] };
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
    sparkJobs: [],
    configuredSparkJobs: [],
    jobIds: [],
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
      billing: () => billing,
      dataPlane: () => {
        throw new Error("no data plane");
      },
    },
    state: states,
    onDiscovered: () => {},
    onCollections: () => {},
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

  it("a refused key: one warning naming collector and credential, at most hourly, for both targets", async () => {
    const { api } = billingApi({ refuse: true });
    const {
      env: e,
      lines,
      tick,
      store,
    } = await env({ billing: { enabled: true, api_key: "b-secret" } }, api);
    await run(e);
    tick(REFUSAL_WARN_EVERY_MS - 1);
    await run(e);
    const warnings = () => lines.map((l) => JSON.parse(l)).filter((l) => l.level >= 40);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ collector: "billing", credential: "billing" });
    tick(1);
    await run(e);
    expect(warnings()).toHaveLength(2);
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
    // Only the collector's own line: nothing from the health tracker at warn or above.
    expect(warnings().every((w) => w.collector === "billing" && w.credential === "billing")).toBe(true);
    store.close();
  });
});
