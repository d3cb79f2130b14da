/**
 * Definitions of every fixed metric family (design.md section 5). Names are a contract:
 * dashboards, alerts and users depend on them. HELP names the upstream source so that a reader
 * of /metrics can find the documentation of the value.
 */
import type { FamilyDef } from "./sample.js";

function gauge(name: string, help: string): FamilyDef {
  return { name, help, type: "gauge" };
}

function counter(name: string, help: string): FamilyDef {
  return { name, help, type: "counter" };
}

/** Families fed by Query Cluster Metrics; the catalog maps upstream names onto them. */
export const CLUSTER_FAMILIES = {
  cuComputation: gauge(
    "vdbcloud_cu_computation_ratio",
    "CU computation utilisation as a ratio (upstream CU_COMPUTATION, percent / 100).",
  ),
  cuCapacity: gauge(
    "vdbcloud_cu_capacity_ratio",
    "CU capacity utilisation as a ratio (upstream CU_CAPACITY, percent / 100).",
  ),
  writeCapacity: gauge(
    "vdbcloud_write_capacity_ratio",
    "Cluster write capacity utilisation as a ratio (upstream CLUSTER_WRITE_CAPACITY, percent / 100).",
  ),
  storage: gauge("vdbcloud_storage_bytes", "Storage used in bytes (upstream STORAGE_USE, GB x 1e9)."),
  vcu: gauge("vdbcloud_vcu", "Virtual compute units consumed, by operation (upstream READ_VCU, WRITE_VCU)."),
  requests: gauge(
    "vdbcloud_requests_per_second",
    "Requests per second by request type (upstream REQ_{T}_COUNT, count/min / 60).",
  ),
  vectorRequests: gauge(
    "vdbcloud_vector_requests_per_second",
    "Vector requests per second by request type (upstream VECTOR_REQ_{T}_COUNT, count/min / 60).",
  ),
  latency: gauge(
    "vdbcloud_request_latency_seconds",
    "Request latency in seconds by request type and statistic (upstream REQ_{T}_LATENCY with stat AVG or P99, REQ_{T}_LATENCY_AVG, REQ_{T}_LATENCY_P99; ms / 1000).",
  ),
  failure: gauge(
    "vdbcloud_request_failure_ratio",
    'Request failure ratio by request type, request_type="all" over all requests (upstream REQ_FAIL_RATE_{T}, REQ_FAIL_RATE; percent / 100).',
  ),
  success: gauge(
    "vdbcloud_request_success_ratio",
    "Request success ratio (upstream REQ_SUCCESS_RATE, percent / 100).",
  ),
  slowQueries: gauge(
    "vdbcloud_slow_queries_per_second",
    "Slow queries per second (upstream SLOW_QUERY_COUNT, count/min / 60).",
  ),
  flushes: gauge("vdbcloud_flushes_per_second", "Flushes per second (upstream FLUSH_COUNT, count/min / 60)."),
  entities: gauge("vdbcloud_entities", "Number of entities (upstream ENTITIES_COUNT)."),
  loadedEntities: gauge("vdbcloud_loaded_entities", "Number of entities loaded (upstream ENTITIES_LOADED)."),
  indexedEntities: gauge(
    "vdbcloud_indexed_entities",
    "Number of indexed entities (upstream ENTITIES_INDEXED).",
  ),
  entityInserts: gauge(
    "vdbcloud_entity_inserts_per_second",
    "Entities inserted per second (upstream ENTITIES_INSERT_RATE; per-second units as is, per-minute / 60).",
  ),
  collections: gauge("vdbcloud_collections", "Number of collections (upstream COLLECTIONS_COUNT)."),
  unloadedCollections: gauge(
    "vdbcloud_unloaded_collections",
    "Number of unloaded collections (upstream UNLOADED_COLLECTIONS_COUNT).",
  ),
} as const;

/** Families of import jobs (List Import Jobs v1) and Spark jobs (Describe Spark Job v2). */
export const JOB_FAMILIES = {
  importJobState: gauge(
    "vdbcloud_import_job_state",
    "Import job state, one series per state, 1 for the current one (upstream List Import Jobs state).",
  ),
  importJobs: gauge(
    "vdbcloud_import_jobs",
    "Number of listed import jobs per collection and state (upstream List Import Jobs).",
  ),
  sparkStatus: gauge(
    "vdbcloud_spark_job_status",
    "Spark job status, one series per status, 1 for the current one (upstream Describe Spark Job status).",
  ),
  sparkInfo: gauge(
    "vdbcloud_spark_job_info",
    "Spark job description, always 1 (upstream Describe Spark Job).",
  ),
  sparkDuration: gauge(
    "vdbcloud_spark_job_duration_seconds",
    "Spark job duration in seconds (upstream Describe Spark Job durationSeconds).",
  ),
  sparkCreated: gauge(
    "vdbcloud_spark_job_created_timestamp_seconds",
    "Spark job creation time, Unix seconds (upstream Describe Spark Job createdAt).",
  ),
  sparkSubmitted: gauge(
    "vdbcloud_spark_job_submitted_timestamp_seconds",
    "Spark job submission time, Unix seconds (upstream Describe Spark Job submittedAt).",
  ),
  sparkStarted: gauge(
    "vdbcloud_spark_job_started_timestamp_seconds",
    "Spark job start time, Unix seconds (upstream Describe Spark Job startedAt).",
  ),
  sparkFinished: gauge(
    "vdbcloud_spark_job_finished_timestamp_seconds",
    "Spark job finish time, Unix seconds (upstream Describe Spark Job finishedAt).",
  ),
  sparkPrecheckPassed: gauge(
    "vdbcloud_spark_job_precheck_passed",
    "1 if the Spark job precheck passed, 0 if it failed (upstream Describe Spark Job precheckReport.passed).",
  ),
  sparkPrecheckErrors: gauge(
    "vdbcloud_spark_job_precheck_errors",
    "Number of Spark job precheck errors (upstream Describe Spark Job precheckReport.errors).",
  ),
  sparkPrecheckCheckedRows: gauge(
    "vdbcloud_spark_job_precheck_checked_rows",
    "Rows checked by the Spark job precheck (upstream Describe Spark Job precheckReport.checkedRows).",
  ),
  sparkFailureInfo: gauge(
    "vdbcloud_spark_job_failure_info",
    "Spark job failure reason, 1 when the job reports one (upstream Describe Spark Job failureReason).",
  ),
} as const;

/** Inventory families: Describe Cluster / List Clusters v2, List Projects v1, List Cloud Regions v2. */
export const INVENTORY_FAMILIES = {
  clusterInfo: gauge("vdbcloud_cluster_info", "Cluster description, always 1 (upstream Describe Cluster)."),
  clusterStatus: gauge(
    "vdbcloud_cluster_status",
    "Cluster status, one series per status, 1 for the current one (upstream Describe Cluster status).",
  ),
  clusterCuSize: gauge(
    "vdbcloud_cluster_cu_size",
    "Cluster size in CUs (upstream Describe Cluster cuSize); absent on free and serverless clusters, which have no CUs.",
  ),
  clusterSnapshots: gauge(
    "vdbcloud_cluster_snapshots",
    "Backups taken of the cluster (upstream Describe Cluster snapshotNumber).",
  ),
  clusterCreateProgress: gauge(
    "vdbcloud_cluster_create_progress_ratio",
    "Creation progress of the cluster, 0 to 1, while it is creating (upstream Describe Cluster createProgress, percent).",
  ),
  clusterReplicas: gauge(
    "vdbcloud_cluster_replicas",
    "Replicas of the cluster (upstream Describe Cluster replica).",
  ),
  clusterAutoscalingCuMin: gauge(
    "vdbcloud_cluster_autoscaling_cu_min",
    "Smallest CU size autoscaling may choose (upstream Describe Cluster autoscaling.cu.min).",
  ),
  clusterAutoscalingCuMax: gauge(
    "vdbcloud_cluster_autoscaling_cu_max",
    "Largest CU size autoscaling may choose (upstream Describe Cluster autoscaling.cu.max).",
  ),
  projectClusters: gauge(
    "vdbcloud_project_clusters",
    "Number of clusters in the project (upstream List Projects instanceCount).",
  ),
  regionInfo: gauge("vdbcloud_region_info", "Cloud region, always 1 (upstream List Cloud Regions)."),
} as const;

/** Self families that collectors emit as samples, per target (see selfFamilies.ts). */
export const TARGET_SELF_FAMILIES = {
  collectorUp: gauge(
    "vdbcloud_collector_up",
    "1 if the last collection of this collector and target succeeded, 0 otherwise.",
  ),
  collectorLastSuccess: gauge(
    "vdbcloud_collector_last_success_timestamp_seconds",
    "Unix time of the last successful collection of this collector and target.",
  ),
  newestBucket: gauge(
    "vdbcloud_metrics_newest_bucket_timestamp_seconds",
    "Unix time of the newest non-null bucket returned by Query Cluster Metrics for this target.",
  ),
} as const;

/**
 * Process-wide self families kept by the exposition layer (prom-client). Listed here so that
 * their names and HELP live beside every other family. The two duration histograms
 * (vdbcloud_api_request_duration_seconds, vdbcloud_collector_duration_seconds) are not listed:
 * FamilyDef only describes gauges and counters.
 */
export const PROCESS_SELF_FAMILIES = {
  schedulerSkippedRuns: counter(
    "vdbcloud_scheduler_skipped_runs_total",
    "Scheduled runs skipped because the previous run of the collector was still going.",
  ),
  apiRequests: counter(
    "vdbcloud_api_requests_total",
    "HTTP requests to the upstream API (each retry counts) by endpoint template and outcome.",
  ),
  apiRetries: counter("vdbcloud_api_retries_total", "Upstream API retries by endpoint template."),
  apiRateLimited: counter(
    "vdbcloud_api_rate_limited_total",
    "Upstream answers that signalled rate limiting, by endpoint template.",
  ),
  apiSchemaErrors: counter(
    "vdbcloud_api_schema_errors_total",
    "Upstream responses that did not match the endpoint's schema, by endpoint template.",
  ),
  samplesDropped: counter("vdbcloud_samples_dropped_total", "Samples not exposed, by reason."),
  internalErrors: counter(
    "vdbcloud_internal_errors_total",
    "Failures of the exporter's own background work (publishing, start-up, jobs file, closing clients), by where they happened. The exporter keeps serving the last good state.",
  ),
  configLastReloadSuccessful: gauge(
    "vdbcloud_config_last_reload_successful",
    "1 if the last configuration load or reload succeeded, 0 otherwise.",
  ),
  buildInfo: gauge("vdbcloud_exporter_build_info", "Exporter build, always 1."),
  configLastReloadSuccessTimestamp: gauge(
    "vdbcloud_config_last_reload_success_timestamp_seconds",
    "Unix time of the last successful configuration load or reload.",
  ),
  exporterSeries: gauge(
    "vdbcloud_exporter_series",
    "Series held in the sample store (excluding self-metrics).",
  ),
  shardOrdinal: gauge("vdbcloud_shard_ordinal", "Shard ordinal of this exporter instance."),
  totalShards: gauge("vdbcloud_total_shards", "Number of shards the targets are split across."),
} as const;
