/** The global clusters collector's families (docs/metrics.md): List Global Clusters. */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** Global clusters: their members and replication lag. */
export const GLOBAL_CLUSTER_FAMILY = {
  globalClusterInfo: gauge("vdbcloud_global_cluster_info", {
    help: "A global cluster the organisation has, always 1 (upstream List Global Clusters).",
    labels: ["global_cluster_id", "global_cluster_name", "project_id"],
    source: `${ENDPOINT.listGlobalClusters} globalClusterId, globalClusterName, projectId`,
    absent: "no global cluster, global_clusters disabled, or a shard other than 0",
  }),
  replicationLag: gauge("vdbcloud_global_cluster_replication_lag_seconds", {
    help: "Replication lag of one secondary cluster behind the global cluster's primary, in seconds (upstream Get Global Cluster Replication Lag lagMs / 1000).",
    labels: ["global_cluster_id", "primary_cluster_id", "secondary_cluster_id", "secondary_region_id"],
    source: `${ENDPOINT.getGlobalClusterReplicationLag} lags[].lagMs / 1000`,
    absent: "the secondary's lagMs is missing or unreadable, or the global cluster is gone",
  }),
} as const;
