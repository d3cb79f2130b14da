import type { CloudApi, ClusterDescription } from "../../cloud/types.js";
import type { ClusterConfig, InventoryConfig } from "../../config/types.js";
import type { ScheduledTask } from "../../schedule/scheduler.js";
import { mergeMappings, type PollContext, putData, runPoll } from "../runtime.js";
import { mapCluster, mapProjects, mapRegions } from "./mapping.js";

/** Page size for List Clusters (documented range 1..100). */
export const LIST_CLUSTERS_PAGE_SIZE = 100;
/** Hard stop for paging: 10,000 clusters. */
export const MAX_CLUSTER_PAGES = 100;

/** One Describe Cluster task per cluster: info, status state set, CU size. */
export function describeClusterTasks(
  ctx: PollContext,
  cfg: InventoryConfig,
  clusters: readonly ClusterConfig[],
  clientFor: (cluster: ClusterConfig) => CloudApi,
  stalenessIntervals: number,
): ScheduledTask[] {
  if (!cfg.enabled) return [];
  const ttlMs = stalenessIntervals * cfg.intervalMs;
  return clusters.map((cluster) => {
    const client = clientFor(cluster);
    return {
      key: `inventory/${cluster.id}`,
      collector: "inventory",
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(ctx, "inventory", cluster.id, async () => {
          putData(
            ctx,
            "inventory",
            cluster.id,
            mapCluster(await client.describeCluster(cluster.id, signal)),
            ttlMs,
          );
        }),
    };
  });
}

/**
 * Organisation-wide listings: List Cloud Regions (v2) and List Projects (v1, which needs a
 * region for its controller URL: the first known cluster region). One task, target "global".
 */
export function globalInventoryTask(
  ctx: PollContext,
  cfg: InventoryConfig,
  client: CloudApi,
  projectsRegion: string | undefined,
  stalenessIntervals: number,
): ScheduledTask[] {
  if (!cfg.enabled) return [];
  return [
    {
      key: "inventory/global",
      collector: "inventory",
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(ctx, "inventory", "global", async () => {
          const regions = mapRegions(await client.listRegions({}, signal));
          const projects =
            projectsRegion === undefined
              ? undefined
              : mapProjects(await client.listProjects({ region: projectsRegion }, signal));
          putData(
            ctx,
            "inventory",
            "global",
            projects ? mergeMappings(regions, projects) : regions,
            stalenessIntervals * cfg.intervalMs,
          );
        }),
    },
  ];
}

/**
 * Lists every cluster visible to the key through List Clusters (paged), filtered by the
 * configured projects and regions (an empty filter list means all).
 */
export async function discoverClusters(
  client: CloudApi,
  filter: { projectIds: readonly string[]; regionIds: readonly string[] },
  signal?: AbortSignal,
): Promise<ClusterDescription[]> {
  const projectIds = filter.projectIds.length > 0 ? filter.projectIds : [undefined];
  const regionIds = filter.regionIds.length > 0 ? filter.regionIds : [undefined];
  const found = new Map<string, ClusterDescription>();
  for (const projectId of projectIds) {
    for (const regionId of regionIds) {
      for (let page = 1; page <= MAX_CLUSTER_PAGES; page++) {
        const res = await client.listClusters(
          {
            ...(projectId !== undefined ? { projectId } : {}),
            ...(regionId !== undefined ? { regionId } : {}),
            pageSize: LIST_CLUSTERS_PAGE_SIZE,
            currentPage: page,
          },
          signal,
        );
        for (const c of res.clusters) {
          // The upstream may ignore a filter it does not know: apply it here as well.
          if (projectId !== undefined && c.projectId !== null && c.projectId !== projectId) continue;
          if (regionId !== undefined && c.regionId !== null && c.regionId !== regionId) continue;
          found.set(c.clusterId, c);
        }
        const seen = page * LIST_CLUSTERS_PAGE_SIZE;
        if (res.clusters.length < LIST_CLUSTERS_PAGE_SIZE || seen >= res.total) break;
      }
    }
  }
  return [...found.values()];
}

/**
 * The discovery task: lists clusters every interval and hands the result to `onClusters`
 * (which re-plans the other collectors' targets). A failed listing keeps the previous targets.
 */
export function discoveryTask(
  ctx: PollContext,
  cfg: InventoryConfig,
  client: CloudApi,
  onClusters: (clusters: ClusterDescription[]) => void,
): ScheduledTask[] {
  if (!cfg.discovery.enabled) return [];
  return [
    {
      key: "inventory/discovery",
      collector: "inventory",
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(ctx, "inventory", "discovery", async () => {
          onClusters(await discoverClusters(client, cfg.discovery, signal));
        }),
    },
  ];
}
