import { ownsGlobalCalls } from "../../config/shard.js";
import type { MappingResult } from "../../metrics/sample.js";
import { CLUSTER_KINDS, learnPlans } from "../../polling/clusterKinds.js";
import { clusterTask } from "../../polling/clusterTask.js";
import { CONNECT_ADDRESSES } from "../../polling/dataPlanes.js";
import { type ApiFallback, apiFallbackSlot } from "../../polling/fallback.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { mergeMappings, type PollContext, putData, runPoll } from "../../polling/runtime.js";
import { type CloudApi, ENDPOINT } from "../../upstream/types.js";
import { isUnknownEndpoint } from "../../upstream/unknownEndpoint.js";
import { INVENTORY_SECTION } from "./config.js";
import { INVENTORY_FAMILIES, ON_DEMAND_CLUSTER_FAMILIES } from "./families.js";
import { mapCluster, mapProjectInfo, mapProjects, mapRegions } from "./mapping.js";
import { onDemandTask } from "./onDemand.js";

const COLLECTOR = "inventory";

/** One Describe Cluster task per cluster: info, status state set, CU size. */
export function describeClusterTasks(env: CollectorEnv): CollectorTask[] {
  const { ctx } = env;
  const cfg = env.config.inventory;
  if (!cfg.enabled) return [];
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return env.clusters.map((cluster) =>
    clusterTask(env, cluster, {
      collector: COLLECTOR,
      calls: [{ endpoint: ENDPOINT.describeCluster, count: 1, atLeast: false }],
      intervalMs: cfg.intervalMs,
      poll: async ({ client, signal }) => {
        const desc = await client.describeCluster(cluster.id, signal);
        // Dedicated-only collectors (backups) skip free and serverless clusters by their plan;
        // the data-plane collectors go to its address without asking again.
        learnPlans(env.state.get(CLUSTER_KINDS), ctx.health, [desc]);
        env.state.get(CONNECT_ADDRESSES).note(cluster.id, desc.connectAddress, ctx.now());
        putData(ctx, COLLECTOR, cluster.id, mapCluster(desc), ttlMs);
      },
    }),
  );
}

/** The choice between List Projects V2 and v1 (target "global"). */
const PROJECTS_API_FALLBACK = apiFallbackSlot("projects api fallback");

const GLOBAL = "global";

/**
 * List Projects: V2 (plan and org type, no region needed); v1 only where V2 is refused as an
 * unknown endpoint and a region is known for its controller URL (then for an hour, as the
 * fallback state says). The first fallback is logged, and so is, once, a refusal with no region
 * to fall back to (projects are then left out; regions still come).
 */
async function listProjects(
  client: CloudApi,
  region: string | undefined,
  fallback: ApiFallback,
  nowMs: number,
  logger: PollContext["logger"],
  signal?: AbortSignal,
): Promise<MappingResult | undefined> {
  if (region !== undefined && fallback.choose(GLOBAL, nowMs) === "v1") {
    return mapProjects(await client.listProjects({ region }, signal));
  }
  try {
    const projects = await client.listProjectsV2(signal);
    if (fallback.accepted(GLOBAL)) {
      logger?.info({ collector: COLLECTOR }, "List Projects V2 accepted again: v1 no longer used");
    }
    return mergeMappings(mapProjects(projects), mapProjectInfo(projects));
  } catch (err) {
    if (!isUnknownEndpoint(err)) throw err;
    if (region === undefined) {
      if (fallback.firstTime(GLOBAL, "no region")) {
        logger?.warn(
          { collector: COLLECTOR, err },
          "List Projects V2 refused as an unknown endpoint, and no region is known for the v1 fallback: projects are not exported",
        );
      }
      return undefined;
    }
    if (fallback.refused(GLOBAL, nowMs)) {
      logger?.warn(
        { collector: COLLECTOR, err },
        "List Projects V2 refused as an unknown endpoint: using v1, V2 tried again every hour",
      );
    }
    return mapProjects(await client.listProjects({ region }, signal));
  }
}

/**
 * Organisation-wide listings, on the replica that owns account-wide calls (shard 0): List
 * Cloud Regions (v2) and List Projects (V2; v1 where V2 is refused, which needs a region for
 * its controller URL: the first cluster discovery region filter, else the first known cluster region).
 * One task, target "global".
 */
export function globalInventoryTask(env: CollectorEnv): CollectorTask[] {
  const { ctx } = env;
  const cfg = env.config.inventory;
  if (!cfg.enabled || !ownsGlobalCalls(env.shard)) return [];
  const client = env.clients.forCluster({});
  const fallback = env.state.get(PROJECTS_API_FALLBACK);
  const projectsRegion = cfg.discovery.regionIds[0] ?? env.clusters.find((c) => c.region)?.region;
  return [
    collectorTask({
      id: { collector: COLLECTOR, target: GLOBAL },
      credential: env.clients.credentialOf({}),
      calls: [
        { endpoint: ENDPOINT.listRegions, count: 1, atLeast: false },
        { endpoint: ENDPOINT.listProjectsV2, count: 1, atLeast: false },
      ],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(
          ctx,
          { collector: COLLECTOR, target: GLOBAL, credential: env.clients.credentialOf({}) },
          async () => {
            const regions = mapRegions(await client.listRegions({}, signal));
            const projects = await listProjects(
              client,
              projectsRegion,
              fallback,
              ctx.now(),
              ctx.logger,
              signal,
            );
            putData(
              ctx,
              COLLECTOR,
              GLOBAL,
              projects ? mergeMappings(regions, projects) : regions,
              env.config.stalenessIntervals * cfg.intervalMs,
            );
          },
        ),
    }),
  ];
}

/**
 * The inventory collector: Describe Cluster per cluster, and the account-wide listings (regions
 * and projects; on-demand clusters per project and region).
 */
export const inventoryCollector = defineCollector(
  COLLECTOR,
  (env: CollectorEnv): CollectorTask[] => [
    ...describeClusterTasks(env),
    ...globalInventoryTask(env),
    ...onDemandTask(env),
  ],
  {
    polls: "Describe Cluster per cluster; projects, regions and on-demand clusters (shard 0)",
    config: INVENTORY_SECTION,
    // The full demo lists clusters too: it finds the configured ones, and cluster discovery's own
    // families (the clusters beyond inventory.discovery.max_clusters) show.
    demo: {
      settings: ({ full }) => ({ interval: "PT30S", ...(full ? { discovery: { enabled: true } } : {}) }),
    },
    areas: [
      { title: "Inventory", families: INVENTORY_FAMILIES },
      { title: "On-demand clusters", families: ON_DEMAND_CLUSTER_FAMILIES },
    ],
  },
);
