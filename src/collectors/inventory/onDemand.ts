/**
 * On-demand clusters: billed compute that List Clusters does not show. List On-Demand Clusters
 * takes one project and one region (both required), so it is asked once per project and region
 * the exporter knows (List Projects V2 `regionIds`, and the polled clusters' projects and
 * regions), on the replica that owns account-wide calls (shard 0), every inventory interval.
 * Each project and region is a part of the poll (polling/parts.ts): one that fails keeps its
 * last good series and is shown on the target's health, the others are unaffected.
 */

import { familyFilter } from "../../metrics/familyFilter.js";
import type { CollectorEnv, CollectorTask } from "../../polling/model.js";
import { eachOnce } from "../../polling/pager.js";
import { projectRegions } from "../../polling/projects.js";
import { projectListingTask } from "../../polling/projectTask.js";
import { ENDPOINT, type OnDemandCluster } from "../../upstream/types.js";
import { ON_DEMAND_CLUSTER_FAMILIES } from "./families.js";
import { mapOnDemandClusters } from "./mapping.js";

/**
 * List On-Demand Clusters' one answer, each cluster once: it is not paged, and it can name a
 * cluster twice (the reference's own sample does, with two names), so the pager's rule keeps
 * the first and no cluster is exposed twice.
 */
export function listedOnce(clusters: readonly OnDemandCluster[]): OnDemandCluster[] {
  return eachOnce(clusters, (c) => `${c.projectId}/${c.regionId}/${c.clusterId}`);
}

/** The task's target: the health series `vdbcloud_collector_up{collector="inventory",target="on_demand"}`. */
export const ON_DEMAND_TARGET = "on_demand";

/**
 * The one task (shard 0, `inventory.on_demand`), or none; none either while `families` denies
 * every on-demand family, so that its listings are spared as a denied collector's are.
 */
export function onDemandTask(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.inventory;
  if (!cfg.enabled || !cfg.onDemand) return [];
  const filter = familyFilter(env.config.families);
  if (!Object.values(ON_DEMAND_CLUSTER_FAMILIES).some((f) => filter.exposes(f.name))) return [];
  return projectListingTask(env, {
    collector: "inventory",
    target: ON_DEMAND_TARGET,
    // The service's on-demand guide: managing on-demand clusters needs a Project Admin.
    role: "Project Admin",
    intervalMs: cfg.intervalMs,
    endpoint: ENDPOINT.listOnDemandClusters,
    parts: projectRegions,
    key: (p) => `${p.projectId}/${p.regionId}`,
    poll: async (client, p, signal) =>
      mapOnDemandClusters(listedOnce(await client.listOnDemandClusters(p, signal)), p),
  });
}
