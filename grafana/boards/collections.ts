/** Collections: what each cluster's data plane lists, load states, rows, and the hottest collections. */
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

/** The collections dashboard (uid vdbcloud-collections). */
export const collections: DashboardSpec = {
  uid: UID.collections,
  title: "Vector DB Cloud / Collections",
  description:
    "Collections found through each cluster's data plane (collections.enabled): load states, rows, and the collections with the most search traffic and the slowest searches.",
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
      expr: 'ALERTS{alertname="VdbcloudCollectionNotLoaded", alertstate="firing"}',
      titleFormat: "{{alertname}}",
      textFormat: "{{cluster_id}} {{db_name}}/{{collection_name}}",
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
  ],
};
