import { type Collector, type CollectorEnv, type CollectorTask, collectorTask } from "../model.js";
import { mergeMappings, putData, runPoll } from "../runtime.js";
import { mapClusterMetrics, newestBucketSamples } from "./mapping.js";
import { metricsRequest, metricsTargets } from "./targets.js";

export { metricsTargetName } from "./targets.js";

/**
 * The queried window: `lookback` (rounded up to whole granularity steps) ending at the last
 * granularity boundary at or before `nowMs - delayMs`, so consecutive cycles ask for the same
 * buckets and every bucket of the window has ended (a delay also lets late data settle).
 */
export function alignedWindow(
  nowMs: number,
  granularityMs: number,
  lookbackMs: number,
  delayMs = 0,
): { startMs: number; endMs: number } {
  const endMs = Math.floor((nowMs - delayMs) / granularityMs) * granularityMs;
  const steps = Math.max(1, Math.ceil(lookbackMs / granularityMs));
  return { startMs: endMs - steps * granularityMs, endMs };
}

const COLLECTOR = "cluster_metrics";
const ENDPOINT = "POST /v2/clusters/{id}/metrics/query";

/**
 * One task per target (a cluster, plus one per configured scope). Each run sends one Query
 * Cluster Metrics request carrying all the target's queries (two when both request forms are
 * configured: they must not mix), maps the results and replaces the target's samples.
 */
export function clusterMetricsTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx, clients, clusters } = env;
  const cfg = env.config.metrics;
  const stalenessIntervals = env.config.stalenessIntervals;
  if (!cfg.enabled) return [];
  const tasks: CollectorTask[] = [];
  const ttlMs = stalenessIntervals * cfg.intervalMs;
  for (const target of metricsTargets(cfg, clusters)) {
    const { cluster, scope, batches } = target;
    const client = clients.forCluster(cluster);
    tasks.push(
      collectorTask({
        id: { collector: COLLECTOR, target: target.name },
        credential: clients.credentialOf(cluster),
        calls: [{ endpoint: ENDPOINT, count: batches.length, atLeast: false }],
        intervalMs: cfg.intervalMs,
        run: (signal) =>
          runPoll(ctx, COLLECTOR, target.name, async () => {
            const nowMs = ctx.now();
            const { startMs, endMs } = alignedWindow(nowMs, cfg.granularityMs, cfg.lookbackMs, cfg.delayMs);
            const window = { startMs, endMs, granularityMs: cfg.granularityMs };
            const results = [];
            for (const batch of batches) {
              results.push(
                ...(await client.queryClusterMetrics(metricsRequest(target, batch, window), signal)),
              );
            }
            const mapped = mapClusterMetrics({
              clusterId: cluster.id,
              ...(scope ? { scope } : {}),
              results,
              window: { endMs, granularityMs: cfg.granularityMs, nowMs },
            });
            const newest = newestBucketSamples(cluster.id, scope, mapped.newestBucketMs);
            putData(ctx, COLLECTOR, target.name, mergeMappings(mapped, newest), ttlMs);
          }),
      }),
    );
  }
  return tasks;
}

/** The cluster metrics collector: Query Cluster Metrics per cluster and per scope. */
export const clusterMetricsCollector = {
  name: COLLECTOR,
  label: COLLECTOR,
  tasks: clusterMetricsTasks,
} as const satisfies Collector;
