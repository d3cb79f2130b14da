/**
 * Definitions of every fixed metric family (docs/design.md section 5), the one list everyone
 * imports: the groups below, and by re-export the cluster metrics' (clusterFamilies.ts) and the
 * exporter's own (selfFamilies.ts). Names are a contract: dashboards, alerts and users depend
 * on them. HELP says exactly what is counted, in which unit and over which period (cluster
 * metrics: the newest closed bucket of metrics.granularity), and names the upstream metric or
 * endpoint, or the exporter's own source, so that a reader of /metrics can find the
 * documentation of the value (families.test.ts checks this). Each family's third argument is
 * its reference entry, from which docs/metrics.md is generated (metricsDoc.test.ts).
 */
import { gauge } from "./define.js";

export * from "./clusterFamilies.js";
export { CONSOLE_ALERT_RULE_FAMILIES, ON_DEMAND_CLUSTER_FAMILIES } from "./consoleFamilies.js";
export { BILLING_FAMILIES } from "./costFamilies.js";
export { JOB_FAMILIES } from "./jobFamilies.js";
export * from "./selfFamilies.js";

/** Inventory families: Describe Cluster / List Clusters v2, List Projects V2 (v1), List Cloud Regions v2. */
export const INVENTORY_FAMILIES = {
  clusterInfo: gauge(
    "vdbcloud_cluster_info",
    "Cluster description in labels, always 1; deployment_option is free, serverless or dedicated, empty when the answer leaves it out (upstream Describe Cluster).",
    {
      labels: [
        "cluster_id",
        "cluster_name",
        "project_id",
        "region_id",
        "plan",
        "cu_type",
        "deployment_option",
      ],
      unit: "1 (info)",
      source:
        "GET /v2/clusters/{id} clusterName, projectId, regionId, plan (Free for an in03- cluster whatever the answer says, as the service's Terraform provider has it), cuType (empty on free and serverless clusters), deploymentOption (lowercased; empty when absent, as in the reference's free and serverless samples)",
      absent:
        "no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  clusterStatus: gauge(
    "vdbcloud_cluster_status",
    "Cluster status, one series per known status, 1 for the current one at the last poll (upstream Describe Cluster status).",
    {
      labels: ["cluster_id", "status"],
      unit: "1 (state set)",
      source:
        "GET /v2/clusters/{id} status: the reference's 17 statuses (creating, running, deleting, deleted, stopping, resuming, modifying, abnormal, freezing, frozen, unfreezed, restore_backup, migrating, resizing, upgrading, writing_operation, set_private_link), plus stopped, suspending and suspended (the service's Terraform provider's names); any other status is added lowercased",
      absent:
        "no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals; no series while the answer carries no status",
    },
  ),
  clusterCuSize: gauge(
    "vdbcloud_cluster_cu_size",
    "Cluster size in CUs at the last poll; absent on free and serverless clusters, which have no CUs (upstream Describe Cluster cuSize, count).",
    {
      labels: ["cluster_id"],
      unit: "count (CUs)",
      source: "GET /v2/clusters/{id} cuSize",
      absent:
        "on free and serverless clusters (cuSize 0 means no CUs, never shown as a zero-CU cluster); no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  clusterSnapshots: gauge(
    "vdbcloud_cluster_snapshots",
    "Backups taken of the cluster, at the last poll (upstream Describe Cluster snapshotNumber, count).",
    {
      labels: ["cluster_id"],
      unit: "count",
      source: "GET /v2/clusters/{id} snapshotNumber",
      absent:
        "while the answer carries no snapshotNumber; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  clusterCreateProgress: gauge(
    "vdbcloud_cluster_create_progress_ratio",
    "Creation progress of the cluster while it is creating, 0 to 1 (upstream Describe Cluster createProgress, percent / 100).",
    {
      labels: ["cluster_id"],
      unit: "ratio (0..1)",
      source: "GET /v2/clusters/{id} createProgress (percent)",
      absent:
        "unless the cluster is CREATING; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  clusterReplicas: gauge(
    "vdbcloud_cluster_replicas",
    "Replicas of the cluster at the last poll, when the answer gives them (upstream Describe Cluster replica, count).",
    {
      labels: ["cluster_id"],
      unit: "count",
      source: "GET /v2/clusters/{id} replica",
      absent:
        "while the answer carries no replica; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  clusterAutoscalingCuMin: gauge(
    "vdbcloud_cluster_autoscaling_cu_min",
    "Smallest CU size autoscaling may choose, when the answer gives it (upstream Describe Cluster autoscaling.cu.min, count).",
    {
      labels: ["cluster_id"],
      unit: "count (CUs)",
      source: "GET /v2/clusters/{id} autoscaling.cu.min",
      absent:
        "while the answer carries no autoscaling bounds; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  clusterAutoscalingCuMax: gauge(
    "vdbcloud_cluster_autoscaling_cu_max",
    "Largest CU size autoscaling may choose, when the answer gives it (upstream Describe Cluster autoscaling.cu.max, count).",
    {
      labels: ["cluster_id"],
      unit: "count (CUs)",
      source: "GET /v2/clusters/{id} autoscaling.cu.max",
      absent:
        "while the answer carries no autoscaling bounds; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  clusterAutoscalingReplicasMin: gauge(
    "vdbcloud_cluster_autoscaling_replicas_min",
    "Fewest replicas autoscaling may choose, when the answer gives the bound (upstream Describe Cluster autoscaling.replica.min, count).",
    {
      labels: ["cluster_id"],
      unit: "count (replicas)",
      source: "GET /v2/clusters/{id} autoscaling.replica.min (number or numeric string)",
      absent:
        "while the answer carries no replica bounds, or a schedule (autoscaling.replica.schedules) in their place; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  clusterAutoscalingReplicasMax: gauge(
    "vdbcloud_cluster_autoscaling_replicas_max",
    "Most replicas autoscaling may choose, when the answer gives the bound (upstream Describe Cluster autoscaling.replica.max, count).",
    {
      labels: ["cluster_id"],
      unit: "count (replicas)",
      source: "GET /v2/clusters/{id} autoscaling.replica.max (number or numeric string)",
      absent:
        "while the answer carries no replica bounds, or a schedule (autoscaling.replica.schedules) in their place; no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  clusterGlobalRole: gauge(
    "vdbcloud_cluster_global_role",
    "The cluster's role in its global cluster, one series per known role (primary, secondary, plus any role seen, lowercased), 1 for the current one at the last poll (upstream Describe Cluster globalClusterMeta.role).",
    {
      labels: ["cluster_id", "global_cluster_id", "role"],
      unit: "1 (state set)",
      source: "GET /v2/clusters/{id} globalClusterMeta.globalClusterId, globalClusterMeta.role",
      absent:
        "for a cluster outside a global cluster (globalClusterMeta null or absent); no series with inventory.enabled false or before the cluster's first Describe Cluster answer; a cluster that stops answering loses its series after staleness_intervals",
    },
  ),
  projectClusters: gauge(
    "vdbcloud_project_clusters",
    "Clusters in the project at the last poll (upstream List Projects V2 instanceCount, count; List Projects v1 where V2 is refused).",
    {
      labels: ["project_id", "project_name"],
      unit: "count",
      source:
        "GET /v2/projects instanceCount (string or number); GET /v1/projects instanceCount where V2 is refused",
      absent:
        "with inventory.enabled false, on shards other than 0, or for a project without instanceCount (never 0 for a missing value)",
    },
  ),
  projectInfo: gauge(
    "vdbcloud_project_info",
    "Project description in labels, always 1: its plan (Standard, Enterprise, BusinessCritical) and organisation type (SAAS, BYOC) (upstream List Projects V2).",
    {
      labels: ["project_id", "project_name", "plan", "org_type"],
      unit: "1 (info)",
      source: "GET /v2/projects projectId, projectName, plan, orgType",
      absent: "when List Projects V2 is refused and v1 serves instead (v1 gives no plan or org type)",
    },
  ),
  regionInfo: gauge(
    "vdbcloud_region_info",
    "Cloud region in labels, always 1 (upstream List Cloud Regions).",
    {
      labels: ["cloud_id", "region_id", "domain"],
      unit: "1 (info)",
      source: "GET /v2/regions cloudId, regionId, domain",
      absent: "with inventory.enabled false or on shards other than 0",
    },
  ),
} as const;

/** Cluster discovery's own report (List Clusters v2), under collector "inventory", target "discovery". */
export const CLUSTER_DISCOVERY_FAMILIES = {
  clustersNotPolled: gauge(
    "vdbcloud_discovered_clusters_not_polled",
    "Clusters List Clusters found beyond inventory.discovery.max_clusters, which no collector polls (the first by cluster ID are kept) (source: the exporter's cluster discovery).",
    {
      labels: [],
      unit: "count",
      source: "GET /v2/clusters, the listed clusters beyond inventory.discovery.max_clusters",
      absent: "with inventory.discovery.enabled false, or until the first listing succeeded",
    },
  ),
} as const;

/** Group families: SCIM groups of `groups.ids` (List Group Members). */
export const GROUP_FAMILIES = {
  members: gauge(
    "vdbcloud_group_members",
    "Members of the SCIM group at the last poll, a count; no member name or address is exported (upstream List Group Members count).",
    {
      labels: ["group_id"],
      unit: "count",
      source: "GET /v2/groups/{groupId}/members count",
      absent:
        'without groups.ids, on shards other than 0, or for a group whose listing fails (see vdbcloud_collector_up{collector="groups"})',
    },
  ),
} as const;

export { DATA_PROTECTION_FAMILIES } from "./dataProtectionFamilies.js";
export { INDEX_FAMILIES } from "./indexFamilies.js";

/** The labels of a per-collection family. */
const COLLECTION_LABELS = ["cluster_id", "db_name", "collection_name"] as const;
/** When no collection family has a series, whatever else its own entry adds. */
const NO_DATA_PLANE =
  'no series without collections.enabled or for a cluster whose data plane does not answer (see vdbcloud_collector_up{collector="collections"})';

/** Collection families: each cluster's data plane (List Collections, Get Load State, Get Stats). */
export const COLLECTION_FAMILIES = {
  collectionInfo: gauge(
    "vdbcloud_collection_info",
    "A collection the data plane lists (after include/exclude), always 1 (upstream List Collections).",
    {
      labels: COLLECTION_LABELS,
      unit: "1 (info)",
      source: "POST /v2/vectordb/collections/list (data plane) names",
      absent: `${NO_DATA_PLANE}; a collection disappears as soon as a listing no longer holds it`,
    },
  ),
  loadState: gauge(
    "vdbcloud_collection_load_state",
    "Collection load state, one series per state, 1 for the current one (upstream Get Load State loadState).",
    {
      labels: [...COLLECTION_LABELS, "state"],
      unit: "1 (state set)",
      source: "POST /v2/vectordb/collections/get_load_state (data plane) loadState",
      absent: `${NO_DATA_PLANE}; none with collections.load_state false or beyond collections.max_per_cluster`,
    },
  ),
  loadProgress: gauge(
    "vdbcloud_collection_load_progress_ratio",
    "Load progress of a collection while it is loading, 0 to 1 (upstream Get Load State loadProgress, percent / 100).",
    {
      labels: COLLECTION_LABELS,
      unit: "ratio (0..1)",
      source: "POST /v2/vectordb/collections/get_load_state (data plane) loadProgress (percent)",
      absent: `unless the collection is loading; ${NO_DATA_PLANE}`,
    },
  ),
  rows: gauge(
    "vdbcloud_collection_rows",
    "Rows in the collection (upstream Get Collection Stats rowCount).",
    {
      labels: COLLECTION_LABELS,
      unit: "count",
      source: "POST /v2/vectordb/collections/get_stats (data plane) rowCount",
      absent: `${NO_DATA_PLANE}; none unless collections.row_count is true, or beyond collections.max_per_cluster`,
    },
  ),
  notPolled: gauge(
    "vdbcloud_collections_not_polled",
    "Collections listed (after include/exclude) beyond collections.max_per_cluster, for which no load state, rows or metrics are polled (source: the data plane's List Collections).",
    {
      labels: ["cluster_id"],
      unit: "count",
      source:
        "POST /v2/vectordb/collections/list (data plane), the kept names beyond collections.max_per_cluster",
      absent: NO_DATA_PLANE,
    },
  ),
} as const;
