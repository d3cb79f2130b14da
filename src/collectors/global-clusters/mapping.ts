/** Pure mapping of List Global Clusters and Get Global Cluster Replication Lag to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { FamilyDef, MappingResult } from "../../metrics/sample.js";
import type { GlobalCluster, ReplicationLag } from "../../upstream/types.js";
import { GLOBAL_CLUSTER_FAMILY as D } from "./families.js";

/** The families `mapGlobalClusters` writes. */
export const GLOBAL_CLUSTER_FAMILIES: readonly FamilyDef[] = [D.globalClusterInfo, D.replicationLag];

/**
 * vdbcloud_global_cluster_info{global_cluster_id,global_cluster_name,project_id} 1 per global
 * cluster (a missing name or project is ""), and
 * vdbcloud_global_cluster_replication_lag_seconds{global_cluster_id,primary_cluster_id,
 * secondary_cluster_id,secondary_region_id} = lagMs / 1000 per secondary whose lag is a
 * finite, non-negative number (else no sample: never a guessed lag).
 */
export function mapGlobalClusters(
  clusters: readonly GlobalCluster[],
  lags: ReadonlyMap<string, ReplicationLag>,
): MappingResult {
  const out = new MappingBuilder();
  for (const g of clusters) {
    out.add(
      D.globalClusterInfo,
      {
        global_cluster_id: g.globalClusterId,
        global_cluster_name: g.globalClusterName ?? "",
        project_id: g.projectId ?? "",
      },
      1,
    );
    const lag = lags.get(g.globalClusterId);
    for (const l of lag?.lags ?? []) {
      if (l.lagMs === null || !Number.isFinite(l.lagMs) || l.lagMs < 0) continue;
      out.add(
        D.replicationLag,
        {
          global_cluster_id: g.globalClusterId,
          primary_cluster_id: lag?.primaryClusterId ?? "",
          secondary_cluster_id: l.secondaryClusterId,
          secondary_region_id: l.secondaryRegionId ?? "",
        },
        l.lagMs / 1000,
      );
    }
  }
  return out.result();
}
