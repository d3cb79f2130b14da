/** Overview: every selected cluster at a glance, made for a wall screen. */
import type { DashboardSpec, ValueMapping } from "../lib/panels.js";
import { API_KEYS_ROW } from "./account.js";
import {
  CLUSTER_DETAIL_LINK,
  CLUSTER_SCOPE,
  CLUSTER_STATUS_COLORS,
  clusterInfoWithStatus,
  clusterTableColumn,
  clusterVariables,
  LIMITS,
  PLANNED_OPERATIONS,
  steps,
  TAG,
  UID,
  upDown,
  withClusterName,
} from "./common.js";
import { PIPELINES_ROW } from "./pipelines.js";

const SEL = `cluster_id=~"$cluster", ${CLUSTER_SCOPE}`;
const INFO_SEL = 'cluster_id=~"$cluster"';
const LEGEND = "{{cluster_name}} ({{cluster_id}})";
const LEGEND_TYPE = "{{cluster_name}} {{request_type}}";
const PROJECT_SEL = 'project_id=~"$project"';

/** On-demand clusters of the selected projects with their current status as a label (value 1). */
const ON_DEMAND_INFO =
  `max by (cluster_id, cluster_name, project_id, region_id, status) (vdbcloud_on_demand_cluster_info{${PROJECT_SEL}}` +
  " * on (cluster_id) group_left (status) max by (cluster_id, status) (vdbcloud_on_demand_cluster_status == 1))";
/** One value per on-demand cluster with every descriptive label, so the table merges one row per cluster. */
const onDemandColumn = (family: string) =>
  `max by (cluster_id) (${family}) * on (cluster_id) group_left (cluster_name, project_id, region_id, status) ${ON_DEMAND_INFO}`;

/** The console's alert rules of the selected projects, described in labels (value 1). */
const RULE_INFO = `max by (project_id, rule_id, rule_name, metric_name, level, comparison) (vdbcloud_console_alert_rule_info{${PROJECT_SEL}})`;
/** One value per console rule with every descriptive label, so the table merges one row per rule. */
const ruleColumn = (family: string) =>
  `max by (project_id, rule_id) (${family}{${PROJECT_SEL}}) * on (project_id, rule_id) group_left (rule_name, metric_name, level, comparison) ${RULE_INFO}`;

/**
 * The private endpoints of the selected projects, one row each, with the current status of the
 * endpoint and of its endpoint service as labels (label_join copies `status` under a name of its
 * own); an endpoint whose answer carried no status has no row.
 */
const PRIVATE_ENDPOINT_ROWS =
  "max by (project_id, region_id, cloud_id, endpoint_id, endpoint_service, endpoint_status, service_status) (" +
  `vdbcloud_private_endpoint_info{${PROJECT_SEL}}` +
  ' * on (project_id, endpoint_id) group_left (endpoint_status) label_join(max by (project_id, endpoint_id, status) (vdbcloud_private_endpoint_status == 1), "endpoint_status", "", "status")' +
  ' * on (project_id, endpoint_id) group_left (service_status) label_join(max by (project_id, endpoint_id, status) (vdbcloud_private_endpoint_service_status == 1), "service_status", "", "status"))';
/** Private endpoints of the selected projects whose endpoint or endpoint service is not available. */
const PRIVATE_ENDPOINTS_DOWN =
  `count(max by (project_id, endpoint_id) (vdbcloud_private_endpoint_status{${PROJECT_SEL}, status!="available"} == 1` +
  ` or vdbcloud_private_endpoint_service_status{${PROJECT_SEL}, status!="available"} == 1)) or vector(0)`;
/** Private endpoint status colours: available green, anything else red (clients cannot connect). */
const PRIVATE_ENDPOINT_STATUS_COLORS: ValueMapping[] = [
  { value: "available", color: "green" },
  { value: ".*", color: "red", regex: true },
];

/** The on-demand compute of each project and region of the selected projects, its current status as a label (value 1). */
const ON_DEMAND_COMPUTE = `max by (project_id, region_id, status) (vdbcloud_on_demand_compute_status{${PROJECT_SEL}} == 1)`;
/** On-demand compute status colours: enabled green, enabling blue, disabled grey, anything else (abnormal) red. */
const ON_DEMAND_COMPUTE_COLORS: ValueMapping[] = [
  { value: "enabled", color: "green" },
  { value: "enabling", color: "blue" },
  { value: "disabled", color: "text" },
  { value: ".*", color: "red", regex: true },
];

/** On-demand cluster status colours: running green, transitions blue, suspended grey, anything else orange. */
const ON_DEMAND_STATUS_COLORS: ValueMapping[] = [
  { value: "running", color: "green" },
  { value: "suspended", color: "text" },
  { value: "creating|resuming|suspending", color: "blue", regex: true },
  { value: ".*", color: "orange", regex: true },
];

/** The overview dashboard (uid vdbcloud-overview). */
export const overview: DashboardSpec = {
  uid: UID.overview,
  title: "Vector DB Cloud / Overview",
  description:
    "Every cluster at a glance: status, CU load, storage, traffic, latency and failures; the inventory with on-demand clusters; the console's own alert rules; private endpoints; the account's API keys and pipelines.",
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
            "Selected clusters whose status is anything but running (stopped, abnormal, creating, ...), " +
            "planned operations (resizing, upgrading, migrating, ...) left out as the alerts leave them. " +
            "Red when at least one.",
          queries: [
            {
              expr: `count(vdbcloud_cluster_status{${INFO_SEL}, status!~"running|${PLANNED_OPERATIONS}"} == 1) or vector(0)`,
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
            { field: "deployment_option", displayName: "Deployment" },
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
          title: "On-demand clusters",
          description:
            "On-demand clusters of the selected projects (List On-Demand Clusters, per project and region): billed compute that List Clusters does not show. Status (a suspended cluster costs no compute), CU size and the idle time after which it suspends itself.",
          w: 24,
          queries: [
            { expr: ON_DEMAND_INFO },
            { expr: onDemandColumn("vdbcloud_on_demand_cluster_cu_size") },
            { expr: onDemandColumn("vdbcloud_on_demand_cluster_auto_suspend_seconds") },
          ],
          hide: ["Value #A"],
          columns: [
            { field: "cluster_id", displayName: "Cluster ID" },
            { field: "cluster_name", displayName: "Name" },
            { field: "project_id", displayName: "Project" },
            { field: "region_id", displayName: "Region" },
            { field: "status", displayName: "Status", colored: true, mappings: ON_DEMAND_STATUS_COLORS },
            { field: "Value #B", displayName: "CU size", unit: "none" },
            { field: "Value #C", displayName: "Auto-suspend after", unit: "dtdurations" },
          ],
        },
        {
          kind: "table",
          title: "On-demand compute",
          description:
            "Whether on-demand compute, what the on-demand clusters above run on, is on for each project and region of the selected projects (Describe On-Demand Compute): enabled, enabling, disabled, or abnormal, when those clusters may not start, resume or answer (VdbcloudOnDemandComputeAbnormal, warning, after 10 minutes).",
          w: 24,
          queries: [{ expr: ON_DEMAND_COMPUTE }],
          hide: ["Value"],
          columns: [
            { field: "project_id", displayName: "Project" },
            { field: "region_id", displayName: "Region" },
            { field: "status", displayName: "Status", colored: true, mappings: ON_DEMAND_COMPUTE_COLORS },
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
    {
      title: "Console alert rules",
      panels: [
        {
          kind: "stat",
          title: "Console alert rules",
          description:
            "Alert rules the service's console holds for the selected projects (List Alert Rules), beside these dashboards' Prometheus alerts.",
          queries: [{ expr: `count(vdbcloud_console_alert_rule_info{${PROJECT_SEL}}) or vector(0)` }],
          unit: "none",
          thresholds: steps(),
          colorMode: "value",
          w: 6,
        },
        {
          kind: "stat",
          title: "Disabled console rules",
          description:
            "Console alert rules that are disabled: each is a notification that will never come (VdbcloudConsoleAlertRuleDisabled, info).",
          queries: [{ expr: `count(vdbcloud_console_alert_rule_enabled{${PROJECT_SEL}} == 0) or vector(0)` }],
          unit: "none",
          thresholds: steps(["orange", 1]),
          colorMode: "background",
          w: 6,
        },
        {
          kind: "stat",
          title: "Keys not project admin",
          description:
            "Credentials the service refuses the console's alert rules or on-demand clusters for lack of the Project Admin role (vdbcloud_collector_not_permitted): those are not collected.",
          queries: [
            {
              expr: 'count(vdbcloud_collector_not_permitted{collector="alert_rules"} or vdbcloud_collector_not_permitted{collector="inventory", target="on_demand"}) or vector(0)',
            },
          ],
          unit: "none",
          thresholds: steps(["orange", 1]),
          colorMode: "background",
          w: 12,
        },
        {
          kind: "table",
          title: "Console alert rules",
          description:
            "One row per alert rule of the service's console (List Alert Rules): the metric it watches, its level and comparison, enabled or disabled, its threshold (in the metric's console unit), how long the condition must hold, and how many clusters it targets. Its actions (webhook URLs, recipients, keys) are never collected.",
          w: 24,
          h: 10,
          queries: [
            { expr: ruleColumn("vdbcloud_console_alert_rule_enabled") },
            { expr: ruleColumn("vdbcloud_console_alert_rule_threshold") },
            { expr: ruleColumn("vdbcloud_console_alert_rule_window_seconds") },
            { expr: ruleColumn("vdbcloud_console_alert_rule_clusters") },
          ],
          columns: [
            { field: "project_id", displayName: "Project" },
            { field: "rule_id", displayName: "Rule ID" },
            { field: "rule_name", displayName: "Name" },
            { field: "metric_name", displayName: "Metric" },
            { field: "level", displayName: "Level" },
            { field: "comparison", displayName: "Comparison" },
            {
              field: "Value #A",
              displayName: "Enabled",
              mappings: upDown("enabled", "disabled"),
              colored: true,
            },
            { field: "Value #B", displayName: "Threshold", unit: "none" },
            { field: "Value #C", displayName: "Window", unit: "dtdurations" },
            { field: "Value #D", displayName: "Clusters", unit: "none" },
          ],
        },
      ],
    },
    {
      title: "Private endpoints",
      panels: [
        {
          kind: "stat",
          title: "Private endpoints",
          description:
            "Private endpoints of the selected projects (List Private Endpoints): the PrivateLink endpoints through which clients in your VPCs reach the clusters.",
          queries: [{ expr: `count(vdbcloud_private_endpoint_info{${PROJECT_SEL}}) or vector(0)` }],
          unit: "none",
          thresholds: steps(),
          colorMode: "value",
          w: 6,
        },
        {
          kind: "stat",
          title: "Private endpoints not available",
          description:
            "Private endpoints whose own status or whose endpoint service's is not available: the clients in that VPC cannot reach the clusters, which still show running (VdbcloudPrivateEndpointNotAvailable, critical, after 5 minutes).",
          queries: [{ expr: PRIVATE_ENDPOINTS_DOWN }],
          unit: "none",
          thresholds: steps(["red", 1]),
          colorMode: "background",
          w: 6,
        },
        {
          kind: "stat",
          title: "Keys not permitted to list private endpoints",
          description:
            "Credentials the service refuses List Private Endpoints for lack of a role (vdbcloud_collector_not_permitted): their private endpoints are not collected.",
          queries: [
            { expr: 'count(vdbcloud_collector_not_permitted{collector="private_endpoints"}) or vector(0)' },
          ],
          unit: "none",
          thresholds: steps(["orange", 1]),
          colorMode: "background",
          w: 12,
        },
        {
          kind: "table",
          title: "Private endpoints",
          description:
            "One row per private endpoint of the selected projects (List Private Endpoints): its cloud and region, the endpoint service it connects to, and the current status of the endpoint and of the endpoint service (anything but available cuts the VPC's clients off).",
          w: 24,
          queries: [{ expr: PRIVATE_ENDPOINT_ROWS }],
          hide: ["Value"],
          columns: [
            { field: "project_id", displayName: "Project" },
            { field: "cloud_id", displayName: "Cloud" },
            { field: "region_id", displayName: "Region" },
            { field: "endpoint_id", displayName: "Endpoint ID" },
            { field: "endpoint_service", displayName: "Endpoint service" },
            {
              field: "endpoint_status",
              displayName: "Endpoint status",
              colored: true,
              mappings: PRIVATE_ENDPOINT_STATUS_COLORS,
            },
            {
              field: "service_status",
              displayName: "Service status",
              colored: true,
              mappings: PRIVATE_ENDPOINT_STATUS_COLORS,
            },
          ],
        },
      ],
    },
    API_KEYS_ROW,
    PIPELINES_ROW,
  ],
};
