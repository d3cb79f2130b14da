/**
 * Against a server of each reference (the simulator's catalogs: "current", the reference as it
 * reads today, name only, and "2024", that reference's enum with `stat` required; one bad item
 * refuses the whole request with code 96000): the default queries are answered exactly, the
 * form is learned once per key, and a refused query costs only itself.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WARNING_COALESCE_MS } from "../src/collectors/cluster-metrics/warnings.js";
import { DEFAULT_METRIC_QUERIES } from "../src/config/queries.js";
import { familyFor } from "../src/metrics/familyLookup.js";
import type { MetricCatalogMode, MetricStatPolicy, RequestDone } from "../src/simulator/index.js";
import { type Harness, parseSamples, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const METRICS = "POST /v2/clusters/{id}/metrics/query";
const INTERVAL = 30_000;
const SIM_AHEAD_MS = 600_000;
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface MetricsCall {
  readonly clusterId: string;
  /** The simulator's (manual) clock when it answered. */
  readonly atMs: number;
  readonly body: {
    start: string;
    end: string;
    granularity: string;
    metricQueries: { name: string; stat?: string }[];
    dbName?: string;
    collectionName?: string;
  };
}

async function idle(harness: Harness): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (!harness.exporter.scheduler.status().some((t) => t.running)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("polls still running after 10 s");
}

async function step(clock: ManualClock, harness: Harness, ms: number): Promise<void> {
  await clock.advance(ms);
  await idle(harness);
}

/** The simulator's reference and what it does with a stray `stat`. */
interface Reference {
  readonly catalog: MetricCatalogMode;
  readonly stat?: MetricStatPolicy;
}

/** The smallest config: a key and the clusters, no query list; `edit` adds to it. */
async function strictHarness(
  clock: ManualClock,
  calls: MetricsCall[],
  edit: (raw: Record<string, unknown>) => void = () => {},
  logs?: string[],
  reference: Reference = { catalog: "current" },
): Promise<Harness> {
  const harness = await startHarness({
    clock,
    ...(logs ? { logs } : {}),
    sim: {
      // Ahead of the exporter by more than the data lag: every bucket the exporter asks for has
      // its value whenever it is asked, so a second asking gives the same answer.
      now: () => clock.now() + SIM_AHEAD_MS,
      // Four clusters hold an Enterprise one (slow queries, flushes, write capacity) and others.
      clusters: 4,
      metricCatalog: reference.catalog,
      ...(reference.stat === undefined ? {} : { metricStat: reference.stat }),
      // The manual clock stands still while the client paces requests in real time: the
      // simulator would see every request of a cycle in one instant (its limit is tested
      // against real time elsewhere).
      rateLimitPerSecond: 0,
      onRequestDone: (done: RequestDone) => {
        if (done.template === METRICS && done.clusterId !== undefined)
          calls.push({
            clusterId: done.clusterId,
            atMs: clock.now(),
            body: done.body as MetricsCall["body"],
          });
      },
    },
    config: (raw) => {
      raw.clusters = (raw.clusters as { id: string }[]).map((c) => ({ id: c.id }));
      raw.metrics = { granularity: "PT30S", interval: "PT30S" };
      raw.import_jobs = { enabled: false };
      // The inventory stays on, as in the smallest config: it tells each cluster's plan.
      raw.spark_jobs = { jobs: [] };
      edit(raw);
    },
  });
  await harness.exporter.scheduler.firstCycle();
  await idle(harness);
  // First slots fall 0.5 to 1.5 intervals after start: from here each step of one interval
  // polls every target once.
  await step(clock, harness, INTERVAL * 1.5);
  return harness;
}

const TO_BASE: Record<string, (v: number) => number> = {
  percent: (v) => v / 100,
  ms: (v) => v / 1000,
  GB: (v) => v * 1e9,
  "count/min": (v) => v / 60,
  "count/s": (v) => v,
  count: (v) => v,
};

/**
 * What the exporter should show for every query of `call`: the same request sent again to the
 * simulator at the same (manual) time, newest closed non-null bucket, in base units. Keyed by
 * name/stat.
 */
async function expectedValues(
  harness: Harness,
  call: MetricsCall,
  nowMs: number,
): Promise<Map<string, number>> {
  const res = await fetch(`${harness.sim.baseUrl}/v2/clusters/${call.clusterId}/metrics/query`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify(call.body),
  });
  const answer = (await res.json()) as {
    code: number;
    data: {
      results: {
        name: string;
        stat?: string;
        unit: string;
        values: { timestamp: string; value: string | null }[];
      }[];
    };
  };
  expect(answer.code).toBe(0);
  const endMs = Date.parse(call.body.end);
  const out = new Map<string, number>();
  for (const r of answer.data.results) {
    const closed = r.values.filter(
      (p) =>
        p.value !== null && Date.parse(p.timestamp) < endMs && Date.parse(p.timestamp) + INTERVAL <= nowMs,
    );
    const newest = closed.at(-1);
    const convert = TO_BASE[r.unit];
    if (newest?.value == null || convert === undefined) continue;
    out.set(`${r.name}/${r.stat ?? ""}`, convert(Number(newest.value)));
  }
  return out;
}

type Sample = ReturnType<typeof parseSamples>[number];

/** The exposed sample of one cluster-wide query: its family and labels, as design.md section 5 maps them. */
function exposed(samples: Sample[], clusterId: string, name: string, stat: string): Sample | undefined {
  const entry = familyFor(name, stat === "" ? undefined : (stat as "AVG" | "P99"));
  if (entry === undefined) return undefined;
  return samples.find(
    (s) =>
      s.name === entry.family.name &&
      s.labels.cluster_id === clusterId &&
      s.labels.db_name === undefined &&
      s.labels.collection_name === undefined &&
      Object.entries(entry.labels).every(([k, v]) => s.labels[k] === v),
  );
}

function close(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected));
}

/** The cluster-wide calls of one cluster that asked the default list (not a retrial alone). */
function listCalls(calls: MetricsCall[], clusterId: string): MetricsCall[] {
  return calls.filter(
    (c) => c.clusterId === clusterId && c.body.dbName === undefined && c.body.metricQueries.length > 5,
  );
}

/**
 * Checks every query of each cluster's last list call against a fresh answer of the simulator
 * (exact, in base units), and that the default names left out of it (not offered on the
 * cluster's plan, or not in the key's reference) have no series. Returns the last calls.
 */
async function expectEveryDefaultExact(
  harness: Harness,
  calls: MetricsCall[],
): Promise<Map<string, MetricsCall>> {
  const samples = parseSamples(await harness.metrics());
  const lastCalls = new Map<string, MetricsCall>();
  for (const cluster of harness.sim.clusters) {
    const last = listCalls(calls, cluster.id).at(-1);
    expect(last, cluster.id).toBeDefined();
    const call = last as MetricsCall;
    lastCalls.set(cluster.id, call);
    // Bucket closedness as the exporter judged it, when it asked.
    const expected = await expectedValues(harness, call, call.atMs);
    for (const q of call.body.metricQueries) {
      const key = `${q.name}/${q.stat ?? ""}`;
      const want = expected.get(key);
      const got = exposed(samples, cluster.id, q.name, q.stat ?? "");
      if (want === undefined) {
        // All-null in the simulator (e.g. bulk insert on a cluster that never bulk inserts).
        expect(got, `${cluster.id} ${key}`).toBeUndefined();
        continue;
      }
      expect(got, `${cluster.id} ${key}`).toBeDefined();
      expect(close(got?.value ?? Number.NaN, want), `${cluster.id} ${key}: ${got?.value} vs ${want}`).toBe(
        true,
      );
    }
    const asked = new Set(call.body.metricQueries.map((q) => q.name));
    for (const q of DEFAULT_METRIC_QUERIES) {
      if (asked.has(q.name) || asked.has(q.name.replace(/_(AVG|P99)$/, ""))) continue;
      expect(exposed(samples, cluster.id, q.name, ""), `${cluster.id} ${q.name} not asked`).toBeUndefined();
    }
    const up = samples.find(
      (s) =>
        s.name === "vdbcloud_collector_up" &&
        s.labels.collector === "cluster_metrics" &&
        s.labels.target === cluster.id,
    );
    expect(up?.value).toBe(1);
  }
  return lastCalls;
}

/** The names only the service's Enterprise plan offers (design.md section 7). */
const ENTERPRISE_ONLY = [
  "CLUSTER_WRITE_CAPACITY",
  "SLOW_QUERY_COUNT",
  "FLUSH_COUNT",
  "UNLOADED_COLLECTIONS_COUNT",
];

function formGauge(samples: Sample[]): Record<string, number> {
  return Object.fromEntries(
    samples.filter((s) => s.name === "vdbcloud_metrics_query_form").map((s) => [s.labels.form, s.value]),
  );
}

function refusedCalls(samples: Sample[]): number {
  return samples
    .filter((s) => s.name === "vdbcloud_api_requests_total" && s.labels.endpoint === METRICS)
    .filter((s) => s.labels.outcome !== "success")
    .reduce((n, s) => n + s.value, 0);
}

describe.each<[string, Reference]>([
  ["the current reference, a stray stat ignored", { catalog: "current", stat: "ignored" }],
  ["the current reference, a stray stat refused", { catalog: "current", stat: "refused" }],
])("against a server of %s", (_name, reference) => {
  it("the smallest config gives every value exact within two cycles, name only, with no refused call", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    const calls: MetricsCall[] = [];
    h = await strictHarness(clock, calls, undefined, undefined, reference);
    await step(clock, h, INTERVAL);
    const last = await expectEveryDefaultExact(h, calls);
    const samples = parseSamples(await h.metrics());
    expect(refusedCalls(samples)).toBe(0);
    expect(samples.some((s) => s.name === "vdbcloud_metric_query_rejected")).toBe(false);
    expect(formGauge(samples)).toEqual({ current: 1, "2024": 0 });
    // Every query in the current form: a name only.
    for (const c of calls) expect(c.body.metricQueries.every((q) => q.stat === undefined)).toBe(true);
    // Once the plan is known, a cluster is asked only what its plan offers: an Enterprise
    // cluster shows write capacity, indexed entities, slow queries and flushes.
    const enterprise = h.sim.clusters.find((c) => c.plan === "Enterprise" && c.status === "RUNNING");
    expect(enterprise).toBeDefined();
    const id = enterprise?.id ?? "";
    const asked = (clusterId: string) => new Set(last.get(clusterId)?.body.metricQueries.map((q) => q.name));
    for (const name of [...ENTERPRISE_ONLY, "ENTITIES_INDEXED"]) {
      expect(asked(id).has(name), name).toBe(true);
      expect(exposed(samples, id, name, "")?.value, name).toEqual(expect.any(Number));
    }
    expect(asked(id).has("READ_VCU")).toBe(false);
    for (const cluster of h.sim.clusters.filter((c) => c.plan === "Standard")) {
      for (const name of [...ENTERPRISE_ONLY, "READ_VCU", "WRITE_VCU"])
        expect(asked(cluster.id).has(name)).toBe(false);
    }
  }, 30_000);
});

describe("against a server of the 2024 reference", () => {
  it("the key learns the 2024 form on its first refusal: one refused call over the run, every value exact", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    const calls: MetricsCall[] = [];
    const logs: string[] = [];
    h = await strictHarness(clock, calls, undefined, logs, { catalog: "2024" });
    for (let i = 0; i < 4; i++) await step(clock, h, INTERVAL);
    const last = await expectEveryDefaultExact(h, calls);
    const samples = parseSamples(await h.metrics());
    expect(refusedCalls(samples)).toBe(1);
    expect(samples.some((s) => s.name === "vdbcloud_metric_query_rejected")).toBe(false);
    expect(formGauge(samples)).toEqual({ current: 0, "2024": 1 });
    // After the switch, every call is in the 2024 form, and asks only that reference's names.
    for (const call of last.values()) {
      expect(call.body.metricQueries.every((q) => q.stat !== undefined)).toBe(true);
      expect(call.body.metricQueries.some((q) => q.name === "READ_VCU")).toBe(false);
    }
    expect(
      samples.some((s) => s.name === "vdbcloud_request_latency_seconds" && s.labels.stat === "p99"),
    ).toBe(true);
    // The switch is logged once.
    expect(logs.filter((l) => l.includes('"event":"metrics_query_form"'))).toHaveLength(1);
  }, 30_000);

  it("metrics.form: 2024 pins the form: no refused call at all", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    const calls: MetricsCall[] = [];
    h = await strictHarness(
      clock,
      calls,
      (raw) => {
        raw.metrics = { granularity: "PT30S", interval: "PT30S", form: "2024" };
      },
      undefined,
      { catalog: "2024" },
    );
    await step(clock, h, INTERVAL);
    await expectEveryDefaultExact(h, calls);
    const samples = parseSamples(await h.metrics());
    expect(refusedCalls(samples)).toBe(0);
    expect(formGauge(samples)).toEqual({ current: 0, "2024": 1 });
  }, 30_000);
});

describe("a refused name", () => {
  it("one refused name costs only itself: quarantined, exposed, asked once per quarantine period", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    const startMs = clock.now();
    const quarantineMs = 120_000;
    const calls: MetricsCall[] = [];
    const logs: string[] = [];
    h = await strictHarness(
      clock,
      calls,
      (raw) => {
        raw.metrics = {
          granularity: "PT30S",
          interval: "PT30S",
          quarantine: "PT2M",
          // In the catalog but not in the reference: a strict server refuses it in both forms.
          // No server knows it: refused in both forms.
          queries: [...DEFAULT_METRIC_QUERIES, { name: "NOT_A_METRIC" }],
          allow_unknown_names: true,
        };
        // A per-collection scope is asked in the current form too.
        const clusters = raw.clusters as { id: string; scopes?: unknown }[];
        if (clusters[0]) {
          clusters[0].scopes = [
            { db_name: "default", queries: [{ name: "ENTITIES_COUNT" }, { name: "REQ_SEARCH_LATENCY_P99" }] },
          ];
        }
      },
      logs,
    );
    await step(clock, h, INTERVAL);
    await expectEveryDefaultExact(h, calls);
    const samples = parseSamples(await h.metrics());
    for (const cluster of h.sim.clusters) {
      const rejected = samples.filter(
        (s) =>
          s.name === "vdbcloud_metric_query_rejected" &&
          s.labels.cluster_id === cluster.id &&
          s.labels.db_name === undefined,
      );
      expect(rejected.map((s) => [s.labels.metric, s.labels.stat, s.value])).toEqual([
        ["NOT_A_METRIC", "", 1],
      ]);
      const up = samples.find(
        (s) => s.name === "vdbcloud_collector_up" && s.labels.target === `${cluster.id}`,
      );
      expect(up?.value).toBe(1);
    }
    // The scope answered in the current form, and nothing of it was quarantined.
    const clusterId = h.sim.clusters[0]?.id ?? "";
    expect(
      samples.some(
        (s) =>
          s.name === "vdbcloud_entities" &&
          s.labels.cluster_id === clusterId &&
          s.labels.db_name === "default",
      ),
    ).toBe(true);
    expect(
      samples.some((s) => s.name === "vdbcloud_metric_query_rejected" && s.labels.db_name !== undefined),
    ).toBe(false);
    const scopeCalls = calls.filter((c) => c.body.dbName === "default" && c.atMs > startMs);
    expect(scopeCalls.length).toBeGreaterThan(0);
    for (const c of scopeCalls) expect(c.body.metricQueries.every((q) => q.stat === undefined)).toBe(true);
    // One warning for the refused name, with how many targets it affects and the service's
    // message (the targets' findings are gathered for WARNING_COALESCE_MS first).
    const refusedLines = async (): Promise<Record<string, unknown>[]> => {
      for (let i = 0; i < 200; i++) {
        const found = logs.filter((l) => l.includes("metric refused by the service"));
        if (found.length > 0) return found.map((l) => JSON.parse(l) as Record<string, unknown>);
        await new Promise((r) => setTimeout(r, 25));
      }
      return [];
    };
    const warnings = await refusedLines();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      metric: "NOT_A_METRIC",
      targets: h.sim.clusters.length,
      upstream: "invalid metric name: NOT_A_METRIC",
    });

    // Found in the first cycle: not sent again before the quarantine has passed, then once
    // per period, alone, in its configured form.
    while (clock.now() + INTERVAL < startMs + 2 * quarantineMs) await step(clock, h, INTERVAL);
    const vcu = calls.filter((c) => c.body.metricQueries.some((q) => q.name === "NOT_A_METRIC"));
    expect(vcu.filter((c) => c.atMs > startMs && c.atMs < startMs + quarantineMs)).toEqual([]);
    const retrials = vcu.filter((c) => c.atMs >= startMs + quarantineMs);
    expect(retrials).toHaveLength(h.sim.clusters.length);
    for (const r of retrials) expect(r.body.metricQueries).toEqual([{ name: "NOT_A_METRIC" }]);
    await expectEveryDefaultExact(h, calls);
    const after = parseSamples(await h.metrics());
    expect(
      after.filter((s) => s.name === "vdbcloud_metric_query_rejected" && s.labels.db_name === undefined),
    ).toHaveLength(h.sim.clusters.length);
    // After the first cycle the rest flows in one request per cluster: every cluster-wide call
    // but the retrials carries the cluster's whole list, and nothing is halved again.
    const later = calls.filter(
      (c) => c.atMs > startMs && c.body.dbName === undefined && !retrials.includes(c),
    );
    expect(later.length).toBeGreaterThanOrEqual(2 * h.sim.clusters.length);
    for (const c of later) {
      const ownList = listCalls(calls, c.clusterId).at(-1)?.body.metricQueries.length;
      expect(c.body.metricQueries).toHaveLength(ownList ?? -1);
      expect(c.body.metricQueries.some((q) => q.name === "NOT_A_METRIC")).toBe(false);
    }
    // Refused again on its retrial by the same targets: no second warning.
    await new Promise((r) => setTimeout(r, WARNING_COALESCE_MS + 100));
    expect(logs.filter((l) => l.includes("metric refused by the service"))).toHaveLength(1);
  }, 60_000);
});
