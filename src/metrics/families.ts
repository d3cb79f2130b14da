/**
 * Definitions of every fixed metric family (docs/design.md section 5). Names are a contract:
 * dashboards, alerts and users depend on them. HELP says exactly what is counted, in which unit
 * and over which period (cluster metrics: the newest closed bucket of metrics.granularity), and
 * names the upstream metric or endpoint, or the exporter's own source, so that a reader of
 * /metrics can find the documentation of the value (families.test.ts checks this).
 */
import type { FamilyDef, FamilyDoc } from "./sample.js";

// Every family of this file carries its reference entry (families.test.ts fails without one).
function gauge(name: string, help: string, doc?: FamilyDoc): FamilyDef {
  return doc === undefined ? { name, help, type: "gauge" } : { name, help, type: "gauge", doc };
}

function counter(name: string, help: string, doc?: FamilyDoc): FamilyDef {
  return doc === undefined ? { name, help, type: "counter" } : { name, help, type: "counter", doc };
}

/** Families fed by Query Cluster Metrics; the catalog maps upstream names onto them. */
export const CLUSTER_FAMILIES = {
  cuComputation: gauge(
    "vdbcloud_cu_computation_ratio",
    "Share of the cluster's CU compute in use, 0 to 1, in the newest closed bucket (upstream CU_COMPUTATION, percent / 100).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "ratio (0..1)",
      source: "POST /v2/clusters/{id}/metrics/query CU_COMPUTATION (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; free and serverless clusters report none",
    },
  ),
  cuCapacity: gauge(
    "vdbcloud_cu_capacity_ratio",
    "Share of the cluster's CU data capacity in use, 0 to 1, in the newest closed bucket (upstream CU_CAPACITY, percent / 100).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "ratio (0..1)",
      source: "POST /v2/clusters/{id}/metrics/query CU_CAPACITY (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value",
    },
  ),
  writeCapacity: gauge(
    "vdbcloud_write_capacity_ratio",
    "Share of the cluster's write performance capacity in use, 0 to 1, in the newest closed bucket (upstream CLUSTER_WRITE_CAPACITY, percent / 100).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "ratio (0..1)",
      source: "POST /v2/clusters/{id}/metrics/query CLUSTER_WRITE_CAPACITY (not in the public reference)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; only Dedicated Enterprise and BYOC clusters have it",
    },
  ),
  storage: gauge(
    "vdbcloud_storage_bytes",
    "Persistent storage used by data and indexes, in bytes, in the newest closed bucket (upstream STORAGE_USE, GB x 1e9; MB, GiB and bytes converted too).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "bytes",
      source: "POST /v2/clusters/{id}/metrics/query STORAGE_USE (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value",
    },
  ),
  vcu: gauge(
    "vdbcloud_vcu",
    "vCUs (virtual compute units, the billing measure of data read or written) consumed during the newest closed bucket, whose length is metrics.granularity: a count per bucket, not a rate; operation=read is search and query, write is insert, upsert and delete (upstream READ_VCU, WRITE_VCU, count).",
    {
      labels: ["cluster_id", "db_name", "collection_name", "operation"],
      unit: "count per bucket",
      source: "POST /v2/clusters/{id}/metrics/query READ_VCU, WRITE_VCU (not in the public reference)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; only Free and Serverless clusters have it, and only when the queries list the names",
    },
  ),
  requests: gauge(
    "vdbcloud_requests_per_second",
    "Requests (calls, whatever the number of vectors each carries) per second of this request type, averaged over the newest closed bucket (upstream REQ_{T}_COUNT, requests per minute / 60).",
    {
      labels: ["cluster_id", "db_name", "collection_name", "request_type"],
      unit: "requests per second",
      source: "POST /v2/clusters/{id}/metrics/query REQ_{T}_COUNT (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value",
    },
  ),
  vectorRequests: gauge(
    "vdbcloud_vector_requests_per_second",
    "Vectors per second carried by requests of this type (a search with 10 query vectors counts 10; the console's VPS), averaged over the newest closed bucket (upstream VECTOR_REQ_{T}_COUNT, vectors per minute / 60).",
    {
      labels: ["cluster_id", "db_name", "collection_name", "request_type"],
      unit: "vectors per second",
      source: "POST /v2/clusters/{id}/metrics/query VECTOR_REQ_{T}_COUNT (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value",
    },
  ),
  latency: gauge(
    "vdbcloud_request_latency_seconds",
    "Latency in seconds of requests of this type, from the client sending to receiving the answer, as the average (stat=avg) or 99th percentile (stat=p99) over the newest closed bucket (upstream REQ_{T}_LATENCY with stat AVG or P99, REQ_{T}_LATENCY_AVG, REQ_{T}_LATENCY_P99; ms / 1000).",
    {
      labels: ["cluster_id", "db_name", "collection_name", "request_type", "stat"],
      unit: "seconds",
      source:
        "POST /v2/clusters/{id}/metrics/query REQ_{T}_LATENCY (AVG, P99), REQ_{T}_LATENCY_AVG, REQ_{T}_LATENCY_P99",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value",
    },
  ),
  failure: gauge(
    "vdbcloud_request_failure_ratio",
    'Share of requests of this type that failed, 0 to 1, over the newest closed bucket; request_type="all" over all requests (upstream REQ_FAIL_RATE_{T}, REQ_FAIL_RATE; percent / 100).',
    {
      labels: ["cluster_id", "db_name", "collection_name", "request_type"],
      unit: "ratio (0..1)",
      source: "POST /v2/clusters/{id}/metrics/query REQ_FAIL_RATE_{T}, REQ_FAIL_RATE (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value",
    },
  ),
  success: gauge(
    "vdbcloud_request_success_ratio",
    "Share of all requests that succeeded, 0 to 1, over the newest closed bucket (upstream REQ_SUCCESS_RATE, percent / 100).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "ratio (0..1)",
      source: "POST /v2/clusters/{id}/metrics/query REQ_SUCCESS_RATE (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value",
    },
  ),
  slowQueries: gauge(
    "vdbcloud_slow_queries_per_second",
    "Queries slower than 5 s per second, averaged over the newest closed bucket (upstream SLOW_QUERY_COUNT, count per minute / 60).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "queries per second",
      source: "POST /v2/clusters/{id}/metrics/query SLOW_QUERY_COUNT (not in the public reference)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; asked only when listed in metrics.queries",
    },
  ),
  flushes: gauge(
    "vdbcloud_flushes_per_second",
    "Flush operations (growing segments sealed to storage) per second, averaged over the newest closed bucket (upstream FLUSH_COUNT, count per minute / 60).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "flushes per second",
      source: "POST /v2/clusters/{id}/metrics/query FLUSH_COUNT (not in the public reference)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; asked only when listed in metrics.queries",
    },
  ),
  entities: gauge(
    "vdbcloud_entities",
    "Entities (rows) stored, at the newest closed bucket (upstream ENTITIES_COUNT, count).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "count",
      source: "POST /v2/clusters/{id}/metrics/query ENTITIES_COUNT (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value",
    },
  ),
  loadedEntities: gauge(
    "vdbcloud_loaded_entities",
    "Entities (rows) loaded into memory for search, at the newest closed bucket (upstream ENTITIES_LOADED, count).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "count",
      source: "POST /v2/clusters/{id}/metrics/query ENTITIES_LOADED (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; only Dedicated and BYOC clusters have it",
    },
  ),
  indexedEntities: gauge(
    "vdbcloud_indexed_entities",
    "Entities (rows) covered by an index, at the newest closed bucket (upstream ENTITIES_INDEXED, count).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "count",
      source: "POST /v2/clusters/{id}/metrics/query ENTITIES_INDEXED (not in the public reference)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; asked only when listed in metrics.queries",
    },
  ),
  entityInserts: gauge(
    "vdbcloud_entity_inserts_per_second",
    "Entities (rows, not requests) inserted per second, over the newest closed bucket (upstream ENTITIES_INSERT_RATE; per second as is, per minute / 60).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "entities per second",
      source: "POST /v2/clusters/{id}/metrics/query ENTITIES_INSERT_RATE (AVG)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value",
    },
  ),
  collections: gauge(
    "vdbcloud_collections",
    "Collections in the cluster (or scope) at the newest closed bucket; with db_name, the collections the database holds, before include/exclude (upstream COLLECTIONS_COUNT, count; with db_name: the data plane's List Collections).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "count",
      source:
        "POST /v2/clusters/{id}/metrics/query COLLECTIONS_COUNT (AVG); with db_name only: POST /v2/vectordb/collections/list (data plane), the number of names",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; the per-database series only with collections.enabled",
    },
  ),
  unloadedCollections: gauge(
    "vdbcloud_unloaded_collections",
    "Collections not loaded into memory (not searchable), at the newest closed bucket (upstream UNLOADED_COLLECTIONS_COUNT, count).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "count",
      source: "POST /v2/clusters/{id}/metrics/query UNLOADED_COLLECTIONS_COUNT (not in the public reference)",
      absent:
        "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; asked only when listed in metrics.queries",
    },
  ),
} as const;

/** Families of import jobs (List Import Jobs v1) and Spark jobs (Describe Spark Job v2). */
export const JOB_FAMILIES = {
  importJobState: gauge(
    "vdbcloud_import_job_state",
    "Import job state, one series per known state, 1 for the job's current state at the last poll (upstream List Import Jobs state).",
    {
      labels: ["cluster_id", "collection_name", "job_id", "state"],
      unit: "1 (state set)",
      source: "GET /v1/vector/collections/import/list state",
      absent:
        'no series with import_jobs.enabled false or for a cluster without region; a finished job\'s series disappear import_jobs.retention after it was first seen terminal; jobs beyond import_jobs.max_jobs_per_cluster are counted in vdbcloud_samples_dropped_total{reason="job_cap"}',
    },
  ),
  importJobs: gauge(
    "vdbcloud_import_jobs",
    "Import jobs listed per collection and state at the last poll, terminal ones kept for import_jobs.retention (upstream List Import Jobs, count).",
    {
      labels: ["cluster_id", "collection_name", "state"],
      unit: "count",
      source: "GET /v1/vector/collections/import/list (jobs counted by collectionName and state)",
      absent: "no series for a collection and state without listed jobs",
    },
  ),
  sparkStatus: gauge(
    "vdbcloud_spark_job_status",
    "Spark job status, one series per known status, 1 for the job's current status at the last poll (upstream Describe Spark Job status).",
    {
      labels: ["project_id", "job_id", "status"],
      unit: "1 (state set)",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} status",
      absent:
        "no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkInfo: gauge(
    "vdbcloud_spark_job_info",
    "Spark job description in labels, always 1 (upstream Describe Spark Job).",
    {
      labels: ["project_id", "job_id", "type", "region_id", "cluster_id"],
      unit: "1 (info)",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} type, regionId, clusterId",
      absent:
        "no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkDuration: gauge(
    "vdbcloud_spark_job_duration_seconds",
    "Run time of the Spark job in seconds, as last reported (upstream Describe Spark Job durationSeconds).",
    {
      labels: ["project_id", "job_id"],
      unit: "seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} durationSeconds",
      absent:
        "while the answer's durationSeconds is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkCreated: gauge(
    "vdbcloud_spark_job_created_timestamp_seconds",
    "When the Spark job was created, Unix time in seconds (upstream Describe Spark Job createdAt).",
    {
      labels: ["project_id", "job_id"],
      unit: "Unix seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} createdAt",
      absent:
        "while the answer's createdAt is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkSubmitted: gauge(
    "vdbcloud_spark_job_submitted_timestamp_seconds",
    "When the Spark job was submitted, Unix time in seconds (upstream Describe Spark Job submittedAt).",
    {
      labels: ["project_id", "job_id"],
      unit: "Unix seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} submittedAt",
      absent:
        "while the answer's submittedAt is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkStarted: gauge(
    "vdbcloud_spark_job_started_timestamp_seconds",
    "When the Spark job started running, Unix time in seconds (upstream Describe Spark Job startedAt).",
    {
      labels: ["project_id", "job_id"],
      unit: "Unix seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} startedAt",
      absent:
        "while the answer's startedAt is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkFinished: gauge(
    "vdbcloud_spark_job_finished_timestamp_seconds",
    "When the Spark job finished, Unix time in seconds (upstream Describe Spark Job finishedAt).",
    {
      labels: ["project_id", "job_id"],
      unit: "Unix seconds",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} finishedAt",
      absent:
        "while the answer's finishedAt is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkPrecheckPassed: gauge(
    "vdbcloud_spark_job_precheck_passed",
    "1 if the Spark job's precheck passed, 0 if it failed (upstream Describe Spark Job precheckReport.passed).",
    {
      labels: ["project_id", "job_id"],
      unit: "1 or 0",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} precheckReport.passed",
      absent:
        "while the answer's precheckReport.passed is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkPrecheckErrors: gauge(
    "vdbcloud_spark_job_precheck_errors",
    "Problems the Spark job's precheck found in its input, as last reported (upstream Describe Spark Job precheckReport.errors, count).",
    {
      labels: ["project_id", "job_id"],
      unit: "count",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} precheckReport.errors",
      absent:
        "while the answer's precheckReport.errors is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled (no errors list: no series, never 0)",
    },
  ),
  sparkPrecheckCheckedRows: gauge(
    "vdbcloud_spark_job_precheck_checked_rows",
    "Input rows the Spark job's precheck examined, as last reported (upstream Describe Spark Job precheckReport.checkedRows, count).",
    {
      labels: ["project_id", "job_id"],
      unit: "count",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} precheckReport.checkedRows",
      absent:
        "while the answer's precheckReport.checkedRows is null or missing; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
  sparkFailureInfo: gauge(
    "vdbcloud_spark_job_failure_info",
    "Spark job failure reason in labels, 1 when the job reports one (upstream Describe Spark Job failureReason).",
    {
      labels: ["project_id", "job_id", "code", "retryable"],
      unit: "1 (info)",
      source: "GET /v2/projects/{projectId}/jobs/{jobId} failureReason.code, failureReason.retryable",
      absent:
        "while the job reports no failure reason; no series without spark_jobs.jobs or jobs_file; a settled job's series disappear spark_jobs.retention after it settled",
    },
  ),
} as const;

/** Inventory families: Describe Cluster / List Clusters v2, List Projects v1, List Cloud Regions v2. */
export const INVENTORY_FAMILIES = {
  clusterInfo: gauge(
    "vdbcloud_cluster_info",
    "Cluster description in labels, always 1 (upstream Describe Cluster).",
    {
      labels: ["cluster_id", "cluster_name", "project_id", "region_id", "plan", "cu_type"],
      unit: "1 (info)",
      source: "GET /v2/clusters/{id} clusterName, projectId, regionId, plan, cuType",
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
      source: "GET /v2/clusters/{id} status",
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
  projectClusters: gauge(
    "vdbcloud_project_clusters",
    "Clusters in the project at the last poll (upstream List Projects instanceCount, count).",
    {
      labels: ["project_id", "project_name"],
      unit: "count",
      source: "GET /v1/projects instanceCount",
      absent:
        "with inventory.enabled false, on shards other than 0, or for a project without instanceCount (never 0 for a missing value)",
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

/**
 * Self families that collectors emit as samples, per target, into the sample store (written by
 * polling/health.ts and the cluster metrics mapping). The process-wide ones follow.
 */
/** Collection families: each cluster's data plane (List Collections, Get Load State, Get Stats). */
export const COLLECTION_FAMILIES = {
  collectionInfo: gauge(
    "vdbcloud_collection_info",
    "A collection the data plane lists (after include/exclude), always 1 (upstream List Collections).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "1 (info)",
      source: "POST /v2/vectordb/collections/list (data plane) names",
      absent:
        'no series without collections.enabled or for a cluster whose data plane does not answer (see vdbcloud_collector_up{collector="collections"}); a collection disappears as soon as a listing no longer holds it',
    },
  ),
  loadState: gauge(
    "vdbcloud_collection_load_state",
    "Collection load state, one series per state, 1 for the current one (upstream Get Load State loadState).",
    {
      labels: ["cluster_id", "db_name", "collection_name", "state"],
      unit: "1 (state set)",
      source: "POST /v2/vectordb/collections/get_load_state (data plane) loadState",
      absent:
        'no series without collections.enabled or for a cluster whose data plane does not answer (see vdbcloud_collector_up{collector="collections"}); none with collections.load_state false or beyond collections.max_per_cluster',
    },
  ),
  loadProgress: gauge(
    "vdbcloud_collection_load_progress_ratio",
    "Load progress of a collection while it is loading, 0 to 1 (upstream Get Load State loadProgress, percent / 100).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "ratio (0..1)",
      source: "POST /v2/vectordb/collections/get_load_state (data plane) loadProgress (percent)",
      absent:
        'unless the collection is loading; no series without collections.enabled or for a cluster whose data plane does not answer (see vdbcloud_collector_up{collector="collections"})',
    },
  ),
  rows: gauge(
    "vdbcloud_collection_rows",
    "Rows in the collection (upstream Get Collection Stats rowCount).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "count",
      source: "POST /v2/vectordb/collections/get_stats (data plane) rowCount",
      absent:
        'no series without collections.enabled or for a cluster whose data plane does not answer (see vdbcloud_collector_up{collector="collections"}); none unless collections.row_count is true, or beyond collections.max_per_cluster',
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
      absent:
        'no series without collections.enabled or for a cluster whose data plane does not answer (see vdbcloud_collector_up{collector="collections"})',
    },
  ),
} as const;

export const TARGET_SELF_FAMILIES = {
  collectorUp: gauge(
    "vdbcloud_collector_up",
    "1 if the last poll of this collector and target succeeded, 0 if it failed (source: the exporter's own polls).",
    {
      labels: ["collector", "target"],
      unit: "1 or 0",
      source: "exporter: the outcome of its last poll of the target",
      absent:
        "before the target's first poll finished; a target that leaves the config (reload, discovery) loses its series",
    },
  ),
  collectorLastSuccess: gauge(
    "vdbcloud_collector_last_success_timestamp_seconds",
    "When the last successful poll of this collector and target ended, Unix time in seconds (source: the exporter's own polls).",
    {
      labels: ["collector", "target"],
      unit: "Unix seconds",
      source: "exporter: the end of its last successful poll of the target",
      absent: "until the target's first successful poll",
    },
  ),
  newestBucket: gauge(
    "vdbcloud_metrics_newest_bucket_timestamp_seconds",
    "Start of the newest non-null bucket Query Cluster Metrics returned for this target, Unix time in seconds: how old the data is (upstream Query Cluster Metrics timestamps).",
    {
      labels: ["cluster_id", "db_name", "collection_name"],
      unit: "Unix seconds",
      source: "POST /v2/clusters/{id}/metrics/query timestamp of the newest non-null bucket",
      absent: "for a target whose answers held no non-null bucket in the window",
    },
  ),
  metricQueryRejected: gauge(
    "vdbcloud_metric_query_rejected",
    "1 per metric query the service refused in every request form; it is not asked again until metrics.quarantine has passed (source: the exporter's Query Cluster Metrics refusals).",
    {
      labels: ["cluster_id", "db_name", "collection_name", "metric", "stat"],
      unit: "1 (info)",
      source:
        "exporter: its quarantine of queries POST /v2/clusters/{id}/metrics/query refused in every request form",
      absent: "while no query of the target is in quarantine (the usual case)",
    },
  ),
} as const;

/**
 * Process-wide self families kept by the exposition layer (prom-client, exposition/selfMetrics.ts).
 * Declared here, and only here, so that their names and HELP live beside every other family;
 * the two histograms are PROCESS_SELF_HISTOGRAMS below (FamilyDef describes gauges and counters).
 */
export const PROCESS_SELF_FAMILIES = {
  schedulerSkippedRuns: counter(
    "vdbcloud_scheduler_skipped_runs_total",
    "Scheduled polls skipped because the previous poll of the same target was still running, by collector, since the exporter started (source: the exporter's scheduler).",
    {
      labels: ["collector"],
      unit: "count",
      source: "exporter: its scheduler",
      absent: "never: every collector's series exists at 0 from the start",
    },
  ),
  apiRequests: counter(
    "vdbcloud_api_requests_total",
    "HTTP requests the exporter sent to the upstream API (each attempt and retry counts once), by endpoint template and outcome, since the exporter started (source: the exporter's API client).",
    {
      labels: ["endpoint", "outcome"],
      unit: "count",
      source:
        "exporter: its API client (endpoint is the path template, e.g. POST /v2/clusters/{id}/metrics/query)",
      absent: "never: every endpoint's series exists at 0 from the start",
    },
  ),
  apiRetries: counter(
    "vdbcloud_api_retries_total",
    "Upstream API requests retried after a failed attempt, by endpoint template, since the exporter started (source: the exporter's API client).",
    {
      labels: ["endpoint"],
      unit: "count",
      source:
        "exporter: its API client (endpoint is the path template, e.g. POST /v2/clusters/{id}/metrics/query)",
      absent: "never: every endpoint's series exists at 0 from the start",
    },
  ),
  apiRateLimited: counter(
    "vdbcloud_api_rate_limited_total",
    "Upstream answers that signalled rate limiting (HTTP 429 or a rate-limit code or message), by endpoint template, since the exporter started (source: the exporter's API client).",
    {
      labels: ["endpoint"],
      unit: "count",
      source:
        "exporter: its API client (endpoint is the path template, e.g. POST /v2/clusters/{id}/metrics/query)",
      absent: "never: every endpoint's series exists at 0 from the start",
    },
  ),
  apiSchemaErrors: counter(
    "vdbcloud_api_schema_errors_total",
    "Upstream answers whose shape the exporter did not understand, by endpoint template, since the exporter started (source: the exporter's API client).",
    {
      labels: ["endpoint"],
      unit: "count",
      source:
        "exporter: its API client (endpoint is the path template, e.g. POST /v2/clusters/{id}/metrics/query)",
      absent: "never: every endpoint's series exists at 0 from the start",
    },
  ),
  samplesDropped: counter(
    "vdbcloud_samples_dropped_total",
    "Upstream data points not exposed, by reason, since the exporter started (source: the exporter's mapping of upstream answers).",
    {
      labels: ["reason"],
      unit: "count",
      source: "exporter: its mapping of upstream answers",
      absent: "never: every reason's series exists at 0 from the start",
    },
  ),
  internalErrors: counter(
    "vdbcloud_internal_errors_total",
    "Failures of the exporter's own background work (publishing, start-up, jobs file, closing clients), by where they happened, since the exporter started; it keeps serving the last good state (source: the exporter).",
    {
      labels: ["where"],
      unit: "count",
      source: "exporter: its background work",
      absent: "never: every site's series exists at 0 from the start",
    },
  ),
  configLastReloadSuccessful: gauge(
    "vdbcloud_config_last_reload_successful",
    "1 if the last configuration load or reload succeeded, 0 otherwise (source: the exporter's config file).",
    {
      labels: [],
      unit: "1 or 0",
      source: "exporter: its config file (load and reloads)",
      absent: "never",
    },
  ),
  buildInfo: gauge(
    "vdbcloud_exporter_build_info",
    "Exporter version and Node.js version in labels, always 1 (source: the exporter's build).",
    {
      labels: ["version", "nodejs_version"],
      unit: "1 (info)",
      source: "exporter: its package version and Node.js",
      absent: "never",
    },
  ),
  configLastReloadSuccessTimestamp: gauge(
    "vdbcloud_config_last_reload_success_timestamp_seconds",
    "When the configuration was last loaded or reloaded successfully, Unix time in seconds (source: the exporter's config file).",
    {
      labels: [],
      unit: "Unix seconds",
      source: "exporter: its config file (load and reloads)",
      absent: "never (the first load sets it)",
    },
  ),
  exporterSeries: gauge(
    "vdbcloud_exporter_series",
    "Series held in the exporter's sample store at the last publish, self-metrics excluded (source: the exporter, count).",
    {
      labels: [],
      unit: "count",
      source: "exporter: its sample store",
      absent: "until the first publish",
    },
  ),
  shardOrdinal: gauge(
    "vdbcloud_shard_ordinal",
    "This exporter's shard, 0-based (source: --shard or the host name's ordinal).",
    {
      labels: [],
      unit: "count (0-based ordinal)",
      source: "exporter: --shard, VDBCLOUD_SHARD or the host name's ordinal",
      absent: "never",
    },
  ),
  totalShards: gauge(
    "vdbcloud_total_shards",
    "Number of shards the targets are split across (source: --total-shards).",
    {
      labels: [],
      unit: "count",
      source: "exporter: --total-shards or VDBCLOUD_TOTAL_SHARDS",
      absent: "never",
    },
  ),
} as const;

/** A process-wide histogram family: FamilyDef's name and HELP, its bucket bounds and reference entry. */
export interface HistogramDef {
  readonly name: string;
  readonly help: string;
  readonly buckets: readonly number[];
  readonly doc: FamilyDoc;
}

/** The process-wide self histograms (exposition/selfMetrics.ts). */
export const PROCESS_SELF_HISTOGRAMS = {
  apiDuration: {
    name: "vdbcloud_api_request_duration_seconds",
    help: "Duration in seconds of each HTTP request attempt to the upstream API, by endpoint template, since the exporter started (source: the exporter's API client).",
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    doc: {
      labels: ["endpoint"],
      unit: "seconds (histogram)",
      source: "exporter: its API client, each attempt",
      absent: "never: every endpoint's series exists from the start",
    },
  },
  collectorDuration: {
    name: "vdbcloud_collector_duration_seconds",
    help: "Duration in seconds of one poll of one target, retries and waits included, by collector, since the exporter started (source: the exporter's polls).",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    doc: {
      labels: ["collector"],
      unit: "seconds (histogram)",
      source: "exporter: its polls, retries and waits included",
      absent: "never: every collector's series exists from the start",
    },
  },
} as const satisfies Record<string, HistogramDef>;
