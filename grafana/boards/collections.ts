/**
 * Collections: what each cluster's data plane lists, load states, rows, the state and backlog of
 * each index, the hottest collections, and the canary's probes of chosen collections.
 */
import type { DashboardSpec } from "../lib/panels.js";
import { CLUSTER_DETAIL_LINK, DATASOURCE_VARIABLE, LIMITS, steps, TAG, UID } from "./common.js";

const SEL = 'cluster_id=~"$cluster"';
/** Per-collection series of discovered or configured scopes. */
const SCOPED = `${SEL}, collection_name!=""`;

const LOAD_STATE_COLORS = [
  { value: "loaded", color: "green" },
  { value: "loading", color: "blue" },
  { value: "not_loaded", color: "red" },
  { value: ".*", color: "orange", regex: true },
];

const INDEX_STATE_COLORS = [
  { value: "finished", color: "green" },
  { value: "in_progress", color: "blue" },
  { value: "unissued", color: "blue" },
  { value: "retry", color: "orange" },
  { value: "failed", color: "red" },
  { value: ".*", color: "orange", regex: true },
];

/** An index's identity, on which the table's rows join. */
const INDEX = "cluster_id, db_name, collection_name, index_name";

/** A canary target's identity, on which its series join. */
const TARGET = "cluster_id, db_name, collection_name, operation";

/** A quantile of the canary's time on the wire per target, over 5 minutes. */
function canaryQuantile(q: number): string {
  return `histogram_quantile(${q}, sum by (${TARGET}, le) (rate(vdbcloud_canary_duration_seconds_bucket{${SEL}}[5m])))`;
}

/** Every index with its field, type, metric and current state: the table's first column set. */
const INDEX_INFO =
  `max by (${INDEX}, field_name, index_type, metric_type, state) (vdbcloud_index_info{${SEL}}` +
  ` * on (${INDEX}) group_left (state) max by (${INDEX}, state) (vdbcloud_index_state{${SEL}} == 1))`;

/** One per-index value with the labels of {@link INDEX_INFO}, so the table merges rows per index. */
function indexColumn(family: string): string {
  return (
    `max by (${INDEX}) (${family}{${SEL}})` +
    ` * on (${INDEX}) group_left (field_name, index_type, metric_type, state) ${INDEX_INFO}`
  );
}

/** The collections dashboard (uid vdbcloud-collections). */
export const collections: DashboardSpec = {
  uid: UID.collections,
  title: "Vector DB Cloud / Collections",
  description:
    "Collections found through each cluster's data plane (collections.enabled): load states, rows, and the collections with the most search traffic and the slowest searches; and the canary's read-only probes of chosen collections (canary.targets).",
  tags: [TAG],
  variables: [
    DATASOURCE_VARIABLE,
    {
      kind: "query",
      name: "cluster",
      label: "Cluster",
      query: "label_values(vdbcloud_collection_info, cluster_id)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
  ],
  annotations: [
    {
      name: "Collection alerts",
      expr: 'ALERTS{alertname=~"VdbcloudCollectionNotLoaded|VdbcloudIndexBuildFailed|VdbcloudIndexBuildStalled|VdbcloudCanaryFailing", alertstate="firing"}',
      titleFormat: "{{alertname}}",
      textFormat: "{{cluster_id}} {{db_name}}/{{collection_name}} {{index_name}}",
      iconColor: "red",
    },
  ],
  rows: [
    {
      title: "Load states",
      panels: [
        {
          kind: "stat",
          title: "Collections listed",
          description: "Collections the data planes list after include/exclude (vdbcloud_collection_info).",
          queries: [{ expr: `count(vdbcloud_collection_info{${SEL}}) or vector(0)` }],
          unit: "none",
          thresholds: steps(),
          w: 6,
        },
        {
          kind: "stat",
          title: "Collections not loaded",
          description:
            "Polled collections whose load state is not_loaded. Each one raises VdbcloudCollectionNotLoaded after 15 minutes.",
          queries: [
            { expr: `count(vdbcloud_collection_load_state{${SEL}, state="not_loaded"} == 1) or vector(0)` },
          ],
          unit: "none",
          thresholds: LIMITS.anyIsBad,
          colorMode: "background",
          w: 6,
        },
        {
          kind: "stat",
          title: "Collections not polled",
          description:
            "Listed collections beyond collections.max_per_cluster: no load state, rows or metrics for them (raise the cap or narrow include/exclude).",
          queries: [{ expr: `sum(vdbcloud_collections_not_polled{${SEL}}) or vector(0)` }],
          unit: "none",
          thresholds: LIMITS.anyIsBad,
          w: 6,
        },
        {
          kind: "timeseries",
          title: "Collections per database",
          description:
            "Collections each database holds, before include/exclude (data plane List Collections).",
          queries: [
            {
              expr: `vdbcloud_collections{${SEL}, db_name!=""}`,
              legend: "{{cluster_id}} {{db_name}}",
            },
          ],
          unit: "none",
          min: 0,
          w: 6,
        },
        {
          kind: "table",
          title: "Collections not loaded or loading",
          description:
            "Polled collections whose current load state is anything but loaded, with the load progress of those loading.",
          queries: [
            { expr: `vdbcloud_collection_load_state{${SEL}, state!="loaded"} == 1` },
            { expr: `vdbcloud_collection_load_progress_ratio{${SEL}}` },
          ],
          hide: ["Value #A"],
          columns: [{ field: "state", colored: true, mappings: LOAD_STATE_COLORS }],
          links: [CLUSTER_DETAIL_LINK],
        },
      ],
    },
    {
      title: "Indexes",
      panels: [
        {
          kind: "stat",
          title: "Index builds failed",
          description:
            'Indexes whose build state is failed (Describe Index). Each raises VdbcloudIndexBuildFailed; the exporter logged the service\'s reason once ("index build failed").',
          queries: [{ expr: `count(vdbcloud_index_state{${SEL}, state="failed"} == 1) or vector(0)` }],
          unit: "none",
          thresholds: LIMITS.anyIsBad,
          colorMode: "background",
          w: 6,
        },
        {
          kind: "stat",
          title: "Indexes building",
          description: "Indexes whose build is unissued, in progress or being retried.",
          queries: [
            {
              expr: `count(vdbcloud_index_state{${SEL}, state=~"unissued|in_progress|retry"} == 1) or vector(0)`,
            },
          ],
          unit: "none",
          thresholds: steps(),
          w: 6,
        },
        {
          kind: "stat",
          title: "Rows pending indexing",
          description:
            "Rows of every polled collection that their indexes do not cover yet, summed over indexes (Describe Index pendingRows).",
          queries: [{ expr: `sum(vdbcloud_index_pending_rows{${SEL}}) or vector(0)` }],
          unit: "short",
          thresholds: steps(),
          w: 6,
        },
        {
          kind: "stat",
          title: "Indexes",
          description: "Indexes of the polled collections (List Indexes).",
          queries: [{ expr: `count(vdbcloud_index_info{${SEL}}) or vector(0)` }],
          unit: "none",
          thresholds: steps(),
          w: 6,
        },
        {
          kind: "timeseries",
          title: "Pending rows per index",
          description:
            "Rows waiting to be indexed, per index (the 20 largest backlogs). A backlog whose indexed rows do not move for 30 minutes raises VdbcloudIndexBuildStalled.",
          queries: [
            {
              expr: `topk(20, vdbcloud_index_pending_rows{${SEL}})`,
              legend: "{{cluster_id}} {{db_name}}/{{collection_name}} {{index_name}}",
            },
          ],
          unit: "short",
          min: 0,
          w: 24,
        },
        {
          kind: "table",
          title: "State of each index",
          description:
            "Every index of the polled collections: its field, type and metric, its build state, and its total, indexed and pending rows (Describe Index).",
          h: 9,
          queries: [
            { expr: INDEX_INFO },
            { expr: indexColumn("vdbcloud_index_rows") },
            { expr: indexColumn("vdbcloud_index_indexed_rows") },
            { expr: indexColumn("vdbcloud_index_pending_rows") },
          ],
          hide: ["Value #A"],
          columns: [
            { field: "state", colored: true, mappings: INDEX_STATE_COLORS },
            { field: "Value #B", displayName: "Rows", unit: "short" },
            { field: "Value #C", displayName: "Indexed", unit: "short" },
            { field: "Value #D", displayName: "Pending", unit: "short" },
          ],
          links: [CLUSTER_DETAIL_LINK],
        },
      ],
    },
    {
      title: "Traffic and size",
      panels: [
        {
          kind: "timeseries",
          title: "Top collections by search rate",
          description:
            "The ten collections with the most search requests per second (per-collection scopes).",
          queries: [
            {
              expr: `topk(10, vdbcloud_requests_per_second{${SCOPED}, request_type="search"})`,
              legend: "{{cluster_id}} {{db_name}}/{{collection_name}}",
            },
          ],
          unit: "reqps",
          min: 0,
          w: 12,
        },
        {
          kind: "timeseries",
          title: "Top collections by search P99 latency",
          description: "The ten collections with the highest search P99 latency (per-collection scopes).",
          queries: [
            {
              expr: `topk(10, vdbcloud_request_latency_seconds{${SCOPED}, request_type="search", stat="p99"})`,
              legend: "{{cluster_id}} {{db_name}}/{{collection_name}}",
            },
          ],
          unit: "s",
          min: 0,
          w: 12,
        },
        {
          kind: "timeseries",
          title: "Rows per collection",
          description:
            "Row count per polled collection (data plane Get Collection Stats; collections.row_count).",
          queries: [
            {
              expr: `topk(20, vdbcloud_collection_rows{${SEL}})`,
              legend: "{{cluster_id}} {{db_name}}/{{collection_name}}",
            },
          ],
          unit: "short",
          min: 0,
          w: 24,
        },
      ],
    },
    {
      title: "Canary",
      panels: [
        {
          kind: "stat",
          title: "Canary targets failing",
          description:
            "Canary targets whose last probe failed (vdbcloud_canary_up 0): a read-only search or query of the collection through its cluster's endpoint did not answer. Failing for 5 minutes raises VdbcloudCanaryFailing.",
          queries: [{ expr: `count(vdbcloud_canary_up{${SEL}} == 0) or vector(0)` }],
          unit: "none",
          thresholds: LIMITS.anyIsBad,
          colorMode: "background",
          w: 6,
        },
        {
          kind: "timeseries",
          title: "Canary probes by outcome",
          description:
            "Probes per second by outcome (success, error, timeout, refused), every target together: refused is the credential, timeout a data plane that does not answer within canary.timeout.",
          queries: [
            {
              expr: `sum by (outcome) (rate(vdbcloud_canary_requests_total{${SEL}}[5m]))`,
              legend: "{{outcome}}",
            },
          ],
          unit: "reqps",
          min: 0,
          stack: true,
          w: 18,
        },
        {
          kind: "timeseries",
          title: "Canary latency P50 and P99",
          description:
            "The canary's time on the wire per target (the request's first byte written to the answer's last byte read; the exporter's own queues left out), P50 and P99 over 5 minutes, from its histogram. Compare it with the service's reported P99 (cluster dashboard).",
          queries: [
            {
              expr: canaryQuantile(0.5),
              legend: "p50 {{cluster_id}} {{db_name}}/{{collection_name}} {{operation}}",
            },
            {
              expr: canaryQuantile(0.99),
              legend: "p99 {{cluster_id}} {{db_name}}/{{collection_name}} {{operation}}",
            },
          ],
          unit: "s",
          min: 0,
          thresholds: LIMITS.p99Latency,
          thresholdStyle: "line",
          w: 16,
        },
        {
          kind: "timeseries",
          title: "Canary cost (vCU per hour)",
          description:
            "vCU per hour the canary's probes cost per cluster: the answers' cost, billed on free and serverless clusters (0 on dedicated ones).",
          queries: [
            {
              expr: `sum by (cluster_id) (rate(vdbcloud_canary_vcu_total{${SEL}}[1h])) * 3600`,
              legend: "{{cluster_id}}",
            },
          ],
          unit: "short",
          min: 0,
          w: 8,
        },
        {
          kind: "table",
          title: "Canary targets",
          description:
            "Each canary target: whether its last probe succeeded (1) and when a probe last succeeded.",
          queries: [
            { expr: `vdbcloud_canary_up{${SEL}}` },
            { expr: `vdbcloud_canary_last_success_timestamp_seconds{${SEL}} * 1000` },
          ],
          columns: [
            {
              field: "Value #A",
              displayName: "Up",
              colored: true,
              mappings: [
                { value: "1", text: "up", color: "green" },
                { value: "0", text: "failing", color: "red" },
              ],
            },
            { field: "Value #B", displayName: "Last success", unit: "dateTimeAsIso" },
          ],
          links: [CLUSTER_DETAIL_LINK],
        },
      ],
    },
  ],
};
