/**
 * The metric families the exporter exposes (design.md section 5 plus the self-metrics), as the
 * dashboards, rules and the end-to-end test expect them. This is the ONE list: replace it by an
 * import of the exporter's catalog once that is the source of truth.
 */
export const EXPOSED_FAMILIES: readonly string[] = [
  // Cluster metrics (Query Cluster Metrics).
  "vdbcloud_cu_computation_ratio",
  "vdbcloud_cu_capacity_ratio",
  "vdbcloud_write_capacity_ratio",
  "vdbcloud_storage_bytes",
  "vdbcloud_vcu",
  "vdbcloud_requests_per_second",
  "vdbcloud_vector_requests_per_second",
  "vdbcloud_request_latency_seconds",
  "vdbcloud_request_failure_ratio",
  "vdbcloud_request_success_ratio",
  "vdbcloud_slow_queries_per_second",
  "vdbcloud_flushes_per_second",
  "vdbcloud_entities",
  "vdbcloud_loaded_entities",
  "vdbcloud_indexed_entities",
  "vdbcloud_entity_inserts_per_second",
  "vdbcloud_collections",
  "vdbcloud_unloaded_collections",
  "vdbcloud_metrics_newest_bucket_timestamp_seconds",
  // Jobs.
  "vdbcloud_import_job_state",
  "vdbcloud_import_jobs",
  "vdbcloud_spark_job_status",
  "vdbcloud_spark_job_info",
  "vdbcloud_spark_job_duration_seconds",
  "vdbcloud_spark_job_created_timestamp_seconds",
  "vdbcloud_spark_job_submitted_timestamp_seconds",
  "vdbcloud_spark_job_started_timestamp_seconds",
  "vdbcloud_spark_job_finished_timestamp_seconds",
  "vdbcloud_spark_job_precheck_passed",
  "vdbcloud_spark_job_precheck_errors",
  "vdbcloud_spark_job_precheck_checked_rows",
  "vdbcloud_spark_job_failure_info",
  // Inventory.
  "vdbcloud_cluster_info",
  "vdbcloud_cluster_status",
  "vdbcloud_cluster_cu_size",
  "vdbcloud_project_clusters",
  "vdbcloud_region_info",
  // Self-metrics.
  "vdbcloud_collector_up",
  "vdbcloud_collector_last_success_timestamp_seconds",
  "vdbcloud_collector_duration_seconds",
  "vdbcloud_scheduler_skipped_runs_total",
  "vdbcloud_api_requests_total",
  "vdbcloud_api_request_duration_seconds",
  "vdbcloud_api_retries_total",
  "vdbcloud_api_rate_limited_total",
  "vdbcloud_api_schema_errors_total",
  "vdbcloud_samples_dropped_total",
  "vdbcloud_config_last_reload_successful",
  "vdbcloud_exporter_build_info",
  "vdbcloud_shard_ordinal",
  "vdbcloud_total_shards",
];

/** Series Prometheus synthesises or evaluates itself, which queries may also use. */
export const PROMETHEUS_SERIES: readonly string[] = ["up", "ALERTS", "ALERTS_FOR_STATE"];

/**
 * The series names a family can appear under: itself, and the suffixes of counters and
 * histograms (so the list works whether a catalog names counters with or without `_total`).
 */
export function seriesNamesOf(family: string): string[] {
  const base = family.endsWith("_total") ? family.slice(0, -"_total".length) : family;
  return [family, `${base}_total`, `${family}_bucket`, `${family}_sum`, `${family}_count`];
}
