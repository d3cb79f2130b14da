/** The backups collectors' families (docs/metrics.md): List Backups and Get Backup Policy per cluster. */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** Backups and backup policies per cluster. */
export const BACKUP_FAMILY = {
  backupLastSuccess: gauge("vdbcloud_backup_last_success_timestamp_seconds", {
    help: "createTime of the cluster's newest AVAILABLE backup by creation method (auto, manual) and backup type (cluster, collection), Unix time in seconds (upstream List Backups createTime).",
    labels: ["cluster_id", "creation_method", "backup_type"],
    source: `${ENDPOINT.listBackups} createTime (status AVAILABLE)`,
    absent:
      "no available backup of that method and type is listed for the cluster; free and serverless clusters have none",
  }),
  backups: gauge("vdbcloud_backups", {
    help: "Backups listed for the cluster by creation method and status (available, creating), a count; a failed backup is never listed (upstream List Backups status).",
    labels: ["cluster_id", "creation_method", "status"],
    unit: "count",
    source: `${ENDPOINT.listBackups} status, creationMethod`,
    absent: "the cluster is not polled here, or is free or serverless; 0 while it has no backup",
  }),
  backupSize: gauge("vdbcloud_backup_size_bytes", {
    help: "Sum of the sizes of the cluster's available backups, in bytes (upstream List Backups size).",
    labels: ["cluster_id"],
    source: `${ENDPOINT.listBackups} size (status AVAILABLE)`,
    absent: "the cluster is not polled here, or is free or serverless; 0 while it has no available backup",
  }),
  backupCreatingSince: gauge("vdbcloud_backup_creating_since_timestamp_seconds", {
    help: "createTime of the cluster's oldest backup still CREATING, Unix time in seconds (upstream List Backups createTime, status CREATING).",
    labels: ["cluster_id"],
    source: `${ENDPOINT.listBackups} createTime (status CREATING)`,
    absent: "no backup of the cluster is being created",
  }),
  policyEnabled: gauge("vdbcloud_backup_policy_enabled", {
    help: "1 when the cluster's automatic backup policy is ENABLED, 0 when DISABLED (upstream Get Backup Policy status).",
    labels: ["cluster_id"],
    unit: "1/0",
    source: `${ENDPOINT.getBackupPolicy} status`,
    absent: "free and serverless clusters (no policy), or a status other than ENABLED and DISABLED",
  }),
  policyRetention: gauge("vdbcloud_backup_policy_retention_seconds", {
    help: "How long the policy keeps automatic backups, in seconds (retentionDays x 86400); 0 when disabled (upstream Get Backup Policy retentionDays).",
    labels: ["cluster_id"],
    source: `${ENDPOINT.getBackupPolicy} retentionDays x 86400`,
    absent: "free and serverless clusters, or an unreadable retentionDays",
  }),
  policyCrossRegionCopies: gauge("vdbcloud_backup_policy_cross_region_copies", {
    help: "Regions the policy copies each automatic backup to, a count (upstream Get Backup Policy crossRegionCopies).",
    labels: ["cluster_id"],
    unit: "count",
    source: `${ENDPOINT.getBackupPolicy} crossRegionCopies`,
    absent: "free and serverless clusters",
  }),
  policyMaxGap: gauge("vdbcloud_backup_policy_max_gap_seconds", {
    help: 'Longest time between two scheduled backups by the policy\'s weekdays, in seconds ("1,3,5" is 3 days, Friday to Monday; every day is 1 day) (upstream Get Backup Policy frequency).',
    labels: ["cluster_id"],
    source: `${ENDPOINT.getBackupPolicy} frequency`,
    absent: "the policy is disabled, or its frequency names no weekday 1..7",
  }),
} as const;
