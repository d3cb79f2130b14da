/**
 * Indexes against the simulator, which answers List Indexes and Describe Index as the reference's
 * samples do (Describe Index as a one-item array on even clusters, as the schema's object on odd
 * ones): every index's info, state and rows exactly as the data plane tells them, the first
 * cluster's build followed to finished, its failed build's reason logged exactly once, and every
 * data-plane call within collections.rate_limit.
 */
import { afterEach, describe, expect, it } from "vitest";
import { indexStateValue } from "../src/collectors/collections/indexMapping.js";
import type { Simulator } from "../src/simulator/index.js";
import { FAILED_BUILD_REASON } from "../src/simulator/indexes.js";
import { withDataPlaneTokens } from "./helpers/dataPlaneTokens.js";
import { type Harness, matching, parseSamples, type Samples, startHarness } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";
import { sectionsOff } from "./helpers/sectionsOff.js";

const INTERVAL_MS = 30_000;
const RATE_LIMIT = 20;
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Raw = Record<string, unknown>;

/** A data-plane call as the simulator answered it, at the real time it did. */
interface Answered {
  readonly clusterId: string;
  readonly template: string;
  readonly atMs: number;
}

/**
 * The simulator (4 clusters, 6 collections each, builds 20 times real time) and the exporter
 * polling only collections, every 30 s. The simulator's clock is held still while a step's polls
 * run, so what it answered is what it tells afterwards.
 */
async function start(logs: string[]) {
  const clock = new ManualClock(Math.floor(Date.now() / INTERVAL_MS) * INTERVAL_MS);
  let simNow = clock.now();
  const answered: Answered[] = [];
  h = await startHarness({
    clock,
    logs,
    sim: {
      clusters: 4,
      collectionsPerCluster: 6,
      timeScale: 20,
      now: () => simNow,
      // Its limiter would count every request of a step in one frozen second.
      rateLimitPerSecond: 0,
      onRequestDone: (d) => {
        if (d.template.includes("/vectordb/") && d.clusterId !== undefined)
          answered.push({ clusterId: d.clusterId, template: d.template, atMs: Date.now() });
      },
    },
    config: (raw: Raw, sim) => {
      raw.metrics = { enabled: false };
      Object.assign(raw, sectionsOff("collections"));
      raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
      raw.jobs = { ids: [] };
      raw.collections = { enabled: true, interval: "PT30S", row_count: true, rate_limit: RATE_LIMIT };
      withDataPlaneTokens(sim, raw);
    },
  });
  const harness = h;
  const step = async (ms: number): Promise<Samples> => {
    simNow = clock.now() + ms;
    await clock.advance(ms);
    await harness.settle();
    return parseSamples(await harness.metrics());
  };
  await harness.exporter.scheduler.firstCycle();
  const initial = parseSamples(await harness.metrics());
  return { harness, sim: harness.sim, step, initial, answered };
}

const key = (l: Record<string, string | undefined>) => `${l.db_name}/${l.collection_name}/${l.index_name}`;

/** What the exporter shows of one cluster's indexes, by "<db>/<collection>/<index>". */
function exposed(samples: Samples, clusterId: string) {
  const out = new Map<string, Record<string, unknown>>();
  const at = (l: Record<string, string>) => {
    const k = key(l);
    const entry = out.get(k) ?? {};
    out.set(k, entry);
    return entry;
  };
  for (const s of matching(samples, "vdbcloud_index_info", { cluster_id: clusterId })) {
    expect(s.value).toBe(1);
    Object.assign(at(s.labels), {
      fieldName: s.labels.field_name,
      indexType: s.labels.index_type,
      metricType: s.labels.metric_type ?? "",
    });
  }
  for (const s of matching(samples, "vdbcloud_index_state", { cluster_id: clusterId })) {
    if (s.value === 1) Object.assign(at(s.labels), { state: s.labels.state });
  }
  for (const [family, field] of [
    ["vdbcloud_index_rows", "totalRows"],
    ["vdbcloud_index_indexed_rows", "indexedRows"],
    ["vdbcloud_index_pending_rows", "pendingRows"],
  ] as const) {
    for (const s of matching(samples, family, { cluster_id: clusterId })) at(s.labels)[field] = s.value;
  }
  return out;
}

/** What the simulator's data plane tells of one cluster's indexes now, in the same form. */
function told(s: Simulator, clusterId: string) {
  return new Map(
    s.state.dataIndexes(clusterId).map((i) => [
      key({ db_name: i.dbName, collection_name: i.collectionName, index_name: i.indexName }),
      {
        fieldName: i.fieldName,
        indexType: i.indexType,
        metricType: i.metricType,
        state: indexStateValue(i.indexState),
        totalRows: i.totalRows,
        indexedRows: i.indexedRows,
        pendingRows: i.pendingRows,
      },
    ]),
  );
}

const BUILDING = "default/images/embedding_idx";
const FAILED = "analytics/products/embedding_idx";

describe("indexes against the simulator", () => {
  it("shows every index exactly, follows a build to finished and logs a failed build's reason once", async () => {
    const logs: string[] = [];
    const { harness, sim: s, step, initial, answered } = await start(logs);
    const firstCluster = s.clusters[0]?.id as string;
    const progress: Array<{ state: unknown; indexed: unknown; pending: unknown }> = [];
    const follow = (samples: Samples) => {
      const b = exposed(samples, firstCluster).get(BUILDING);
      progress.push({ state: b?.state, indexed: b?.indexedRows, pending: b?.pendingRows });
    };
    const exact = (samples: Samples, when: string) => {
      for (const c of s.clusters) expect(exposed(samples, c.id), `${c.id} ${when}`).toEqual(told(s, c.id));
    };
    // The start-up runs, all at the simulator's start; then the first slots, 0.5 to 1.5
    // intervals after start (some clusters' fall after this step, so it is not compared); from
    // there on, one step polls every cluster once.
    exact(initial, "at start");
    follow(initial);
    let samples = await step(INTERVAL_MS / 2);
    follow(samples);
    for (let i = 0; i < 5; i++) {
      samples = await step(INTERVAL_MS);
      exact(samples, `at step ${i}`);
      follow(samples);
    }

    // Every cluster shows indexes, scalar ones (no metric) among them, through both answer shapes.
    for (const c of s.clusters) expect(exposed(samples, c.id).size).toBeGreaterThan(6);
    expect(matching(samples, "vdbcloud_index_info", { index_type: "INVERTED" }).length).toBeGreaterThan(0);

    // The build: unissued, then in progress with indexed rows growing, then finished, never back.
    const states = progress.map((p) => p.state);
    expect(states[0]).toBe("unissued");
    expect(states).toContain("in_progress");
    expect(states.at(-1)).toBe("finished");
    const order = ["unissued", "in_progress", "finished"];
    const ranks = states.map((x) => order.indexOf(x as string));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const indexed = progress.map((p) => p.indexed as number);
    expect(indexed).toEqual([...indexed].sort((a, b) => a - b));
    expect(new Set(indexed.filter((_, i) => states[i] === "in_progress")).size).toBeGreaterThan(1);
    expect(progress.at(-1)?.pending).toBe(0);

    // The failed build: failed all along, its reason logged exactly once and nowhere in /metrics.
    const failed = exposed(samples, firstCluster).get(FAILED);
    expect(failed).toMatchObject({ state: "failed" });
    expect(failed?.pendingRows as number).toBeGreaterThan(0);
    const lines = logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "index build failed");
    expect(lines).toEqual([
      expect.objectContaining({
        cluster_id: firstCluster,
        db_name: "analytics",
        collection_name: "products",
        index_name: "embedding_idx",
        state: "Failed",
        reason: FAILED_BUILD_REASON,
      }),
    ]);
    expect(await harness.metrics()).not.toContain("segment 451");

    // Nothing failed or was refused; no call was a write; every cluster's data-plane calls stayed
    // within collections.rate_limit in every second.
    const up = matching(samples, "vdbcloud_collector_up", { collector: "collections" });
    expect(up.map((x) => x.value)).toEqual(s.clusters.map(() => 1));
    expect(s.stats.mutatingCalls).toEqual([]);
    expect(s.stats.byEndpoint["POST /v2/vectordb/indexes/describe"]).toBeGreaterThan(0);
    for (const c of s.clusters) {
      const times = answered.filter((a) => a.clusterId === c.id).map((a) => a.atMs);
      expect(times.length).toBeGreaterThan(0);
      for (const t of times) {
        expect(times.filter((x) => x >= t && x < t + 1000).length, c.id).toBeLessThanOrEqual(RATE_LIMIT);
      }
    }
  });
});
