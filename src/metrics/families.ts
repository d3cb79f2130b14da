/**
 * Definitions of every fixed metric family (docs/design.md section 5). Names are a contract:
 * dashboards, alerts and users depend on them. HELP says exactly what is counted, in which unit
 * and over which period (cluster metrics: the newest closed bucket of metrics.granularity), and
 * names the upstream metric or endpoint, or the exporter's own source, so that a reader of
 * /metrics can find the documentation of the value (families.test.ts checks this).
 */
import type { FamilyDef, FamilyDoc } from "./sample.js";

export { BILLING_FAMILIES } from "./costFamilies.js";

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
  ),
  cuCapacity: gauge(
    "vdbcloud_cu_capacity_ratio",
    "Share of the cluster's CU data capacity in use, 0 to 1, in the newest closed bucket (upstream CU_CAPACITY, percent / 100).",
  ),
  writeCapacity: gauge(
    "vdbcloud_write_capacity_ratio",
    "Share of the cluster's write performance capacity in use, 0 to 1, in the newest closed bucket (upstream CLUSTER_WRITE_CAPACITY, percent / 100).",
  ),
  storage: gauge(
    "vdbcloud_storage_bytes",
    "Persistent storage used by data and indexes, in bytes, in the newest closed bucket (upstream STORAGE_USE, GB x 1e9; MB, GiB and bytes converted too).",
  ),
  vcu: gauge(
    "vdbcloud_vcu",
    "vCUs (virtual compute units, the billing measure of data read or written) consumed during the newest closed bucket, whose length is metrics.granularity: a count per bucket, not a rate; operation=read is search and query, write is insert, upsert and delete (upstream READ_VCU, WRITE_VCU, count).",
  ),
  requests: gauge(
    "vdbcloud_requests_per_second",
    "Requests (calls, whatever the number of vectors each carries) per second of this request type, averaged over the newest closed bucket (upstream REQ_{T}_COUNT, requests per minute / 60).",
  ),
  vectorRequests: gauge(
    "vdbcloud_vector_requests_per_second",
    "Vectors per second carried by requests of this type (a search with 10 query vectors counts 10; the console's VPS), averaged over the newest closed bucket (upstream VECTOR_REQ_{T}_COUNT, vectors per minute / 60).",
  ),
  latency: gauge(
    "vdbcloud_request_latency_seconds",
    "Latency in seconds of requests of this type, from the client sending to receiving the answer, as the average (stat=avg) or 99th percentile (stat=p99) over the newest closed bucket (upstream REQ_{T}_LATENCY with stat AVG or P99, REQ_{T}_LATENCY_AVG, REQ_{T}_LATENCY_P99; ms / 1000).",
  ),
  failure: gauge(
    "vdbcloud_request_failure_ratio",
    'Share of requests of this type that failed, 0 to 1, over the newest closed bucket; request_type="all" over all requests (upstream REQ_FAIL_RATE_{T}, REQ_FAIL_RATE; percent / 100).',
  ),
  success: gauge(
    "vdbcloud_request_success_ratio",
    "Share of all requests that succeeded, 0 to 1, over the newest closed bucket (upstream REQ_SUCCESS_RATE, percent / 100).",
  ),
  slowQueries: gauge(
    "vdbcloud_slow_queries_per_second",
    "Queries slower than 5 s per second, averaged over the newest closed bucket (upstream SLOW_QUERY_COUNT, count per minute / 60).",
  ),
  flushes: gauge(
    "vdbcloud_flushes_per_second",
    "Flush operations (growing segments sealed to storage) per second, averaged over the newest closed bucket (upstream FLUSH_COUNT, count per minute / 60).",
  ),
  entities: gauge(
    "vdbcloud_entities",
    "Entities (rows) stored, at the newest closed bucket (upstream ENTITIES_COUNT, count).",
  ),
  loadedEntities: gauge(
    "vdbcloud_loaded_entities",
    "Entities (rows) loaded into memory for search, at the newest closed bucket (upstream ENTITIES_LOADED, count).",
  ),
  indexedEntities: gauge(
    "vdbcloud_indexed_entities",
    "Entities (rows) covered by an index, at the newest closed bucket (upstream ENTITIES_INDEXED, count).",
  ),
  entityInserts: gauge(
    "vdbcloud_entity_inserts_per_second",
    "Entities (rows, not requests) inserted per second, over the newest closed bucket (upstream ENTITIES_INSERT_RATE; per second as is, per minute / 60).",
  ),
  collections: gauge(
    "vdbcloud_collections",
    "Collections in the cluster (or scope) at the newest closed bucket; with db_name, the collections the database holds, before include/exclude (upstream COLLECTIONS_COUNT, count; with db_name: the data plane's List Collections).",
  ),
  unloadedCollections: gauge(
    "vdbcloud_unloaded_collections",
    "Collections not loaded into memory (not searchable), at the newest closed bucket (upstream UNLOADED_COLLECTIONS_COUNT, count).",
  ),
} as const;

/** Families of import jobs (List Import Jobs v1) and Spark jobs (Describe Spark Job v2). */
export const JOB_FAMILIES = {
  importJobState: gauge(
    "vdbcloud_import_job_state",
    "Import job state, one series per known state, 1 for the job's current state at the last poll (upstream List Import Jobs state).",
  ),
  importJobs: gauge(
    "vdbcloud_import_jobs",
    "Import jobs listed per collection and state at the last poll, terminal ones kept for import_jobs.retention (upstream List Import Jobs, count).",
  ),
  sparkStatus: gauge(
    "vdbcloud_spark_job_status",
    "Spark job status, one series per known status, 1 for the job's current status at the last poll (upstream Describe Spark Job status).",
  ),
  sparkInfo: gauge(
    "vdbcloud_spark_job_info",
    "Spark job description in labels, always 1 (upstream Describe Spark Job).",
  ),
  sparkDuration: gauge(
    "vdbcloud_spark_job_duration_seconds",
    "Run time of the Spark job in seconds, as last reported (upstream Describe Spark Job durationSeconds).",
  ),
  sparkCreated: gauge(
    "vdbcloud_spark_job_created_timestamp_seconds",
    "When the Spark job was created, Unix time in seconds (upstream Describe Spark Job createdAt).",
  ),
  sparkSubmitted: gauge(
    "vdbcloud_spark_job_submitted_timestamp_seconds",
    "When the Spark job was submitted, Unix time in seconds (upstream Describe Spark Job submittedAt).",
  ),
  sparkStarted: gauge(
    "vdbcloud_spark_job_started_timestamp_seconds",
    "When the Spark job started running, Unix time in seconds (upstream Describe Spark Job startedAt).",
  ),
  sparkFinished: gauge(
    "vdbcloud_spark_job_finished_timestamp_seconds",
    "When the Spark job finished, Unix time in seconds (upstream Describe Spark Job finishedAt).",
  ),
  sparkPrecheckPassed: gauge(
    "vdbcloud_spark_job_precheck_passed",
    "1 if the Spark job's precheck passed, 0 if it failed (upstream Describe Spark Job precheckReport.passed).",
  ),
  sparkPrecheckErrors: gauge(
    "vdbcloud_spark_job_precheck_errors",
    "Problems the Spark job's precheck found in its input, as last reported (upstream Describe Spark Job precheckReport.errors, count).",
  ),
  sparkPrecheckCheckedRows: gauge(
    "vdbcloud_spark_job_precheck_checked_rows",
    "Input rows the Spark job's precheck examined, as last reported (upstream Describe Spark Job precheckReport.checkedRows, count).",
  ),
  sparkFailureInfo: gauge(
    "vdbcloud_spark_job_failure_info",
    "Spark job failure reason in labels, 1 when the job reports one (upstream Describe Spark Job failureReason).",
  ),
} as const;

/** Inventory families: Describe Cluster / List Clusters v2, List Projects v1, List Cloud Regions v2. */
export const INVENTORY_FAMILIES = {
  clusterInfo: gauge(
    "vdbcloud_cluster_info",
    "Cluster description in labels, always 1 (upstream Describe Cluster).",
  ),
  clusterStatus: gauge(
    "vdbcloud_cluster_status",
    "Cluster status, one series per known status, 1 for the current one at the last poll (upstream Describe Cluster status).",
  ),
  clusterCuSize: gauge(
    "vdbcloud_cluster_cu_size",
    "Cluster size in CUs at the last poll; absent on free and serverless clusters, which have no CUs (upstream Describe Cluster cuSize, count).",
  ),
  clusterSnapshots: gauge(
    "vdbcloud_cluster_snapshots",
    "Backups taken of the cluster, at the last poll (upstream Describe Cluster snapshotNumber, count).",
  ),
  clusterCreateProgress: gauge(
    "vdbcloud_cluster_create_progress_ratio",
    "Creation progress of the cluster while it is creating, 0 to 1 (upstream Describe Cluster createProgress, percent / 100).",
  ),
  clusterReplicas: gauge(
    "vdbcloud_cluster_replicas",
    "Replicas of the cluster at the last poll, when the answer gives them (upstream Describe Cluster replica, count).",
  ),
  clusterAutoscalingCuMin: gauge(
    "vdbcloud_cluster_autoscaling_cu_min",
    "Smallest CU size autoscaling may choose, when the answer gives it (upstream Describe Cluster autoscaling.cu.min, count).",
  ),
  clusterAutoscalingCuMax: gauge(
    "vdbcloud_cluster_autoscaling_cu_max",
    "Largest CU size autoscaling may choose, when the answer gives it (upstream Describe Cluster autoscaling.cu.max, count).",
  ),
  projectClusters: gauge(
    "vdbcloud_project_clusters",
    "Clusters in the project at the last poll (upstream List Projects instanceCount, count).",
  ),
  regionInfo: gauge(
    "vdbcloud_region_info",
    "Cloud region in labels, always 1 (upstream List Cloud Regions).",
  ),
} as const;

/** Group families: SCIM groups of `groups.ids` (List Group Members). */
export const GROUP_FAMILIES = {
  members: gauge(
    "vdbcloud_group_members",
    "Members of the SCIM group at the last poll, a count; no member name or address is exported (upstream List Group Members count).",
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
  ),
  loadState: gauge(
    "vdbcloud_collection_load_state",
    "Collection load state, one series per state, 1 for the current one (upstream Get Load State loadState).",
  ),
  loadProgress: gauge(
    "vdbcloud_collection_load_progress_ratio",
    "Load progress of a collection while it is loading, 0 to 1 (upstream Get Load State loadProgress, percent / 100).",
  ),
  rows: gauge("vdbcloud_collection_rows", "Rows in the collection (upstream Get Collection Stats rowCount)."),
  notPolled: gauge(
    "vdbcloud_collections_not_polled",
    "Collections listed (after include/exclude) beyond collections.max_per_cluster, for which no load state, rows or metrics are polled (source: the data plane's List Collections).",
  ),
} as const;

export const TARGET_SELF_FAMILIES = {
  collectorUp: gauge(
    "vdbcloud_collector_up",
    "1 if the last poll of this collector and target succeeded, 0 if it failed (source: the exporter's own polls).",
  ),
  collectorLastSuccess: gauge(
    "vdbcloud_collector_last_success_timestamp_seconds",
    "When the last successful poll of this collector and target ended, Unix time in seconds (source: the exporter's own polls).",
  ),
  newestBucket: gauge(
    "vdbcloud_metrics_newest_bucket_timestamp_seconds",
    "Start of the newest non-null bucket Query Cluster Metrics returned for this target, Unix time in seconds: how old the data is (upstream Query Cluster Metrics timestamps).",
  ),
  metricQueryRejected: gauge(
    "vdbcloud_metric_query_rejected",
    "1 per metric query the service refused in every request form; it is not asked again until metrics.quarantine has passed (source: the exporter's Query Cluster Metrics refusals).",
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
  ),
  apiRequests: counter(
    "vdbcloud_api_requests_total",
    "HTTP requests the exporter sent to the upstream API (each attempt and retry counts once), by endpoint template and outcome, since the exporter started (source: the exporter's API client).",
  ),
  apiRetries: counter(
    "vdbcloud_api_retries_total",
    "Upstream API requests retried after a failed attempt, by endpoint template, since the exporter started (source: the exporter's API client).",
  ),
  apiRateLimited: counter(
    "vdbcloud_api_rate_limited_total",
    "Upstream answers that signalled rate limiting (HTTP 429 or a rate-limit code or message), by endpoint template, since the exporter started (source: the exporter's API client).",
  ),
  apiSchemaErrors: counter(
    "vdbcloud_api_schema_errors_total",
    "Upstream answers whose shape the exporter did not understand, by endpoint template, since the exporter started (source: the exporter's API client).",
  ),
  samplesDropped: counter(
    "vdbcloud_samples_dropped_total",
    "Upstream data points not exposed, by reason, since the exporter started (source: the exporter's mapping of upstream answers).",
  ),
  internalErrors: counter(
    "vdbcloud_internal_errors_total",
    "Failures of the exporter's own background work (publishing, start-up, jobs file, closing clients), by where they happened, since the exporter started; it keeps serving the last good state (source: the exporter).",
  ),
  configLastReloadSuccessful: gauge(
    "vdbcloud_config_last_reload_successful",
    "1 if the last configuration load or reload succeeded, 0 otherwise (source: the exporter's config file).",
  ),
  buildInfo: gauge(
    "vdbcloud_exporter_build_info",
    "Exporter version and Node.js version in labels, always 1 (source: the exporter's build).",
  ),
  configLastReloadSuccessTimestamp: gauge(
    "vdbcloud_config_last_reload_success_timestamp_seconds",
    "When the configuration was last loaded or reloaded successfully, Unix time in seconds (source: the exporter's config file).",
  ),
  exporterSeries: gauge(
    "vdbcloud_exporter_series",
    "Series held in the exporter's sample store at the last publish, self-metrics excluded (source: the exporter, count).",
  ),
  shardOrdinal: gauge(
    "vdbcloud_shard_ordinal",
    "This exporter's shard, 0-based (source: --shard or the host name's ordinal).",
  ),
  totalShards: gauge(
    "vdbcloud_total_shards",
    "Number of shards the targets are split across (source: --total-shards).",
  ),
} as const;

/** A process-wide histogram family: FamilyDef's name and HELP, and its bucket bounds. */
export interface HistogramDef {
  readonly name: string;
  readonly help: string;
  readonly buckets: readonly number[];
}

/** The process-wide self histograms (exposition/selfMetrics.ts). */
export const PROCESS_SELF_HISTOGRAMS = {
  apiDuration: {
    name: "vdbcloud_api_request_duration_seconds",
    help: "Duration in seconds of each HTTP request attempt to the upstream API, by endpoint template, since the exporter started (source: the exporter's API client).",
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  },
  collectorDuration: {
    name: "vdbcloud_collector_duration_seconds",
    help: "Duration in seconds of one poll of one target, retries and waits included, by collector, since the exporter started (source: the exporter's polls).",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  },
} as const satisfies Record<string, HistogramDef>;
