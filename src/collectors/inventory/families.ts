/**
 * The inventory collector's families (docs/metrics.md): each polled cluster as Describe Cluster
 * shows it, the account's projects and regions, and the on-demand clusters List Clusters does
 * not show. HELP names the upstream endpoint and field of each value.
 */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** Inventory families: Describe Cluster / List Clusters v2, List Projects V2 (v1), List Cloud Regions v2. */
export const INVENTORY_FAMILIES = {
  clusterInfo: gauge("vdbcloud_cluster_info", {
    help: "Cluster description in labels, always 1; deployment_option is free, serverless or dedicated, empty when the answer leaves it out (upstream Describe Cluster).",
    labels: ["cluster_id", "cluster_name", "project_id", "region_id", "plan", "cu_type", "deployment_option"],
    source: `${ENDPOINT.describeCluster} clusterName, projectId, regionId, plan (Free for an in03- cluster whatever the answer says, as the service's Terraform provider has it), cuType (empty on free and serverless clusters), deploymentOption (lowercased; empty when absent, as in the reference's free and serverless samples)`,
    absent:
      "no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  clusterStatus: gauge("vdbcloud_cluster_status", {
    help: "Cluster status, one series per known status, 1 for the current one at the last poll (upstream Describe Cluster status).",
    labels: ["cluster_id", "status"],
    source: `${ENDPOINT.describeCluster} status: the reference's 17 statuses (creating, running, deleting, deleted, stopping, resuming, modifying, abnormal, freezing, frozen, unfreezed, restore_backup, migrating, resizing, upgrading, writing_operation, set_private_link), plus stopped, suspending and suspended (the service's Terraform provider's names); any other status is added lowercased`,
    absent:
      "no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals; no series while the answer carries no status",
  }),
  clusterCuSize: gauge("vdbcloud_cluster_cu_size", {
    help: "Cluster size in CUs at the last poll; absent on free and serverless clusters, which have no CUs (upstream Describe Cluster cuSize, count).",
    labels: ["cluster_id"],
    unit: "count (CUs)",
    source: `${ENDPOINT.describeCluster} cuSize`,
    absent:
      "on free and serverless clusters (cuSize 0 means no CUs, never shown as a zero-CU cluster); no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  clusterSnapshots: gauge("vdbcloud_cluster_snapshots", {
    help: "Backups taken of the cluster, at the last poll (upstream Describe Cluster snapshotNumber, count).",
    labels: ["cluster_id"],
    unit: "count",
    source: `${ENDPOINT.describeCluster} snapshotNumber`,
    absent:
      "while the answer carries no snapshotNumber; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  clusterCreateProgress: gauge("vdbcloud_cluster_create_progress_ratio", {
    help: "Creation progress of the cluster while it is creating, 0 to 1 (upstream Describe Cluster createProgress, percent / 100).",
    labels: ["cluster_id"],
    source: `${ENDPOINT.describeCluster} createProgress (percent)`,
    absent:
      "unless the cluster is CREATING; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  clusterReplicas: gauge("vdbcloud_cluster_replicas", {
    help: "Replicas of the cluster at the last poll, when the answer gives them (upstream Describe Cluster replica, count).",
    labels: ["cluster_id"],
    unit: "count",
    source: `${ENDPOINT.describeCluster} replica`,
    absent:
      "while the answer carries no replica; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  clusterAutoscalingCuMin: gauge("vdbcloud_cluster_autoscaling_cu_min", {
    help: "Smallest CU size autoscaling may choose, when the answer gives it (upstream Describe Cluster autoscaling.cu.min, count).",
    labels: ["cluster_id"],
    unit: "count (CUs)",
    source: `${ENDPOINT.describeCluster} autoscaling.cu.min`,
    absent:
      "while the answer carries no autoscaling bounds; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  clusterAutoscalingCuMax: gauge("vdbcloud_cluster_autoscaling_cu_max", {
    help: "Largest CU size autoscaling may choose, when the answer gives it (upstream Describe Cluster autoscaling.cu.max, count).",
    labels: ["cluster_id"],
    unit: "count (CUs)",
    source: `${ENDPOINT.describeCluster} autoscaling.cu.max`,
    absent:
      "while the answer carries no autoscaling bounds; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  clusterAutoscalingReplicasMin: gauge("vdbcloud_cluster_autoscaling_replicas_min", {
    help: "Fewest replicas autoscaling may choose, when the answer gives the bound (upstream Describe Cluster autoscaling.replica.min, count).",
    labels: ["cluster_id"],
    unit: "count (replicas)",
    source: `${ENDPOINT.describeCluster} autoscaling.replica.min (number or numeric string)`,
    absent:
      "while the answer carries no replica bounds, or a schedule (autoscaling.replica.schedules) in their place; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  clusterAutoscalingReplicasMax: gauge("vdbcloud_cluster_autoscaling_replicas_max", {
    help: "Most replicas autoscaling may choose, when the answer gives the bound (upstream Describe Cluster autoscaling.replica.max, count).",
    labels: ["cluster_id"],
    unit: "count (replicas)",
    source: `${ENDPOINT.describeCluster} autoscaling.replica.max (number or numeric string)`,
    absent:
      "while the answer carries no replica bounds, or a schedule (autoscaling.replica.schedules) in their place; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  clusterGlobalRole: gauge("vdbcloud_cluster_global_role", {
    help: "The cluster's role in its global cluster, one series per known role (primary, secondary, plus any role seen, lowercased), 1 for the current one at the last poll (upstream Describe Cluster globalClusterMeta.role).",
    labels: ["cluster_id", "global_cluster_id", "role"],
    unit: "1 (state set)",
    source: `${ENDPOINT.describeCluster} globalClusterMeta.globalClusterId, globalClusterMeta.role`,
    absent:
      "for a cluster outside a global cluster (globalClusterMeta null or absent); no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
  }),
  projectClusters: gauge("vdbcloud_project_clusters", {
    help: "Clusters in the project at the last poll (upstream List Projects V2 instanceCount, count; List Projects v1 where V2 is refused).",
    labels: ["project_id", "project_name"],
    unit: "count",
    source: `${ENDPOINT.listProjectsV2} instanceCount (string or number); ${ENDPOINT.listProjects} instanceCount where V2 is refused`,
    absent:
      "with inventory.enabled false, on shards other than 0, or for a project without instanceCount (never 0 for a missing value)",
  }),
  projectInfo: gauge("vdbcloud_project_info", {
    help: "Project description in labels, always 1: its plan (Standard, Enterprise, BusinessCritical) and organisation type (SAAS, BYOC) (upstream List Projects V2).",
    labels: ["project_id", "project_name", "plan", "org_type"],
    source: `${ENDPOINT.listProjectsV2} projectId, projectName, plan, orgType`,
    absent: "when List Projects V2 is refused and v1 serves instead (v1 gives no plan or org type)",
  }),
  regionInfo: gauge("vdbcloud_region_info", {
    help: "Cloud region in labels, always 1 (upstream List Cloud Regions).",
    labels: ["cloud_id", "region_id", "domain"],
    source: `${ENDPOINT.listRegions} cloudId, regionId, domain`,
    absent: "with inventory.enabled false or on shards other than 0",
  }),
} as const;

/** When no on-demand family has a series, whatever else its own entry adds. */
const NO_ON_DEMAND =
  'no series with inventory.enabled or inventory.on_demand false, on shards other than 0, or before the first listing of the cluster\'s project and region answers (see vdbcloud_collector_up{collector="inventory",target="on_demand"}); a cluster no longer listed loses its series at the next listing';

/** On-demand clusters: List On-Demand Clusters per known project and region (shard 0). */
export const ON_DEMAND_CLUSTER_FAMILIES = {
  info: gauge("vdbcloud_on_demand_cluster_info", {
    help: "On-demand cluster description in labels, always 1 (upstream List On-Demand Clusters).",
    labels: ["cluster_id", "cluster_name", "project_id", "region_id"],
    source: `${ENDPOINT.listOnDemandClusters} clusterId, clusterName, projectId, regionId`,
    absent: NO_ON_DEMAND,
  }),
  status: gauge("vdbcloud_on_demand_cluster_status", {
    help: "On-demand cluster status, one series per known status (creating, suspended, resuming, running, suspending; another is added lowercased), 1 for the current one (upstream List On-Demand Clusters status).",
    labels: ["cluster_id", "status"],
    source: `${ENDPOINT.listOnDemandClusters} status`,
    absent: `${NO_ON_DEMAND}; no series while the answer carries no status`,
  }),
  cuSize: gauge("vdbcloud_on_demand_cluster_cu_size", {
    help: "Size of the on-demand cluster in CUs while it runs (upstream List On-Demand Clusters cuSize, count).",
    labels: ["cluster_id"],
    unit: "count (CUs)",
    source: `${ENDPOINT.listOnDemandClusters} cuSize`,
    absent: `${NO_ON_DEMAND}; none while the answer carries no cuSize`,
  }),
  autoSuspend: gauge("vdbcloud_on_demand_cluster_auto_suspend_seconds", {
    help: "Idle time after which the on-demand cluster suspends itself and stops costing compute, in seconds (upstream List On-Demand Clusters autoSuspend).",
    labels: ["cluster_id"],
    source: `${ENDPOINT.listOnDemandClusters} autoSuspend (seconds; "5m" read as 300)`,
    absent: `${NO_ON_DEMAND}; none while the answer carries no readable autoSuspend`,
  }),
} as const;
