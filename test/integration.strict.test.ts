/**
 * Against a strict server (the simulator's strict catalog: only the public reference's metric
 * enum, `stat` required, one bad item refuses the whole request with code 96000): the default
 * queries are all accepted, and a refused query costs only itself.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WARNING_COALESCE_MS } from "../src/collectors/cluster-metrics/warnings.js";
import { DEFAULT_METRIC_QUERIES } from "../src/config/queries.js";
import type { RequestDone } from "../src/simulator/index.js";
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

/** The smallest config: a key and the clusters, no query list; `edit` adds to it. */
async function strictHarness(
  clock: ManualClock,
  calls: MetricsCall[],
  edit: (raw: Record<string, unknown>) => void = () => {},
  logs?: string[],
): Promise<Harness> {
  const harness = await startHarness({
    clock,
    ...(logs ? { logs } : {}),
    sim: {
      // Ahead of the exporter by more than the data lag: every bucket the exporter asks for has
      // its value whenever it is asked, so a second asking gives the same answer.
      now: () => clock.now() + SIM_AHEAD_MS,
      clusters: 2,
      metricCatalog: "strict",
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
      raw.inventory = { enabled: false };
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

/** The exposed sample of one cluster-wide first-form query (by the catalog's labels). */
function exposed(samples: Sample[], clusterId: string, name: string, stat: string): Sample | undefined {
  const latency = /^REQ_(.+)_LATENCY$/.exec(name);
  return samples.find((s) => {
    if (
      s.labels.cluster_id !== clusterId ||
      s.labels.db_name !== undefined ||
      s.labels.collection_name !== undefined
    )
      return false;
    if (latency?.[1] !== undefined) {
      return (
        s.name === "vdbcloud_request_latency_seconds" &&
        s.labels.request_type === latency[1].toLowerCase() &&
        s.labels.stat === stat.toLowerCase()
      );
    }
    return s.labels.upstream === undefined && HELP_NAME.get(s.name)?.(s, name) === true;
  });
}

// Which exposed sample carries which upstream name (the families of design.md section 5).
const typed =
  (prefix: string, suffix = "") =>
  (s: Sample, name: string) =>
    name === `${prefix}${(s.labels.request_type ?? "").toUpperCase()}${suffix}`;
const HELP_NAME = new Map<string, (s: Sample, name: string) => boolean>([
  ["vdbcloud_cu_computation_ratio", (_s, n) => n === "CU_COMPUTATION"],
  ["vdbcloud_cu_capacity_ratio", (_s, n) => n === "CU_CAPACITY"],
  ["vdbcloud_storage_bytes", (_s, n) => n === "STORAGE_USE"],
  ["vdbcloud_requests_per_second", typed("REQ_", "_COUNT")],
  ["vdbcloud_vector_requests_per_second", typed("VECTOR_REQ_", "_COUNT")],
  [
    "vdbcloud_request_failure_ratio",
    (s, n) => (s.labels.request_type === "all" ? n === "REQ_FAIL_RATE" : typed("REQ_FAIL_RATE_")(s, n)),
  ],
  ["vdbcloud_request_success_ratio", (_s, n) => n === "REQ_SUCCESS_RATE"],
  ["vdbcloud_loaded_entities", (_s, n) => n === "ENTITIES_LOADED"],
  ["vdbcloud_entity_inserts_per_second", (_s, n) => n === "ENTITIES_INSERT_RATE"],
  ["vdbcloud_collections", (_s, n) => n === "COLLECTIONS_COUNT"],
  ["vdbcloud_entities", (_s, n) => n === "ENTITIES_COUNT"],
]);

function close(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected));
}

/** Checks every default query of every cluster against a fresh answer of the simulator. */
async function expectEveryDefaultExact(harness: Harness, calls: MetricsCall[]): Promise<void> {
  const samples = parseSamples(await harness.metrics());
  for (const cluster of harness.sim.clusters) {
    const accepted = calls.filter(
      (c) =>
        c.clusterId === cluster.id &&
        c.body.dbName === undefined &&
        c.body.metricQueries.length === DEFAULT_METRIC_QUERIES.length &&
        c.body.metricQueries.every((q) => q.name !== "READ_VCU"),
    );
    const last = accepted.at(-1);
    expect(last, cluster.id).toBeDefined();
    // Bucket closedness as the exporter judged it, when it asked.
    const expected = await expectedValues(harness, last as MetricsCall, (last as MetricsCall).atMs);
    for (const q of DEFAULT_METRIC_QUERIES) {
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
    const up = samples.find(
      (s) =>
        s.name === "vdbcloud_collector_up" &&
        s.labels.collector === "cluster_metrics" &&
        s.labels.target === cluster.id,
    );
    expect(up?.value).toBe(1);
  }
}

function refusedCalls(samples: Sample[]): number {
  return samples
    .filter((s) => s.name === "vdbcloud_api_requests_total" && s.labels.endpoint === METRICS)
    .filter((s) => s.labels.outcome !== "success")
    .reduce((n, s) => n + s.value, 0);
}

describe("against a strict server", () => {
  it("the smallest config gives every documented metric, exact, with no refused call", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    const calls: MetricsCall[] = [];
    h = await strictHarness(clock, calls);
    await step(clock, h, INTERVAL);
    await expectEveryDefaultExact(h, calls);
    expect(refusedCalls(parseSamples(await h.metrics()))).toBe(0);
    // One request per cluster per cycle, every query of the default list in it.
    for (const cluster of h.sim.clusters) {
      const mine = calls.filter((c) => c.clusterId === cluster.id);
      expect(mine.length).toBeGreaterThanOrEqual(1);
      for (const c of mine) expect(c.body.metricQueries).toHaveLength(DEFAULT_METRIC_QUERIES.length);
    }
    expect(parseSamples(await h.metrics()).some((s) => s.name === "vdbcloud_metric_query_rejected")).toBe(
      false,
    );
  }, 30_000);

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
          queries: [...DEFAULT_METRIC_QUERIES, { name: "READ_VCU", stat: "AVG" }],
        };
        // A per-collection scope is asked in the second form, which a strict server refuses
        // altogether: the scope must survive in the first form.
        const clusters = raw.clusters as { id: string; scopes?: unknown }[];
        if (clusters[0]) clusters[0].scopes = [{ db_name: "default" }];
      },
      logs,
    );
    await step(clock, h, INTERVAL);
    await expectEveryDefaultExact(h, calls);
    const samples = parseSamples(await h.metrics());
    for (const cluster of h.sim.clusters) {
      const rejected = samples.filter(
        (s) => s.name === "vdbcloud_metric_query_rejected" && s.labels.cluster_id === cluster.id,
      );
      expect(rejected.map((s) => [s.labels.metric, s.labels.stat, s.value])).toEqual([
        ["READ_VCU", "AVG", 1],
      ]);
      const up = samples.find(
        (s) => s.name === "vdbcloud_collector_up" && s.labels.target === `${cluster.id}`,
      );
      expect(up?.value).toBe(1);
    }
    // The scope answered in the first form, and nothing of it was quarantined.
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
    for (const c of scopeCalls) expect(c.body.metricQueries.every((q) => q.stat !== undefined)).toBe(true);
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
      metric: "READ_VCU",
      stats: ["AVG"],
      targets: h.sim.clusters.length,
      upstream: "invalid metric name: READ_VCU",
    });

    // Found in the first cycle: not sent again before the quarantine has passed, then once
    // per period, alone, in its configured form.
    while (clock.now() + INTERVAL < startMs + 2 * quarantineMs) await step(clock, h, INTERVAL);
    const vcu = calls.filter((c) => c.body.metricQueries.some((q) => q.name === "READ_VCU"));
    expect(vcu.filter((c) => c.atMs > startMs && c.atMs < startMs + quarantineMs)).toEqual([]);
    const retrials = vcu.filter((c) => c.atMs >= startMs + quarantineMs);
    expect(retrials).toHaveLength(h.sim.clusters.length);
    for (const r of retrials) expect(r.body.metricQueries).toEqual([{ name: "READ_VCU", stat: "AVG" }]);
    await expectEveryDefaultExact(h, calls);
    const after = parseSamples(await h.metrics());
    expect(
      after.filter((s) => s.name === "vdbcloud_metric_query_rejected" && s.labels.db_name === undefined),
    ).toHaveLength(h.sim.clusters.length);
    // After the first cycle the rest flows in one request per cluster: every cluster-wide call
    // but the retrials carries the whole default list, and nothing is halved again.
    const later = calls.filter(
      (c) => c.atMs > startMs && c.body.dbName === undefined && !retrials.includes(c),
    );
    expect(later.length).toBeGreaterThanOrEqual(2 * h.sim.clusters.length);
    for (const c of later) expect(c.body.metricQueries).toHaveLength(DEFAULT_METRIC_QUERIES.length);
    // Refused again on its retrial by the same targets: no second warning.
    await new Promise((r) => setTimeout(r, WARNING_COALESCE_MS + 100));
    expect(logs.filter((l) => l.includes("metric refused by the service"))).toHaveLength(1);
  }, 60_000);
});
