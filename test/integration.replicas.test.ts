/**
 * Three replicas (--shard I --total-shards 3) with one key and 300 clusters against one
 * simulator counting 20 requests per second per endpoint and key over a sliding second: each
 * spends its share of the budget (7, 7 and 6 per second), so together they draw no rate-limit
 * answer over their start and the cycle after it, and every cluster is polled by exactly one.
 * Without the split each would send 18 per second at start, 54 together.
 */
import { afterEach, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { type Harness, startHarness } from "./helpers/harness.js";
import { userConfig } from "./helpers/simConfig.js";

const CLUSTERS = 300;
const REPLICAS = 3;
const INTERVAL_MS = 30_000;
const METRICS = "POST /v2/clusters/{id}/metrics/query";

let sim: Simulator | undefined;
let replicas: Harness[] = [];
afterEach(async () => {
  await Promise.all(replicas.map((r) => r.close()));
  replicas = [];
  await sim?.close();
  sim = undefined;
});

it("three replicas with one key and 300 clusters: no rate-limit answer, every cluster polled by exactly one", async () => {
  const simulator = await startSimulator({
    clusters: CLUSTERS,
    rateLimitPerSecond: 20,
    rateLimitMode: "sliding",
  });
  sim = simulator;
  // One config for all three, as one ConfigMap: the clusters, one key, every collector at 30 s.
  const config = (raw: Record<string, unknown>) => {
    userConfig(raw);
    raw.metrics = { granularity: "PT30S", interval: "PT30S" };
    raw.import_jobs = { interval: "PT30S" };
    raw.inventory = { interval: "PT30S" };
    raw.spark_jobs = { discovery: { interval: "PT30S" } };
    raw.global_clusters = { interval: "PT30S" };
  };
  replicas = await Promise.all(
    Array.from({ length: REPLICAS }, (_, index) =>
      startHarness({ simulator, config, publishDelayMs: 1_000, shard: { index, total: REPLICAS } }),
    ),
  );
  await Promise.all(replicas.map((r) => r.exporter.scheduler.firstCycle()));
  const readyAt = Date.now();
  // The cycle after the start: every slot of every target comes once more.
  await new Promise((r) => setTimeout(r, INTERVAL_MS + 5_000));

  expect(simulator.stats.rateLimited, JSON.stringify(simulator.stats.rateLimitedByEndpoint)).toBe(0);
  // Each cluster's metrics were polled by exactly one replica, and polled again after the start.
  const pollers = new Map<string, number[]>();
  replicas.forEach((r, index) => {
    for (const row of r.exporter.health.list()) {
      if (row.collector !== "cluster_metrics" || row.lastSuccessMs === null) continue;
      pollers.set(row.target, [...(pollers.get(row.target) ?? []), index]);
      expect(row.lastSuccessMs).toBeGreaterThan(readyAt);
    }
  });
  expect(pollers.size).toBe(CLUSTERS);
  expect([...pollers.values()].filter((p) => p.length !== 1)).toEqual([]);
  const perCluster = simulator.stats.byEndpointCluster[METRICS] ?? {};
  expect(Object.keys(perCluster)).toHaveLength(CLUSTERS);
  // Each replica says what it spends: 20 / 3 in whole requests, the first two shards one more;
  // shard 0 the whole budget on the account-wide listings only it makes, and on List API Keys
  // through the api_keys section's client of its own (its own key, here the default one).
  expect(replicas.map((r) => r.exporter.landing().budgets?.map((b) => b.perSecond))).toEqual([
    [20, 7, 20],
    [7],
    [6],
  ]);
}, 120_000);
