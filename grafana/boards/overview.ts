/** Overview: every selected cluster at a glance, made for a wall screen. */
import type { DashboardSpec } from "../lib/panels.js";
import {
  CLUSTER_DETAIL_LINK,
  CLUSTER_SCOPE,
  CLUSTER_STATUS_COLORS,
  clusterInfoWithStatus,
  clusterTableColumn,
  clusterVariables,
  LIMITS,
  steps,
  TAG,
  UID,
  withClusterName,
} from "./common.js";

const SEL = `cluster_id=~"$cluster", ${CLUSTER_SCOPE}`;
const INFO_SEL = 'cluster_id=~"$cluster"';
const LEGEND = "{{cluster_name}} ({{cluster_id}})";
const LEGEND_TYPE = "{{cluster_name}} {{request_type}}";

/** The overview dashboard (uid vdbcloud-overview). */
export const overview: DashboardSpec = {
  uid: UID.overview,
  title: "Vector DB Cloud / Overview",
  description: "Every cluster at a glance: status, CU load, storage, traffic, latency and failures.",
  tags: [TAG],
  variables: clusterVariables(true),
  annotations: [
    {
      name: "Firing alerts",
      expr: 'ALERTS{alertname=~"Vdbcloud.+", alertstate="firing", cluster_id=~"$cluster"}',
      titleFormat: "{{alertname}}",
      textFormat: "{{cluster_id}} ({{severity}})",
      iconColor: "red",
    },
  ],
  rows: [
    {
      title: "At a glance",
      panels: [
        {
          kind: "stat",
          title: "Clusters",
          description: "Number of selected clusters known from the inventory (Describe Cluster).",
          queries: [{ expr: `count(max by (cluster_id) (vdbcloud_cluster_info{${INFO_SEL}}))` }],
          unit: "none",
          thresholds: steps(),
          colorMode: "value",
        },
        {
          kind: "stat",
          title: "Clusters not running",
          description:
            "Selected clusters whose status is anything but running (stopped, abnormal, modifying, ...). " +
            "Red when at least one.",
          queries: [
            {
              expr: `count(vdbcloud_cluster_status{${INFO_SEL}, status!="running"} == 1) or vector(0)`,
            },
          ],
          unit: "none",
          thresholds: LIMITS.anyIsBad,
        },
        {
          kind: "stat",
          title: "Highest CU computation",
          description: "The busiest cluster's CU computation (share of compute in use). Alert at 85%.",
          queries: [{ expr: `max(vdbcloud_cu_computation_ratio{${SEL}})` }],
          unit: "percentunit",
          decimals: 1,
          thresholds: LIMITS.cuComputation,
        },
        {
          kind: "stat",
          title: "Highest CU capacity",
          description:
            "The fullest cluster's CU capacity (share of data capacity in use). Alert at 80%, page at 95%.",
          queries: [{ expr: `max(vdbcloud_cu_capacity_ratio{${SEL}})` }],
          unit: "percentunit",
          decimals: 1,
          thresholds: LIMITS.cuCapacity,
        },
        {
          kind: "stat",
          title: "Total request rate",
          description: "Requests per second over all selected clusters and request types.",
          queries: [{ expr: `sum(vdbcloud:cluster_requests_per_second:sum{cluster_id=~"$cluster"})` }],
          unit: "reqps",
          thresholds: steps(),
          colorMode: "value",
        },
        {
          kind: "stat",
          title: "Worst failure ratio",
          description:
            "The highest request failure ratio of any selected cluster and request type. Alert at 5%.",
          queries: [{ expr: `max(vdbcloud:cluster_request_failure_ratio:max{cluster_id=~"$cluster"})` }],
          unit: "percentunit",
          decimals: 2,
          thresholds: LIMITS.failureRatio,
        },
      ],
    },
    {
      title: "Clusters",
      panels: [
        {
          kind: "table",
          title: "Clusters",
          description:
            "One row per cluster: descriptive labels and status from the inventory, current CU size (empty for free and serverless clusters, which have no CUs), " +
            "CU load, storage, request rate, worst failure ratio, worst P99 latency and the age of the newest " +
            "metric bucket.",
          h: 9,
          queries: [
            { expr: clusterInfoWithStatus(INFO_SEL) },
            { expr: clusterTableColumn(`vdbcloud_cluster_cu_size{${INFO_SEL}}`, INFO_SEL) },
            { expr: clusterTableColumn(`vdbcloud_cu_computation_ratio{${SEL}}`, INFO_SEL) },
            { expr: clusterTableColumn(`vdbcloud_cu_capacity_ratio{${SEL}}`, INFO_SEL) },
            { expr: clusterTableColumn(`vdbcloud_storage_bytes{${SEL}}`, INFO_SEL) },
            {
              expr: clusterTableColumn(`vdbcloud:cluster_requests_per_second:sum{${INFO_SEL}}`, INFO_SEL),
            },
            {
              expr: clusterTableColumn(`vdbcloud:cluster_request_failure_ratio:max{${INFO_SEL}}`, INFO_SEL),
            },
            {
              expr: clusterTableColumn(`vdbcloud_request_latency_seconds{${SEL}, stat="p99"}`, INFO_SEL),
            },
            { expr: clusterTableColumn(`vdbcloud:metrics_data_age_seconds:max{${INFO_SEL}}`, INFO_SEL) },
          ],
          hide: ["Value #A"],
          columns: [
            { field: "cluster_id", displayName: "Cluster ID" },
            { field: "cluster_name", displayName: "Name" },
            { field: "project_id", displayName: "Project" },
            { field: "region_id", displayName: "Region" },
            { field: "cu_type", displayName: "CU type" },
            { field: "plan", displayName: "Plan" },
            {
              field: "status",
              displayName: "Status",
              colored: true,
              mappings: CLUSTER_STATUS_COLORS,
            },
            { field: "Value #B", displayName: "CU size", unit: "none" },
            {
              field: "Value #C",
              displayName: "CU computation",
              unit: "percentunit",
              thresholds: LIMITS.cuComputation,
              colored: true,
            },
            {
              field: "Value #D",
              displayName: "CU capacity",
              unit: "percentunit",
              thresholds: LIMITS.cuCapacity,
              colored: true,
            },
            { field: "Value #E", displayName: "Storage", unit: "bytes" },
            { field: "Value #F", displayName: "Requests", unit: "reqps" },
            {
              field: "Value #G",
              displayName: "Worst failure ratio",
              unit: "percentunit",
              thresholds: LIMITS.failureRatio,
              colored: true,
            },
            {
              field: "Value #H",
              displayName: "Worst P99 latency",
              unit: "s",
              thresholds: LIMITS.p99Latency,
              colored: true,
            },
            {
              field: "Value #I",
              displayName: "Data age",
              unit: "s",
              thresholds: LIMITS.dataAge,
              colored: true,
            },
          ],
          links: [
            {
              title: "Cluster detail",
              url: `/d/${UID.cluster}/?var-datasource=\${datasource}&var-cluster=\${__data.fields.cluster_id}&\${__url_time_range}`,
            },
          ],
        },
      ],
    },
    {
      title: "Compute and storage",
      panels: [
        {
          kind: "timeseries",
          title: "CU computation",
          description:
            "Share of each cluster's compute units in use (CU_COMPUTATION, average). Alert above 85% for 15m.",
          queries: [{ expr: withClusterName(`vdbcloud_cu_computation_ratio{${SEL}}`), legend: LEGEND }],
          unit: "percentunit",
          min: 0,
          max: 1,
          thresholds: LIMITS.cuComputation,
          links: [CLUSTER_DETAIL_LINK],
        },
        {
          kind: "timeseries",
          title: "CU capacity",
          description:
            "Share of each cluster's data capacity in use (CU_CAPACITY). Writes are refused when full: " +
            "alert above 80%, page above 95%.",
          queries: [{ expr: withClusterName(`vdbcloud_cu_capacity_ratio{${SEL}}`), legend: LEGEND }],
          unit: "percentunit",
          min: 0,
          max: 1,
          thresholds: LIMITS.cuCapacity,
          links: [CLUSTER_DETAIL_LINK],
        },
        {
          kind: "timeseries",
          title: "Storage",
          description: "Storage used per cluster (STORAGE_USE), in bytes.",
          queries: [{ expr: withClusterName(`vdbcloud_storage_bytes{${SEL}}`), legend: LEGEND }],
          unit: "bytes",
          min: 0,
          links: [CLUSTER_DETAIL_LINK],
        },
        {
          kind: "timeseries",
          title: "Write capacity",
          description: "Share of each cluster's write capacity in use (CLUSTER_WRITE_CAPACITY).",
          queries: [{ expr: withClusterName(`vdbcloud_write_capacity_ratio{${SEL}}`), legend: LEGEND }],
          unit: "percentunit",
          min: 0,
          max: 1,
          thresholds: LIMITS.writeCapacity,
          links: [CLUSTER_DETAIL_LINK],
        },
      ],
    },
    {
      title: "Traffic",
      panels: [
        {
          kind: "timeseries",
          title: "Requests per cluster",
          description: "Requests per second per cluster, all request types together (REQ_*_COUNT).",
          queries: [
            {
              expr: withClusterName(`vdbcloud:cluster_requests_per_second:sum{cluster_id=~"$cluster"}`),
              legend: LEGEND,
            },
          ],
          unit: "reqps",
          min: 0,
          links: [CLUSTER_DETAIL_LINK],
        },
        {
          kind: "timeseries",
          title: "Requests per type",
          description: "Requests per second per request type, all selected clusters together.",
          queries: [
            {
              expr: `sum by (request_type) (vdbcloud_requests_per_second{${SEL}})`,
              legend: "{{request_type}}",
            },
          ],
          unit: "reqps",
          min: 0,
          stack: true,
        },
        {
          kind: "timeseries",
          title: "Vector requests per cluster",
          description: "Vector requests (entities touched) per second per cluster (VECTOR_REQ_*_COUNT).",
          queries: [
            {
              expr: withClusterName(
                `vdbcloud:cluster_vector_requests_per_second:sum{cluster_id=~"$cluster"}`,
              ),
              legend: LEGEND,
            },
          ],
          unit: "reqps",
          min: 0,
          links: [CLUSTER_DETAIL_LINK],
        },
        {
          kind: "timeseries",
          title: "Vector requests per type",
          description: "Vector requests per second per request type, all selected clusters together.",
          queries: [
            {
              expr: `sum by (request_type) (vdbcloud_vector_requests_per_second{${SEL}})`,
              legend: "{{request_type}}",
            },
          ],
          unit: "reqps",
          min: 0,
          stack: true,
        },
      ],
    },
    {
      title: "Latency and failures",
      panels: [
        {
          kind: "timeseries",
          title: "P99 latency per request type",
          description:
            "99th percentile request latency per cluster and request type. Alert above 1 s for 15m.",
          queries: [
            {
              expr: withClusterName(`vdbcloud_request_latency_seconds{${SEL}, stat="p99"}`),
              legend: LEGEND_TYPE,
            },
          ],
          unit: "s",
          min: 0,
          thresholds: LIMITS.p99Latency,
          links: [CLUSTER_DETAIL_LINK],
        },
        {
          kind: "timeseries",
          title: "Average latency per request type",
          description: "Average request latency per cluster and request type.",
          queries: [
            {
              expr: withClusterName(`vdbcloud_request_latency_seconds{${SEL}, stat="avg"}`),
              legend: LEGEND_TYPE,
            },
          ],
          unit: "s",
          min: 0,
          links: [CLUSTER_DETAIL_LINK],
        },
        {
          kind: "timeseries",
          title: "Failure ratio per request type",
          description:
            'Share of failed requests per cluster and request type ("all" is REQ_FAIL_RATE). Alert above 5% for 10m.',
          queries: [
            {
              expr: withClusterName(`vdbcloud_request_failure_ratio{${SEL}}`),
              legend: LEGEND_TYPE,
            },
          ],
          unit: "percentunit",
          min: 0,
          thresholds: LIMITS.failureRatio,
          links: [CLUSTER_DETAIL_LINK],
        },
        {
          kind: "timeseries",
          title: "Worst failure ratio per cluster",
          description: "The highest failure ratio of any request type, per cluster.",
          queries: [
            {
              expr: withClusterName(`vdbcloud:cluster_request_failure_ratio:max{cluster_id=~"$cluster"}`),
              legend: LEGEND,
            },
          ],
          unit: "percentunit",
          min: 0,
          thresholds: LIMITS.failureRatio,
          links: [CLUSTER_DETAIL_LINK],
        },
      ],
    },
    {
      title: "Inventory",
      panels: [
        {
          kind: "table",
          title: "Projects",
          description:
            "Projects visible to the API key: their number of clusters, plan and organisation type (List Projects V2; plan and org type are empty where only v1 answers).",
          w: 12,
          queries: [
            { expr: `max by (project_id, project_name) (vdbcloud_project_clusters{project_id=~"$project"})` },
            {
              expr: `max by (project_id, project_name, plan, org_type) (vdbcloud_project_info{project_id=~"$project"})`,
            },
          ],
          hide: ["Value #B"],
          columns: [
            { field: "project_id", displayName: "Project ID" },
            { field: "project_name", displayName: "Name" },
            { field: "plan", displayName: "Plan" },
            { field: "org_type", displayName: "Org type" },
            { field: "Value #A", displayName: "Clusters", unit: "none" },
          ],
        },
        {
          kind: "table",
          title: "Regions",
          description:
            "Cloud regions offered by the service, with the control-plane host per region (List Cloud Regions).",
          w: 12,
          queries: [{ expr: "max by (cloud_id, region_id, domain) (vdbcloud_region_info)" }],
          hide: ["Value"],
          columns: [
            { field: "cloud_id", displayName: "Cloud" },
            { field: "region_id", displayName: "Region" },
            { field: "domain", displayName: "API host" },
          ],
        },
        {
          kind: "table",
          title: "Group members",
          description:
            "Members of each SCIM group of groups.ids, for access audits (List Group Members count).",
          w: 24,
          queries: [{ expr: "max by (group_id) (vdbcloud_group_members)" }],
          columns: [
            { field: "group_id", displayName: "Group ID" },
            { field: "Value", displayName: "Members", unit: "none" },
          ],
        },
      ],
    },
  ],
};
