/**
 * The canary: what the application sees. Per cluster with targets (`canary.targets`), one task
 * (target = the cluster ID) on the replica that polls the cluster; each target of it is a part
 * of its poll (polling/parts.ts), probed once per `canary.interval` (probe.ts) through the
 * cluster's data-plane client, the one the collections collector uses: the same rate budget
 * (`collections.rate_limit`), in its background lane, so the canary never slows a poll there.
 * A probe's failure is the canary's data (vdbcloud_canary_up 0, counted by outcome), shown on the
 * target's health, never a failure of the poll; only a data plane the exporter cannot find (no
 * endpoint, Describe Cluster failing) fails the poll. Nothing here writes: no insert, upsert,
 * delete, nor any call the data-plane client has no method for.
 */
import type { ClusterConfig, Config } from "../../config/types.js";
import { clusterTask } from "../../polling/clusterTask.js";
import {
  type CallEstimate,
  type CollectorEnv,
  type CollectorTask,
  defineCollector,
} from "../../polling/model.js";
import { pollParts } from "../../polling/parts.js";
import { DATA_PLANE_ENDPOINT, ENDPOINT } from "../../upstream/types.js";
import { CANARY_SECTION, type CanaryTarget } from "./config.js";
import { canaryDemo } from "./demo.js";
import { CANARY_FAMILIES } from "./families.js";
import { mapCanary } from "./mapping.js";
import { canaryNotes } from "./notes.js";
import { probeTarget } from "./probe.js";
import { CANARY_MEMORY, targetKey } from "./state.js";

const COLLECTOR = "canary";

/**
 * The calls one probe of `target` makes: a query target's one Query; a search target's Search
 * and its Describe Collection (counted every run, made hourly), at least, since a search refused
 * for its vector describes and searches once more.
 */
export function probeCalls(target: Pick<CanaryTarget, "operation">): CallEstimate[] {
  return target.operation === "query"
    ? [{ endpoint: DATA_PLANE_ENDPOINT.query, count: 1, atLeast: false }]
    : [
        { endpoint: DATA_PLANE_ENDPOINT.describeCollection, count: 1, atLeast: true },
        { endpoint: DATA_PLANE_ENDPOINT.search, count: 1, atLeast: true },
      ];
}

/** The calls one run of a cluster's task makes, summed per endpoint (at least, where a probe's are). */
function callsOf(cluster: ClusterConfig, targets: readonly CanaryTarget[]): CallEstimate[] {
  const counts = new Map<CallEstimate["endpoint"], { count: number; atLeast: boolean }>();
  if (cluster.dataPlaneEndpoint === undefined)
    counts.set(ENDPOINT.describeCluster, { count: 1, atLeast: false });
  for (const call of targets.flatMap(probeCalls)) {
    const sum = counts.get(call.endpoint) ?? { count: 0, atLeast: false };
    counts.set(call.endpoint, { count: sum.count + call.count, atLeast: sum.atLeast || call.atLeast });
  }
  return [...counts].map(([endpoint, sum]) => ({ endpoint, ...sum }));
}

/** The targets of each of this replica's clusters, in the file's order. */
export function targetsByCluster(
  config: Config,
  clusters: readonly ClusterConfig[],
): Map<ClusterConfig, CanaryTarget[]> {
  const out = new Map<ClusterConfig, CanaryTarget[]>();
  for (const cluster of clusters) {
    const mine = config.canary.targets.filter((t) => t.clusterId === cluster.id);
    if (mine.length > 0) out.set(cluster, [...mine]);
  }
  return out;
}

/** One task per cluster of this replica with targets; none without targets (the default). */
function canaryTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.canary;
  const memory = env.state.get(CANARY_MEMORY);
  const byCluster = targetsByCluster(env.config, env.clusters);
  memory.retain(new Set([...byCluster.values()].flat().map(targetKey)));
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return [...byCluster].map(([cluster, targets]) =>
    clusterTask(env, cluster, {
      collector: COLLECTOR,
      calls: callsOf(cluster, targets),
      intervalMs: cfg.intervalMs,
      poll: async ({ dataPlane, run, signal }) => {
        const dp = await dataPlane();
        const deps = {
          dp,
          memory,
          timeoutMs: cfg.timeoutMs,
          now: env.ctx.now,
          signal,
          logger: env.ctx.logger,
        };
        await pollParts(
          env.ctx,
          run,
          {
            collector: COLLECTOR,
            target: cluster.id,
            key: targetKey,
            poll: async (target) => {
              const end = await probeTarget(target, deps);
              // A failed probe is data, and shown on the target's health beside it.
              if (end.failure !== undefined) run.partialFailure(end.failure);
              return mapCanary(target, memory.record(target, end.result));
            },
            ttlMs,
          },
          targets,
          signal,
        );
      },
    }),
  );
}

/** Read-only probes of chosen collections: their availability, latency and cost as an application sees them. */
export const canaryCollector = defineCollector(COLLECTOR, canaryTasks, {
  polls: "a read-only search or query of each canary target, through its cluster's data plane",
  config: CANARY_SECTION,
  notes: canaryNotes,
  demo: canaryDemo,
  areas: [{ title: "Canary", families: CANARY_FAMILIES }],
});
