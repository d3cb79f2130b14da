/** Cluster detail: every cluster metric family for one cluster, plus its per-collection scopes. */
import type { DashboardSpec, TimeseriesSpec } from "../lib/panels.js";
import { CLUSTER_SCOPE, CLUSTER_STATUS_COLORS, clusterVariables, LIMITS, steps, TAG, UID } from "./common.js";

const C = 'cluster_id=~"$cluster"';
const SEL = `${C}, ${CLUSTER_SCOPE}`;
const SCOPED = `${C}, collection_name!=""`;
const COLLECTION = "{{db_name}}/{{collection_name}}";

/** A cluster-level graph of one or more families. */
function graph(
  title: string,
  description: string,
  queries: ReadonlyArray<readonly [string, string]>,
  extra: Partial<Omit<TimeseriesSpec, "kind" | "title" | "description" | "queries">> = {},
): TimeseriesSpec {
  return {
    kind: "timeseries",
    title,
    description,
    queries: queries.map(([expr, legend]) => ({ expr, legend })),
    min: 0,
    ...extra,
  };
}

/** The cluster detail dashboard (uid vdbcloud-cluster). */
export const cluster: DashboardSpec = {
  uid: UID.cluster,
  title: "Vector DB Cloud / Cluster",
  description: "One cluster in detail: every metric the exporter collects for it, and per-collection scopes.",
  tags: [TAG],
  variables: clusterVariables(false),
  annotations: [
    {
      name: "Firing alerts",
      expr: 'ALERTS{alertname=~"Vdbcloud.+", alertstate="firing", cluster_id=~"$cluster"}',
      titleFormat: "{{alertname}}",
      textFormat: "{{request_type}} {{collection_name}} ({{severity}})",
      iconColor: "red",
    },
  ],
  rows: [
    {
      title: "Cluster",
      panels: [
        {
          kind: "stat",
          title: "Status",
          description: "Current cluster status from Describe Cluster (running, stopped, abnormal, ...).",
          queries: [{ expr: `vdbcloud_cluster_status{${C}} == 1`, legend: "{{status}}" }],
          textMode: "name",
          colorMode: "none",
        },
        {
          kind: "stat",
          title: "CU size",
          description:
            "Number of compute units of the cluster. Free and serverless clusters have none (the service " +
            'reports cuSize 0): no series, shown as "no CUs (free/serverless)", never as 0.',
          queries: [{ expr: `max(vdbcloud_cluster_cu_size{${C}})` }],
          unit: "none",
          colorMode: "value",
          noValue: "no CUs (free/serverless)",
        },
        {
          kind: "stat",
          title: "Autoscaling CUs",
          description:
            "The CU range autoscaling may choose (Describe Cluster autoscaling.cu.min and .max), when the cluster has one.",
          queries: [
            { expr: `max(vdbcloud_cluster_autoscaling_cu_min{${C}})`, legend: "min" },
            { expr: `max(vdbcloud_cluster_autoscaling_cu_max{${C}})`, legend: "max" },
          ],
          unit: "none",
          colorMode: "none",
          textMode: "value_and_name",
          noValue: "no autoscaling",
        },
        {
          kind: "stat",
          title: "Replicas",
          description: "Replicas of the cluster (Describe Cluster replica), when the service gives it.",
          queries: [{ expr: `max(vdbcloud_cluster_replicas{${C}})` }],
          unit: "none",
          colorMode: "none",
          noValue: "not given",
        },
        {
          kind: "stat",
          title: "Autoscaling replicas",
          description:
            "The replica range autoscaling may choose (Describe Cluster autoscaling.replica.min and .max), when " +
            "the cluster has one; a schedule in place of the range shows none.",
          queries: [
            { expr: `max(vdbcloud_cluster_autoscaling_replicas_min{${C}})`, legend: "min" },
            { expr: `max(vdbcloud_cluster_autoscaling_replicas_max{${C}})`, legend: "max" },
          ],
          unit: "none",
          colorMode: "none",
          textMode: "value_and_name",
          noValue: "no replica range",
        },
        {
          kind: "stat",
          title: "Global cluster role",
          description:
            "The cluster's role in its global cluster (Describe Cluster globalClusterMeta): primary takes the " +
            "writes, secondaries replicate them. A change raises VdbcloudGlobalClusterFailover.",
          queries: [
            {
              expr: `max by (global_cluster_id, role) (vdbcloud_cluster_global_role{${C}} == 1)`,
              legend: "{{role}} of {{global_cluster_id}}",
            },
          ],
          textMode: "name",
          colorMode: "none",
          noValue: "not in a global cluster",
        },
        {
          kind: "stat",
          title: "Backups",
          description: "Backups taken of the cluster (Describe Cluster snapshotNumber).",
          queries: [{ expr: `max(vdbcloud_cluster_snapshots{${C}})` }],
          unit: "none",
          colorMode: "none",
        },
        {
          kind: "stat",
          title: "Creation progress",
          description:
            "While the cluster is creating, how far along it is (Describe Cluster createProgress); 100% once " +
            "created, as the service itself reports it then.",
          queries: [
            {
              expr:
                `max(vdbcloud_cluster_create_progress_ratio{${C}})` +
                ` or (max(vdbcloud_cluster_status{${C}, status!="creating"} == 1) * 0 + 1)`,
            },
          ],
          unit: "percentunit",
          colorMode: "none",
        },
        {
          kind: "stat",
          title: "CU computation",
          description: "Share of compute in use (CU_COMPUTATION). Alert above 85%.",
          queries: [{ expr: `max(vdbcloud_cu_computation_ratio{${SEL}})` }],
          unit: "percentunit",
          decimals: 1,
          thresholds: LIMITS.cuComputation,
        },
        {
          kind: "stat",
          title: "CU capacity",
          description: "Share of data capacity in use (CU_CAPACITY). Alert above 80%, page above 95%.",
          queries: [{ expr: `max(vdbcloud_cu_capacity_ratio{${SEL}})` }],
          unit: "percentunit",
          decimals: 1,
          thresholds: LIMITS.cuCapacity,
        },
        {
          kind: "stat",
          title: "Storage",
          description: "Storage in use (STORAGE_USE).",
          queries: [{ expr: `max(vdbcloud_storage_bytes{${SEL}})` }],
          unit: "bytes",
          colorMode: "value",
        },
        {
          kind: "stat",
          title: "Data age",
          description:
            "Age of the newest metric bucket the API returned for this cluster. The upstream lags a minute " +
            "or two; older means the service stopped reporting. Alert above 5 minutes.",
          queries: [{ expr: `max(time() - vdbcloud_metrics_newest_bucket_timestamp_seconds{${C}})` }],
          unit: "s",
          thresholds: LIMITS.dataAge,
        },
        {
          kind: "table",
          title: "Cluster info",
          description: "Descriptive labels of the cluster (vdbcloud_cluster_info) and its current status.",
          h: 4,
          queries: [
            {
              expr:
                `vdbcloud_cluster_info{${C}} * on (cluster_id) group_left (status)` +
                ` max by (cluster_id, status) (vdbcloud_cluster_status == 1)`,
            },
          ],
          hide: ["Value"],
          columns: [
            { field: "status", displayName: "status", colored: true, mappings: CLUSTER_STATUS_COLORS },
          ],
        },
      ],
    },
    {
      title: "Compute",
      panels: [
        graph(
          "CU computation, capacity and write capacity",
          "Compute in use (CU_COMPUTATION), data capacity in use (CU_CAPACITY) and write capacity in use " +
            "(CLUSTER_WRITE_CAPACITY), as shares of the cluster's limits.",
          [
            [`vdbcloud_cu_computation_ratio{${SEL}}`, "CU computation"],
            [`vdbcloud_cu_capacity_ratio{${SEL}}`, "CU capacity"],
            [`vdbcloud_write_capacity_ratio{${SEL}}`, "write capacity"],
          ],
          { unit: "percentunit", max: 1, thresholds: LIMITS.cuCapacity },
        ),
        graph(
          "vCU consumption",
          "Read and write virtual compute units consumed (READ_VCU, WRITE_VCU).",
          [[`vdbcloud_vcu{${SEL}}`, "{{operation}}"]],
          { unit: "short" },
        ),
      ],
    },
    {
      title: "Data",
      panels: [
        graph("Storage", "Storage in use (STORAGE_USE).", [[`vdbcloud_storage_bytes{${SEL}}`, "storage"]], {
          unit: "bytes",
          w: 8,
        }),
        graph(
          "Entities",
          "Entities stored (ENTITIES_COUNT), loaded in memory (ENTITIES_LOADED) and indexed (ENTITIES_INDEXED).",
          [
            [`vdbcloud_entities{${SEL}}`, "entities"],
            [`vdbcloud_loaded_entities{${SEL}}`, "loaded"],
            [`vdbcloud_indexed_entities{${SEL}}`, "indexed"],
          ],
          { unit: "short", w: 8 },
        ),
        graph(
          "Collections",
          "Collections in the cluster (COLLECTIONS_COUNT) and those not loaded (UNLOADED_COLLECTIONS_COUNT).",
          [
            [`vdbcloud_collections{${SEL}}`, "collections"],
            [`vdbcloud_unloaded_collections{${SEL}}`, "unloaded"],
          ],
          { unit: "short", w: 8 },
        ),
        graph(
          "Entity insert rate",
          "Entities inserted per second (ENTITIES_INSERT_RATE).",
          [[`vdbcloud_entity_inserts_per_second{${SEL}}`, "inserts"]],
          { unit: "ops", w: 8 },
        ),
        graph(
          "Flushes",
          "Flush operations per second (FLUSH_COUNT).",
          [[`vdbcloud_flushes_per_second{${SEL}}`, "flushes"]],
          { unit: "ops", w: 8 },
        ),
        graph(
          "Slow queries",
          "Slow queries per second (SLOW_QUERY_COUNT). Any sustained value deserves a look at the query patterns.",
          [[`vdbcloud_slow_queries_per_second{${SEL}}`, "slow queries"]],
          { unit: "ops", w: 8, thresholds: steps(["orange", 0.1]) },
        ),
      ],
    },
    {
      title: "Requests",
      panels: [
        graph(
          "Requests per type",
          "Requests per second per request type (REQ_*_COUNT).",
          [[`vdbcloud_requests_per_second{${SEL}}`, "{{request_type}}"]],
          { unit: "reqps", stack: true },
        ),
        graph(
          "Vector requests per type",
          "Vector requests (entities touched) per second per request type (VECTOR_REQ_*_COUNT).",
          [[`vdbcloud_vector_requests_per_second{${SEL}}`, "{{request_type}}"]],
          { unit: "reqps", stack: true },
        ),
        graph(
          "Latency percentiles per type",
          "99th percentile latency per request type; a cluster scraped through the service's own endpoint " +
            "also shows P50 and P90, from its latency histogram. Alert above 1 s (P99) for 10m.",
          [[`vdbcloud_request_latency_seconds{${SEL}, stat=~"p50|p90|p99"}`, "{{request_type}} {{stat}}"]],
          { unit: "s", thresholds: LIMITS.p99Latency },
        ),
        graph(
          "Average latency per type",
          "Average latency per request type.",
          [[`vdbcloud_request_latency_seconds{${SEL}, stat="avg"}`, "{{request_type}}"]],
          { unit: "s" },
        ),
        graph(
          "Failure ratio per type",
          'Share of failed requests per request type ("all" is REQ_FAIL_RATE). Alert above 5% for 10m.',
          [[`vdbcloud_request_failure_ratio{${SEL}}`, "{{request_type}}"]],
          { unit: "percentunit", thresholds: LIMITS.failureRatio },
        ),
        graph(
          "Success ratio",
          "Share of successful requests (REQ_SUCCESS_RATE).",
          [[`vdbcloud_request_success_ratio{${SEL}}`, "success"]],
          {
            unit: "percentunit",
            max: 1,
            thresholds: [
              { color: "red", value: null },
              { color: "orange", value: 0.95 },
              { color: "green", value: 0.99 },
            ],
          },
        ),
      ],
    },
    {
      title: "Per collection",
      panels: [
        graph(
          "Entities per collection",
          "Entities stored, loaded and indexed per configured collection scope (clusters[].scopes in the " +
            "config), or per collection of a cluster scraped through the service's own endpoint.",
          [
            [`vdbcloud_entities{${SCOPED}}`, COLLECTION],
            [`vdbcloud_loaded_entities{${SCOPED}}`, `${COLLECTION} loaded`],
            [`vdbcloud_indexed_entities{${SCOPED}}`, `${COLLECTION} indexed`],
          ],
          { unit: "short" },
        ),
        graph(
          "Requests per collection",
          "Requests per second per configured collection scope, all request types together.",
          [[`sum by (db_name, collection_name) (vdbcloud_requests_per_second{${SCOPED}})`, COLLECTION]],
          { unit: "reqps" },
        ),
        graph(
          "P99 latency per collection",
          "99th percentile latency per configured collection scope and request type.",
          [[`vdbcloud_request_latency_seconds{${SCOPED}, stat="p99"}`, `${COLLECTION} {{request_type}}`]],
          { unit: "s", thresholds: LIMITS.p99Latency },
        ),
        graph(
          "Data age per collection",
          "Age of the newest metric bucket per configured collection scope.",
          [[`time() - vdbcloud_metrics_newest_bucket_timestamp_seconds{${SCOPED}}`, COLLECTION]],
          { unit: "s", thresholds: LIMITS.dataAge },
        ),
      ],
    },
  ],
};
