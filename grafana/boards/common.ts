/**
 * Pieces shared by the dashboards: thresholds that match the alert rules, the joins that put
 * descriptive labels from `vdbcloud_cluster_info` onto cluster series, and common variables.
 */
import { PLANNED_OPERATION_STATUSES } from "../../src/collectors/inventory/mapping.js";
import type { LinkSpec, ThresholdStep, ValueMapping, VariableSpec } from "../lib/panels.js";

/** Tag on every dashboard: the dashboards' link menu lists dashboards by it. */
export const TAG = "vdbcloud";

/** Stable dashboard uids (cross-links and users' bookmarks use them). */
export const UID = {
  overview: "vdbcloud-overview",
  cluster: "vdbcloud-cluster",
  jobs: "vdbcloud-jobs",
  exporter: "vdbcloud-exporter",
  collections: "vdbcloud-collections",
  dataProtection: "vdbcloud-data-protection",
  cost: "vdbcloud-cost",
  slo: "vdbcloud-slo",
} as const;

/** Cluster-level series only: scoped series carry collection_name and would count twice. */
export const CLUSTER_SCOPE = 'collection_name=""';

/** Labels of `vdbcloud_cluster_info` put onto joined series. */
const INFO_LABELS = "cluster_name, project_id, region_id, plan, cu_type, deployment_option";

/**
 * The statuses of a planned operation as one regex alternation (the alerts' list): such a
 * cluster is working, not broken, so panels count it apart from the ones not running.
 */
export const PLANNED_OPERATIONS = PLANNED_OPERATION_STATUSES.join("|");

/**
 * `expr` with `cluster_name` added from the info series. `max by` collapses duplicates when
 * two exporters (HA pair) expose the same cluster.
 */
export function withClusterName(expr: string): string {
  return `${expr} * on (cluster_id) group_left (cluster_name) max by (cluster_id, cluster_name) (vdbcloud_cluster_info)`;
}

/** The info series of the selected clusters with the current status as a label (value 1). */
export function clusterInfoWithStatus(selector: string): string {
  return (
    `max by (cluster_id, ${INFO_LABELS}, status) (vdbcloud_cluster_info{${selector}}` +
    ` * on (cluster_id) group_left (status) max by (cluster_id, status) (vdbcloud_cluster_status == 1))`
  );
}

/**
 * One per-cluster value with every descriptive label, so several such queries merge into one
 * table row per cluster (Grafana's merge joins rows on identical label columns).
 */
export function clusterTableColumn(valueExpr: string, selector: string): string {
  return (
    `max by (cluster_id) (${valueExpr})` +
    ` * on (cluster_id) group_left (${INFO_LABELS}, status) ${clusterInfoWithStatus(selector)}`
  );
}

/** Threshold steps from a list of [color, from] pairs after a green base. */
export function steps(...levels: ReadonlyArray<readonly [string, number]>): ThresholdStep[] {
  return [{ color: "green", value: null }, ...levels.map(([color, value]) => ({ color, value }))];
}

/**
 * The alert thresholds, so graphs draw the line the pager uses (config/prometheus/thresholds.yml
 * defaults: the service's own warning at 70% and critical at 90%).
 */
export const LIMITS = {
  cuComputation: steps(["orange", 0.7], ["red", 0.9]),
  cuCapacity: steps(["orange", 0.7], ["red", 0.9]),
  writeCapacity: steps(["orange", 0.8], ["red", 0.95]),
  p99Latency: steps(["orange", 0.5], ["red", 1]),
  failureRatio: steps(["orange", 0.01], ["red", 0.05]),
  dataAge: steps(["orange", 180], ["red", 300]),
  anyIsBad: steps(["red", 1]),
} as const;

/**
 * Cluster status colours: running green, abnormal red, transitions and planned operations blue,
 * anything else orange.
 */
export const CLUSTER_STATUS_COLORS: ValueMapping[] = [
  { value: "running", color: "green" },
  { value: "abnormal", color: "red" },
  { value: `creating|resuming|stopping|unfreezed|${PLANNED_OPERATIONS}`, color: "blue", regex: true },
  { value: ".*", color: "orange", regex: true },
];

/** 1 = good, 0 = bad, for up/success style gauges. */
export function upDown(up: string, down: string): ValueMapping[] {
  return [
    { value: "1", text: up, color: "green" },
    { value: "0", text: down, color: "red" },
  ];
}

/** The `datasource` variable (type prometheus) every dashboard starts with. */
export const DATASOURCE_VARIABLE: VariableSpec = { kind: "datasource" };

/** project -> region -> cluster, all from `vdbcloud_cluster_info`. */
export function clusterVariables(multiCluster: boolean): VariableSpec[] {
  return [
    DATASOURCE_VARIABLE,
    {
      kind: "query",
      name: "project",
      label: "Project",
      query: "label_values(vdbcloud_cluster_info, project_id)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
    {
      kind: "query",
      name: "region",
      label: "Region",
      query: 'label_values(vdbcloud_cluster_info{project_id=~"$project"}, region_id)',
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
    {
      kind: "query",
      name: "cluster",
      label: "Cluster",
      query: 'label_values(vdbcloud_cluster_info{project_id=~"$project", region_id=~"$region"}, cluster_id)',
      multi: multiCluster,
      includeAll: multiCluster,
      // No allValue: "All" then lists the clusters of the chosen projects/regions instead of ".*".
    },
  ];
}

/** Data link from a series carrying cluster_id to the cluster detail dashboard. */
export const CLUSTER_DETAIL_LINK: LinkSpec = {
  title: "Cluster detail",
  url: `/d/${UID.cluster}/?var-datasource=\${datasource}&var-cluster=\${__field.labels.cluster_id}&\${__url_time_range}`,
};
