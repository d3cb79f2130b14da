/**
 * The canary against the simulator (real HTTP on loopback port 0, injected latency and faults per
 * cluster): its histogram holds the injected latency within its bucket bounds; errors, timeouts
 * and refusals are counted by outcome; a changed dimension is picked up after one refused
 * search; vCU is counted from the answers' cost; no call writes; and its calls stay within the
 * data plane's rate limit, taking only the turns the collections collector's first pass leaves.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_CLUSTERS, demoConfig, demoRunOptions, startDemoSimulator } from "../src/app/demo.js";
import { SEARCH_VCU } from "../src/simulator/canary.js";
import type { RequestDone, Simulator, SimulatorOptions } from "../src/simulator/index.js";
import { DATA_PLANE_ENDPOINT, ENDPOINT } from "../src/upstream/types.js";
import { withDataPlaneTokens } from "./helpers/dataPlaneTokens.js";
import { type Harness, parseSamples, sampleValue, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";
import { sectionsOff } from "./helpers/sectionsOff.js";

const INTERVAL_MS = 15_000;
type Raw = Record<string, unknown>;

let h: Harness | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await h?.close();
  await sim?.close();
  h = undefined;
  sim = undefined;
});

/** Only the collectors a test needs: the canary (and collections when asked). */
function quiet(raw: Raw): void {
  raw.metrics = { enabled: false };
  // The canary's section has no `enabled`: its targets switch it on.
  Object.assign(raw, sectionsOff());
  raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
}

async function start(
  simOpts: SimulatorOptions,
  canary: (s: Simulator) => Raw,
  edit: (raw: Raw, s: Simulator) => void = () => {},
) {
  const clock = new ManualClock(Math.floor(Date.now() / INTERVAL_MS) * INTERVAL_MS);
  const { startSimulator } = await import("../src/simulator/index.js");
  sim = await startSimulator({ clusters: 6, rateLimitPerSecond: 0, ...simOpts });
  const s = sim;
  h = await startHarness({
    simulator: s,
    clock,
    config: (raw) => {
      quiet(raw);
      raw.canary = { interval: "PT15S", ...canary(s) };
      edit(raw, s);
    },
  });
  await h.exporter.scheduler.firstCycle();
  await h.settle();
  const harness = h;
  const runs = () =>
    harness.exporter.scheduler
      .status()
      .filter((t) => t.collector === "canary")
      .reduce((n, t) => n + t.runs, 0);
  return {
    harness,
    s,
    /** Moves the clock on, a second at a time, until every canary task ran once more. */
    cycle: async () => {
      const tasks = harness.exporter.scheduler.status().filter((t) => t.collector === "canary").length;
      const target = runs() + tasks;
      for (let i = 0; i < 2 * (INTERVAL_MS / 1000) && runs() < target; i++) {
        await clock.advance(1000);
        await harness.settle();
      }
      expect(runs()).toBe(target);
    },
  };
}

const id = (s: Simulator, i: number): string => s.clusters[i]?.id ?? "";
const labels = (s: Simulator, i: number, operation = "search") => ({
  cluster_id: id(s, i),
  db_name: "default",
  collection_name: "docs",
  operation,
});

describe("the canary against the simulator", () => {
  it("times the injected latency within its bucket, counts outcomes and vCU, and never writes", async () => {
    const { harness, s, cycle } = await start(
      {
        canary: {
          profiles: { "#0": { latencyMs: 60 }, "#2": { timeoutRate: 1 }, "#3": { errorRate: 1 } },
        },
      },
      (s) => ({
        timeout: "PT0.5S",
        targets: [0, 1, 2, 3, 4].map((i) => ({ cluster_id: id(s, i), collection_name: "docs" })),
      }),
      // The serverless cluster (#4) takes its user's credential; #1 is left with the API key, which it refuses.
      (raw, s) => withDataPlaneTokens(s, raw, { [id(s, 1)]: TEST_API_KEY }),
    );
    expect(s.clusters[4]?.plan).toBe("Serverless");
    await cycle();
    await cycle();
    const text = await harness.metrics();
    const value = (name: string, i: number, extra: Record<string, string> = {}) =>
      sampleValue(text, name, { ...labels(s, i), ...extra });

    // #0: 60 ms on every answer, so every probe lands in (0.05, 0.1].
    expect(value("vdbcloud_canary_duration_seconds_count", 0)).toBe(3);
    expect(value("vdbcloud_canary_duration_seconds_bucket", 0, { le: "0.05" })).toBe(0);
    expect(value("vdbcloud_canary_duration_seconds_bucket", 0, { le: "0.1" })).toBe(3);
    expect(value("vdbcloud_canary_up", 0)).toBe(1);
    expect(value("vdbcloud_canary_vcu_total", 0)).toBe(0);

    // #1 refuses the credential, #2 never answers, #3 answers with an engine error.
    for (const [i, outcome] of [
      [1, "refused"],
      [2, "timeout"],
      [3, "error"],
    ] as const) {
      expect(value("vdbcloud_canary_requests_total", i, { outcome }), outcome).toBe(3);
      expect(value("vdbcloud_canary_requests_total", i, { outcome: "success" }), outcome).toBe(0);
      expect(value("vdbcloud_canary_up", i), outcome).toBe(0);
      expect(value("vdbcloud_canary_duration_seconds_count", i), outcome).toBe(0);
    }
    // A failed probe is the canary's data: the collector itself is up for that cluster.
    expect(sampleValue(text, "vdbcloud_collector_up", { collector: "canary", target: id(s, 3) })).toBe(1);

    // #4 is serverless: each search's answer costs SEARCH_VCU.
    expect(value("vdbcloud_canary_requests_total", 4, { outcome: "success" })).toBe(3);
    expect(value("vdbcloud_canary_vcu_total", 4)).toBe(3 * SEARCH_VCU);
    expect(s.stats.mutatingCalls).toEqual([]);
  }, 60_000);

  it("picks up a changed dimension after one refused search", async () => {
    const { harness, s, cycle } = await start({}, (s) => ({
      targets: [{ cluster_id: id(s, 0), collection_name: "docs" }],
    }));
    const calls = (endpoint: string) => s.stats.byEndpointCluster[endpoint]?.[id(s, 0)] ?? 0;
    expect([calls(DATA_PLANE_ENDPOINT.describeCollection), calls(DATA_PLANE_ENDPOINT.search)]).toEqual([
      1, 1,
    ]);
    s.canary.setVector(id(s, 0), "default", "docs", { name: "vector", type: "FloatVector", dim: 16 });
    await cycle();
    // One refused search, one Describe Collection, one search of the new dimension.
    expect([calls(DATA_PLANE_ENDPOINT.describeCollection), calls(DATA_PLANE_ENDPOINT.search)]).toEqual([
      2, 3,
    ]);
    expect(s.stats.lastRequest[DATA_PLANE_ENDPOINT.search]?.body).toMatchObject({
      data: [expect.any(Array)],
    });
    const sent = (s.stats.lastRequest[DATA_PLANE_ENDPOINT.search]?.body as { data: number[][] } | undefined)
      ?.data[0];
    expect(sent?.length).toBe(16);
    await cycle();
    expect(calls(DATA_PLANE_ENDPOINT.search)).toBe(4);
    // The cluster's address was asked once, for the first probe, and kept for the others.
    expect(calls(ENDPOINT.describeCluster)).toBe(1);
    const text = await harness.metrics();
    expect(sampleValue(text, "vdbcloud_canary_requests_total", { ...labels(s, 0), outcome: "success" })).toBe(
      3,
    );
    expect(sampleValue(text, "vdbcloud_canary_requests_total", { ...labels(s, 0), outcome: "error" })).toBe(
      0,
    );
  }, 60_000);

  it("stays within the data plane's rate limit, taking only the turns the collections poll leaves", async () => {
    const done: { at: number; template: string }[] = [];
    const rate = 4;
    const collections = new Set<string>([
      DATA_PLANE_ENDPOINT.listDatabases,
      DATA_PLANE_ENDPOINT.listCollections,
      DATA_PLANE_ENDPOINT.getLoadState,
      DATA_PLANE_ENDPOINT.listIndexes,
      DATA_PLANE_ENDPOINT.describeIndex,
    ]);
    const canaryCalls = new Set<string>([
      DATA_PLANE_ENDPOINT.describeCollection,
      DATA_PLANE_ENDPOINT.search,
      DATA_PLANE_ENDPOINT.query,
    ]);
    const { s } = await start(
      {
        onRequestDone: (d: RequestDone) => {
          if (collections.has(d.template) || canaryCalls.has(d.template))
            done.push({ at: performance.now(), template: d.template });
        },
      },
      (s) => ({
        targets: [
          { cluster_id: id(s, 0), collection_name: "docs" },
          { cluster_id: id(s, 0), collection_name: "images" },
          { cluster_id: id(s, 0), db_name: "analytics", collection_name: "products", operation: "query" },
        ],
      }),
      (raw, s) => {
        // One cluster, its endpoint given (no Describe Cluster first): both collectors start at once.
        raw.clusters = [{ id: id(s, 0), data_plane: { endpoint: `${s.baseUrl}/dp/${id(s, 0)}` } }];
        raw.collections = { enabled: true, interval: "PT30S", rate_limit: rate, scopes: false };
      },
    );
    expect(s.clusters[0]?.collections).toEqual([
      { dbName: "default", collectionName: "docs" },
      { dbName: "default", collectionName: "images" },
      { dbName: "analytics", collectionName: "products" },
    ]);
    const kinds = done.map((d) => (canaryCalls.has(d.template) ? "canary" : "collections"));
    expect(kinds.filter((k) => k === "canary")).toHaveLength(5);
    expect(kinds.filter((k) => k === "collections").length).toBeGreaterThan(5);
    // Every turn the collections poll waited for went to it: a canary call came before its last
    // one only if it reached the idle plane first.
    const lastCollections = kinds.lastIndexOf("collections");
    expect(kinds.slice(0, lastCollections).filter((k) => k === "canary").length).toBeLessThanOrEqual(1);
    // Together within the budget: never more than `rate` answered in any second (the limiter's
    // window is a second and its margin).
    for (const d of done)
      expect(done.filter((e) => e.at >= d.at && e.at < d.at + 1_000).length).toBeLessThanOrEqual(rate);
    expect(s.stats.rateLimited).toBe(0);
  }, 60_000);
});

describe("the demo's canary", () => {
  it("probes its two collections, one degraded, and writes nothing", async () => {
    const tokenDir = mkdtempSync(join(tmpdir(), "vdbcloud-canary-"));
    try {
      sim = await startDemoSimulator({ clusters: DEMO_CLUSTERS, metricCatalog: "permissive" });
      const run = demoConfig(sim, demoRunOptions("127.0.0.1:0", tokenDir, "permissive"));
      const demoSim = sim;
      h = await startHarness({
        simulator: demoSim,
        config: (raw) => {
          for (const key of Object.keys(raw)) delete raw[key];
          Object.assign(raw, run);
        },
      });
      await h.exporter.scheduler.firstCycle();
      await h.settle();
      const samples = parseSamples(await h.metrics()).filter((x) => x.name === "vdbcloud_canary_up");
      const serverless = demoSim.clusters.find((c) => c.plan === "Serverless")?.id;
      expect(samples.map((x) => x.labels.cluster_id).sort()).toEqual(
        [demoSim.clusters[0]?.id, serverless].sort(),
      );
      expect(demoSim.canary.profileOf(demoSim.clusters[0]?.id ?? "")).toMatchObject({ errorRate: 0.2 });
      expect(demoSim.stats.mutatingCalls).toEqual([]);
    } finally {
      rmSync(tokenDir, { recursive: true, force: true });
    }
  }, 120_000);
});
