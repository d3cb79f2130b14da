import { ownsGlobalCalls } from "../../config/shard.js";
import { CLUSTER_KINDS } from "../../polling/clusterKinds.js";
import { type Collector, type CollectorEnv, type CollectorTask, collectorTask } from "../../polling/model.js";
import { mergeMappings, putData, runPoll } from "../../polling/runtime.js";
import { ENDPOINT } from "../../upstream/types.js";
import { mapCluster, mapProjects, mapRegions } from "./mapping.js";

const COLLECTOR = "inventory";

/** One Describe Cluster task per cluster: info, status state set, CU size. */
export function describeClusterTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx, clients } = env;
  const cfg = env.config.inventory;
  if (!cfg.enabled) return [];
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return env.clusters.map((cluster) => {
    const client = clients.forCluster(cluster);
    return collectorTask({
      id: { collector: COLLECTOR, target: cluster.id },
      credential: clients.credentialOf(cluster),
      calls: [{ endpoint: ENDPOINT.describeCluster, count: 1, atLeast: false }],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(ctx, COLLECTOR, cluster.id, async () => {
          const desc = await client.describeCluster(cluster.id, signal);
          // Dedicated-only collectors (backups) skip free and serverless clusters by their plan.
          env.state.get(CLUSTER_KINDS).notePlan(desc.clusterId, desc.plan);
          putData(ctx, COLLECTOR, cluster.id, mapCluster(desc), ttlMs);
        }),
    });
  });
}

/**
 * Organisation-wide listings, on the replica that owns account-wide calls (shard 0): List
 * Cloud Regions (v2) and List Projects (v1, which needs a region for its controller URL: the
 * first discovery region filter, else the first known cluster region). One task, target
 * "global".
 */
export function globalInventoryTask(env: CollectorEnv): CollectorTask[] {
  const { ctx } = env;
  const cfg = env.config.inventory;
  if (!cfg.enabled || !ownsGlobalCalls(env.shard)) return [];
  const client = env.clients.forCluster({});
  const projectsRegion = cfg.discovery.regionIds[0] ?? env.clusters.find((c) => c.region)?.region;
  return [
    collectorTask({
      id: { collector: COLLECTOR, target: "global" },
      credential: env.clients.credentialOf({}),
      calls: [
        { endpoint: ENDPOINT.listRegions, count: 1, atLeast: false },
        ...(projectsRegion === undefined
          ? []
          : [{ endpoint: ENDPOINT.listProjects, count: 1, atLeast: false }]),
      ],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(ctx, COLLECTOR, "global", async () => {
          const regions = mapRegions(await client.listRegions({}, signal));
          const projects =
            projectsRegion === undefined
              ? undefined
              : mapProjects(await client.listProjects({ region: projectsRegion }, signal));
          putData(
            ctx,
            COLLECTOR,
            "global",
            projects ? mergeMappings(regions, projects) : regions,
            env.config.stalenessIntervals * cfg.intervalMs,
          );
        }),
    }),
  ];
}

/** The inventory collector: Describe Cluster per cluster, and the account-wide listings. */
export const inventoryCollector = {
  name: COLLECTOR,
  label: COLLECTOR,
  tasks: (env: CollectorEnv): CollectorTask[] => [...describeClusterTasks(env), ...globalInventoryTask(env)],
} as const satisfies Collector;
