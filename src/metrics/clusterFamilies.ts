/**
 * The families fed by Query Cluster Metrics (re-exported by metrics/families.ts, the one
 * list of families); upstream/catalog.ts maps the service's metric names onto them by key.
 */
import { DATA_PLANE_ENDPOINT, ENDPOINT } from "../upstream/types.js";
import { gauge } from "./define.js";
import type { FamilyDoc } from "./sample.js";

const METRICS_QUERY = ENDPOINT.queryClusterMetrics;
const SCOPE_LABELS = ["cluster_id", "db_name", "collection_name"] as const;
const NO_BUCKET =
  "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value";

/** The reference entry of a Query Cluster Metrics family: scope labels first, then `extra`. */
function metricDoc(unit: string, field: string, extra: readonly string[] = [], absent?: string): FamilyDoc {
  return {
    labels: [...SCOPE_LABELS, ...extra],
    unit,
    source: `${METRICS_QUERY} ${field}`,
    absent: absent === undefined ? NO_BUCKET : `${NO_BUCKET}; ${absent}`,
  };
}

/** Families fed by Query Cluster Metrics; the catalog maps upstream names onto them. */
export const CLUSTER_FAMILIES = {
  cuComputation: gauge("vdbcloud_cu_computation_ratio", {
    help: "Share of the cluster's CU compute in use, 0 to 1, in the newest closed bucket (upstream CU_COMPUTATION, percent / 100).",
    ...metricDoc("ratio (0..1)", "CU_COMPUTATION (AVG)", [], "free and serverless clusters report none"),
  }),
  cuCapacity: gauge("vdbcloud_cu_capacity_ratio", {
    help: "Share of the cluster's CU data capacity in use, 0 to 1, in the newest closed bucket (upstream CU_CAPACITY, percent / 100).",
    ...metricDoc("ratio (0..1)", "CU_CAPACITY (AVG)"),
  }),
  writeCapacity: gauge("vdbcloud_write_capacity_ratio", {
    help: "Share of the cluster's write performance capacity in use, 0 to 1, in the newest closed bucket (upstream CLUSTER_WRITE_CAPACITY, percent / 100).",
    ...metricDoc(
      "ratio (0..1)",
      "CLUSTER_WRITE_CAPACITY (not in the public reference)",
      [],
      "only Dedicated Enterprise and BYOC clusters have it",
    ),
  }),
  storage: gauge("vdbcloud_storage_bytes", {
    help: "Persistent storage used by data and indexes, in bytes, in the newest closed bucket (upstream STORAGE_USE, GB x 1e9; MB, GiB and bytes converted too).",
    ...metricDoc("bytes", "STORAGE_USE (AVG)"),
  }),
  vcu: gauge("vdbcloud_vcu", {
    help: "vCUs (virtual compute units, the billing measure of data read or written) consumed during the newest closed bucket, whose length is metrics.granularity: a count per bucket, not a rate; operation=read is search and query, write is insert, upsert and delete (upstream READ_VCU, WRITE_VCU, count).",
    ...metricDoc(
      "count per bucket",
      "READ_VCU, WRITE_VCU (not in the public reference)",
      ["operation"],
      "only Free and Serverless clusters have it, and only when the queries list the names",
    ),
  }),
  requests: gauge("vdbcloud_requests_per_second", {
    help: "Requests (calls, whatever the number of vectors each carries) per second of this request type, averaged over the newest closed bucket (upstream REQ_{T}_COUNT, requests per minute / 60).",
    ...metricDoc("requests per second", "REQ_{T}_COUNT (AVG)", ["request_type"]),
  }),
  vectorRequests: gauge("vdbcloud_vector_requests_per_second", {
    help: "Vectors per second carried by requests of this type (a search with 10 query vectors counts 10; the console's VPS), averaged over the newest closed bucket (upstream VECTOR_REQ_{T}_COUNT, vectors per minute / 60).",
    ...metricDoc("vectors per second", "VECTOR_REQ_{T}_COUNT (AVG)", ["request_type"]),
  }),
  latency: gauge("vdbcloud_request_latency_seconds", {
    help: "Latency in seconds of requests of this type, from the client sending to receiving the answer, as the average (stat=avg) or 99th percentile (stat=p99) over the newest closed bucket (upstream REQ_{T}_LATENCY with stat AVG or P99, REQ_{T}_LATENCY_AVG, REQ_{T}_LATENCY_P99; ms / 1000).",
    ...metricDoc("seconds", "REQ_{T}_LATENCY (AVG, P99), REQ_{T}_LATENCY_AVG, REQ_{T}_LATENCY_P99", [
      "request_type",
      "stat",
    ]),
  }),
  failure: gauge("vdbcloud_request_failure_ratio", {
    help: 'Share of requests of this type that failed, 0 to 1, over the newest closed bucket; request_type="all" over all requests (upstream REQ_FAIL_RATE_{T}, REQ_FAIL_RATE; percent / 100).',
    ...metricDoc("ratio (0..1)", "REQ_FAIL_RATE_{T}, REQ_FAIL_RATE (AVG)", ["request_type"]),
  }),
  success: gauge("vdbcloud_request_success_ratio", {
    help: "Share of all requests that succeeded, 0 to 1, over the newest closed bucket (upstream REQ_SUCCESS_RATE, percent / 100).",
    ...metricDoc(
      "ratio (0..1)",
      "REQ_SUCCESS_RATE (AVG)",
      [],
      "2024 form only: the current reference dropped REQ_SUCCESS_RATE, so it is asked only when metrics.queries lists it",
    ),
  }),
  slowQueries: gauge("vdbcloud_slow_queries_per_second", {
    help: "Queries slower than 5 s per second, averaged over the newest closed bucket (upstream SLOW_QUERY_COUNT, count per minute / 60).",
    ...metricDoc(
      "queries per second",
      "SLOW_QUERY_COUNT (not in the public reference)",
      [],
      "asked only when listed in metrics.queries",
    ),
  }),
  flushes: gauge("vdbcloud_flushes_per_second", {
    help: "Flush operations (growing segments sealed to storage) per second, averaged over the newest closed bucket (upstream FLUSH_COUNT, count per minute / 60).",
    ...metricDoc(
      "flushes per second",
      "FLUSH_COUNT (not in the public reference)",
      [],
      "asked only when listed in metrics.queries",
    ),
  }),
  entities: gauge("vdbcloud_entities", {
    help: "Entities (rows) stored, at the newest closed bucket (upstream ENTITIES_COUNT, count).",
    ...metricDoc("count", "ENTITIES_COUNT (AVG)"),
  }),
  loadedEntities: gauge("vdbcloud_loaded_entities", {
    help: "Entities (rows) loaded into memory for search, at the newest closed bucket (upstream ENTITIES_LOADED, count).",
    ...metricDoc("count", "ENTITIES_LOADED (AVG)", [], "only Dedicated and BYOC clusters have it"),
  }),
  indexedEntities: gauge("vdbcloud_indexed_entities", {
    help: "Entities (rows) covered by an index, at the newest closed bucket (upstream ENTITIES_INDEXED, count).",
    ...metricDoc(
      "count",
      "ENTITIES_INDEXED (not in the public reference)",
      [],
      "asked only when listed in metrics.queries",
    ),
  }),
  entityInserts: gauge("vdbcloud_entity_inserts_per_second", {
    help: "Entities (rows, not requests) inserted per second, over the newest closed bucket (upstream ENTITIES_INSERT_RATE; per second as is, per minute / 60).",
    ...metricDoc(
      "entities per second",
      "ENTITIES_INSERT_RATE (AVG)",
      [],
      "2024 form only: the current reference dropped ENTITIES_INSERT_RATE, so it is asked only when metrics.queries lists it",
    ),
  }),
  collections: gauge("vdbcloud_collections", {
    help: "Collections in the cluster (or scope) at the newest closed bucket; with db_name, the collections the database holds, before include/exclude (upstream COLLECTIONS_COUNT, count; with db_name: the data plane's List Collections).",
    labels: ["cluster_id", "db_name", "collection_name"],
    unit: "count",
    source: `${METRICS_QUERY} COLLECTIONS_COUNT (AVG); with db_name only: ${DATA_PLANE_ENDPOINT.listCollections} (data plane), the number of names`,
    absent:
      "no series for a cluster (or scope) whose answer has only null buckets for it in the window (plan-dependent) or that refused the query (see vdbcloud_metric_query_rejected); a series disappears staleness_intervals intervals after its last value; the per-database series only with collections.enabled",
  }),
  unloadedCollections: gauge("vdbcloud_unloaded_collections", {
    help: "Collections not loaded into memory (not searchable), at the newest closed bucket (upstream UNLOADED_COLLECTIONS_COUNT, count).",
    ...metricDoc(
      "count",
      "UNLOADED_COLLECTIONS_COUNT (not in the public reference)",
      [],
      "asked only when listed in metrics.queries",
    ),
  }),
} as const;
