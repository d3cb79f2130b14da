/**
 * Data protection: each dedicated cluster's newest backup against its own policy's longest gap,
 * the policy table, backup storage, backups stuck creating, credentials without backup
 * permission, the replication lag of every global cluster's secondaries, and the storage
 * integrations backups are exported through.
 */
import type { DashboardSpec, StatSpec, ValueMapping } from "../lib/panels.js";
import { DATASOURCE_VARIABLE, LIMITS, steps, TAG, UID, upDown } from "./common.js";

const SEL = 'cluster_id=~"$cluster"';
/** VdbcloudBackupOverdue's margin past the policy's longest gap (thresholds.yml default, 6 h). */
const MARGIN_SECONDS = 21_600;
/** VdbcloudReplicationLagHigh's threshold (thresholds.yml default, 60 s). */
const LAG_LIMIT_SECONDS = 60;

/** Age of each cluster's newest automatic backup, in seconds. */
const AUTO_AGE = `min by (cluster_id) (time() - vdbcloud_backup_last_success_timestamp_seconds{${SEL}, creation_method="auto"})`;
/** The age the alert allows: the policy's longest gap plus the margin (enabled policies only). */
const ALLOWED = `max by (cluster_id) (vdbcloud_backup_policy_max_gap_seconds{${SEL}}) + ${MARGIN_SECONDS}`;

/** Storage integration status colours: active green, error red, anything else orange. */
const INTEGRATION_STATUS_COLORS: ValueMapping[] = [
  { value: "active", color: "green" },
  { value: "error", color: "red" },
  { value: ".*", color: "orange", regex: true },
];

/**
 * Every storage integration, one row each, its current status as a label; one whose answer
 * carried no status has no row.
 */
const INTEGRATION_ROWS =
  "max by (project_id, integration_id, name, region_id, bucket_name, status) (vdbcloud_storage_integration_info" +
  " * on (project_id, integration_id) group_left (status) max by (project_id, integration_id, status) (vdbcloud_storage_integration_status == 1))";

function countStat(title: string, description: string, expr: string): StatSpec {
  return {
    kind: "stat",
    title,
    description,
    queries: [{ expr: `${expr} or vector(0)` }],
    unit: "none",
    thresholds: LIMITS.anyIsBad,
    colorMode: "background",
    w: 6,
  };
}

/** The data-protection dashboard (uid vdbcloud-data-protection). */
export const dataProtection: DashboardSpec = {
  uid: UID.dataProtection,
  title: "Vector DB Cloud / Data protection",
  description:
    "Backups (List Backups) against each cluster's backup policy (Get Backup Policy), global-cluster replication lag, and the storage integrations backups are exported through (List Storage Integrations).",
  tags: [TAG],
  variables: [
    DATASOURCE_VARIABLE,
    {
      kind: "query",
      name: "cluster",
      label: "Cluster",
      query: "label_values(vdbcloud_backups, cluster_id)",
      multi: true,
      includeAll: true,
      allValue: ".*",
    },
  ],
  annotations: [
    {
      name: "Data protection alerts",
      expr: 'ALERTS{alertname=~"VdbcloudBackup.+|VdbcloudReplicationLagHigh|VdbcloudStorageIntegrationError", alertstate="firing"}',
      titleFormat: "{{alertname}}",
      textFormat: "{{cluster_id}}{{secondary_cluster_id}}{{integration_id}}",
      iconColor: "red",
    },
  ],
  rows: [
    {
      title: "Backups",
      panels: [
        countStat(
          "Clusters overdue",
          `Dedicated clusters whose newest automatic backup is older than their policy's longest gap plus ${MARGIN_SECONDS / 3600} h (VdbcloudBackupOverdue).`,
          `count(${AUTO_AGE} - on (cluster_id) max by (cluster_id) (vdbcloud_backup_policy_max_gap_seconds{${SEL}}) > ${MARGIN_SECONDS})`,
        ),
        countStat(
          "Backups creating for over 6 h",
          "Clusters whose oldest backup still CREATING started more than 6 hours ago (VdbcloudBackupStuckCreating).",
          `count(time() - vdbcloud_backup_creating_since_timestamp_seconds{${SEL}} > 21600)`,
        ),
        countStat(
          "Policies disabled",
          "Dedicated clusters whose automatic backup policy is DISABLED (VdbcloudBackupPolicyDisabled).",
          `count(vdbcloud_backup_policy_enabled{${SEL}} == 0)`,
        ),
        countStat(
          "Keys without backup permission",
          "Credentials the service refuses backup permission (vdbcloud_collector_not_permitted): their clusters' backups and policies are not collected.",
          'count(count by (credential) (vdbcloud_collector_not_permitted{collector="backups"}))',
        ),
        {
          kind: "timeseries",
          title: "Newest automatic backup age against the policy's gap",
          description: `Per cluster: the age of the newest automatic backup, and the age the overdue alert allows (the policy's longest gap between scheduled backups plus ${MARGIN_SECONDS / 3600} h). A line above its allowance is overdue.`,
          queries: [
            { expr: AUTO_AGE, legend: "{{cluster_id}} age" },
            { expr: ALLOWED, legend: "{{cluster_id}} allowed" },
          ],
          unit: "dtdurations",
          min: 0,
          w: 24,
        },
        {
          kind: "table",
          title: "Backup policies",
          description:
            "Per dedicated cluster: policy on or off, retention, longest gap between scheduled backups, cross-region copies, and the age of the newest automatic and manual backups.",
          queries: [
            {
              expr: `max by (cluster_id) (vdbcloud_backup_policy_enabled{${SEL}})`,
              instant: true,
              format: "table",
            },
            {
              expr: `max by (cluster_id) (vdbcloud_backup_policy_retention_seconds{${SEL}})`,
              instant: true,
              format: "table",
            },
            {
              expr: `max by (cluster_id) (vdbcloud_backup_policy_max_gap_seconds{${SEL}})`,
              instant: true,
              format: "table",
            },
            {
              expr: `max by (cluster_id) (vdbcloud_backup_policy_cross_region_copies{${SEL}})`,
              instant: true,
              format: "table",
            },
            { expr: AUTO_AGE, instant: true, format: "table" },
            {
              expr: `min by (cluster_id) (time() - vdbcloud_backup_last_success_timestamp_seconds{${SEL}, creation_method="manual"})`,
              instant: true,
              format: "table",
            },
          ],
          hide: ["Time"],
          columns: [
            {
              field: "Value #A",
              displayName: "Policy",
              mappings: upDown("enabled", "disabled"),
              colored: true,
            },
            { field: "Value #B", displayName: "Retention", unit: "dtdurations" },
            { field: "Value #C", displayName: "Longest gap", unit: "dtdurations" },
            { field: "Value #D", displayName: "Cross-region copies", unit: "none" },
            { field: "Value #E", displayName: "Newest auto backup age", unit: "dtdurations" },
            { field: "Value #F", displayName: "Newest manual backup age", unit: "dtdurations" },
          ],
          h: 9,
        },
        {
          kind: "timeseries",
          title: "Backup storage",
          description: "Sum of the sizes of each cluster's available backups.",
          queries: [
            { expr: `sum by (cluster_id) (vdbcloud_backup_size_bytes{${SEL}})`, legend: "{{cluster_id}}" },
          ],
          unit: "bytes",
          min: 0,
          stack: true,
        },
        {
          kind: "timeseries",
          title: "Backups by method and status",
          description:
            "Listed backups by creation method (auto, manual) and status (available, creating), all selected clusters.",
          queries: [
            {
              expr: `sum by (creation_method, status) (vdbcloud_backups{${SEL}})`,
              legend: "{{creation_method}} {{status}}",
            },
          ],
          unit: "none",
          min: 0,
        },
        {
          kind: "timeseries",
          title: "Oldest backup still creating",
          description:
            "How long each cluster's oldest backup in CREATING has been at it; 6 h raises VdbcloudBackupStuckCreating.",
          queries: [
            {
              expr: `time() - vdbcloud_backup_creating_since_timestamp_seconds{${SEL}}`,
              legend: "{{cluster_id}}",
            },
          ],
          unit: "dtdurations",
          min: 0,
          thresholds: steps(["red", 21_600]),
          thresholdStyle: "line",
        },
        {
          kind: "table",
          title: "Targets not permitted",
          description:
            "Backup targets whose credential lacks backup permission (a project admin, the organization owner or a role with backup permission is needed).",
          queries: [
            { expr: 'vdbcloud_collector_not_permitted{collector="backups"}', instant: true, format: "table" },
          ],
          hide: ["Time", "Value", "__name__"],
          unit: "none",
        },
      ],
    },
    {
      title: "Global clusters",
      panels: [
        {
          kind: "timeseries",
          title: "Replication lag per secondary",
          description: `How far each secondary cluster lags its global cluster's primary; above ${LAG_LIMIT_SECONDS} s for 10 minutes raises VdbcloudReplicationLagHigh.`,
          queries: [
            {
              expr: "vdbcloud_global_cluster_replication_lag_seconds",
              legend: "{{global_cluster_id}} {{secondary_cluster_id}} ({{secondary_region_id}})",
            },
          ],
          unit: "s",
          min: 0,
          thresholds: steps(["red", LAG_LIMIT_SECONDS]),
          thresholdStyle: "line",
          w: 16,
        },
        {
          kind: "table",
          title: "Global clusters",
          description: "Every global cluster of the organisation (List Global Clusters).",
          queries: [{ expr: "vdbcloud_global_cluster_info", instant: true, format: "table" }],
          hide: ["Time", "Value", "__name__"],
          unit: "none",
          w: 8,
        },
        {
          kind: "timeseries",
          title: "Primary per global cluster",
          description:
            "Which member is each global cluster's primary (Describe Cluster globalClusterMeta.role): a step " +
            "from one member to another is a failover or switchover (VdbcloudGlobalClusterFailover).",
          queries: [
            {
              expr: 'max by (global_cluster_id, cluster_id) (vdbcloud_cluster_global_role{role="primary"})',
              legend: "{{global_cluster_id}} {{cluster_id}}",
            },
          ],
          unit: "none",
          min: 0,
          max: 1,
          w: 24,
        },
      ],
    },
    {
      title: "Storage integrations",
      panels: [
        countStat(
          "Storage integrations in error",
          "Storage integrations the service reports in ERROR (VdbcloudStorageIntegrationError): the next backup export or audit-log forward through each fails. Why is in the exporter's log.",
          'count(vdbcloud_storage_integration_status{status="error"} == 1)',
        ),
        countStat(
          "Keys that may not list integrations",
          "Credentials the service refuses List Storage Integrations (vdbcloud_collector_not_permitted): those projects' integrations are not watched.",
          'count(vdbcloud_collector_not_permitted{collector="storage_integrations"})',
        ),
        {
          kind: "stat",
          title: "Storage integrations",
          description: "Storage integrations of every known project (List Storage Integrations).",
          queries: [{ expr: "count(vdbcloud_storage_integration_info) or vector(0)" }],
          unit: "none",
          thresholds: steps(),
          colorMode: "value",
          w: 12,
        },
        {
          kind: "table",
          title: "Storage integrations",
          description:
            "One row per storage integration (List Storage Integrations): its project, name, bucket and region, and its status (ERROR fails the next backup export or audit-log forward). The service's message about it is logged once per change, never shown here; its credentials are never read.",
          queries: [{ expr: INTEGRATION_ROWS, instant: true, format: "table" }],
          hide: ["Time", "Value", "__name__"],
          columns: [
            { field: "project_id", displayName: "Project" },
            { field: "integration_id", displayName: "Integration ID" },
            { field: "name", displayName: "Name" },
            { field: "bucket_name", displayName: "Bucket" },
            { field: "region_id", displayName: "Region" },
            { field: "status", displayName: "Status", colored: true, mappings: INTEGRATION_STATUS_COLORS },
          ],
          unit: "none",
          w: 24,
        },
      ],
    },
  ],
};
