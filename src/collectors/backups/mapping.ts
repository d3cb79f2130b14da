/** Pure mapping of List Backups and Get Backup Policy answers to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { FamilyDef, MappingResult } from "../../metrics/sample.js";
import type { Backup, BackupPolicy } from "../../upstream/types.js";
import { BACKUP_FAMILY as D } from "./families.js";
import { DAY_SECONDS, maxGapSeconds } from "./policyDays.js";

/** The families `mapBackups` writes. */
export const BACKUP_FAMILIES: readonly FamilyDef[] = [
  D.backups,
  D.backupSize,
  D.backupLastSuccess,
  D.backupCreatingSince,
];

/** The families `mapPolicy` writes. */
export const BACKUP_POLICY_FAMILIES: readonly FamilyDef[] = [
  D.policyEnabled,
  D.policyRetention,
  D.policyCrossRegionCopies,
  D.policyMaxGap,
];

/** The creation methods and statuses every cluster has a count for (0 when none). */
const METHODS = ["auto", "manual"] as const;
const STATUSES = ["available", "creating"] as const;

const lower = (s: string): string => s.trim().toLowerCase();

/**
 * Maps the listed backups to the families of `clusterIds` (the clusters this replica polls and
 * knows as dedicated; backups of any other cluster are left out):
 * vdbcloud_backups{cluster_id,creation_method,status} for auto/manual x available/creating (0
 * when none; another method or status the upstream sends is added lowercased),
 * vdbcloud_backup_size_bytes (sum over available backups with a readable size),
 * vdbcloud_backup_last_success_timestamp_seconds{cluster_id,creation_method,backup_type} (the
 * newest available backup's createTime; absent when there is none) and
 * vdbcloud_backup_creating_since_timestamp_seconds (the oldest creating backup's createTime;
 * absent when none is creating). `backups` holds each backup once: the pager keeps a backup
 * listed twice (paging while backups change) once, and listing.ts keeps each per-cluster
 * listing to its own cluster, so no two listings hold the same backup.
 */
export function mapBackups(
  backups: readonly Backup[] | BackupsByCluster,
  clusterIds: readonly string[],
): MappingResult {
  const out = new MappingBuilder();
  // A listing already grouped (the task groups it once, in slices) is not grouped again.
  const byCluster = backups instanceof BackupsByCluster ? backups : BackupsByCluster.from(backups);
  // A cluster ID given twice writes the same series again, which the builder drops.
  for (const clusterId of clusterIds) {
    const list = byCluster.of(clusterId);
    const counts = new Map<string, number>();
    for (const m of METHODS) for (const s of STATUSES) counts.set(`${m}\u0000${s}`, 0);
    let size = 0;
    const newest = new Map<string, { method: string; type: string; ms: number }>();
    let creatingSince: number | null = null;
    for (const b of list) {
      const method = lower(b.creationMethod);
      const status = lower(b.status);
      const k = `${method}\u0000${status}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
      if (status === "available") {
        if (b.sizeBytes !== null && Number.isFinite(b.sizeBytes)) size += b.sizeBytes;
        if (b.createTimeMs !== null) {
          const type = lower(b.backupType);
          const key = `${method}\u0000${type}`;
          const prev = newest.get(key);
          if (!prev || b.createTimeMs > prev.ms) newest.set(key, { method, type, ms: b.createTimeMs });
        }
      } else if (status === "creating" && b.createTimeMs !== null) {
        creatingSince = creatingSince === null ? b.createTimeMs : Math.min(creatingSince, b.createTimeMs);
      }
    }
    const id = { cluster_id: clusterId };
    for (const [k, n] of counts) {
      const [method, status] = k.split("\u0000") as [string, string];
      out.add(D.backups, { ...id, creation_method: method, status }, n);
    }
    out.add(D.backupSize, id, size);
    for (const n of newest.values()) {
      out.add(D.backupLastSuccess, { ...id, creation_method: n.method, backup_type: n.type }, n.ms / 1000);
    }
    if (creatingSince !== null) out.add(D.backupCreatingSince, id, creatingSince / 1000);
  }
  return out.result();
}

/**
 * The listed backups by cluster ID, in listed order (the listing holds each backup once: see
 * `mapBackups`). Fed in slices, so that a caller can serve the event loop between them
 * (grouping a large listing at once holds the loop: docs/performance.md).
 */
export class BackupsByCluster {
  private readonly byCluster = new Map<string, Backup[]>();

  /** All of `backups`, at once. */
  static from(backups: readonly Backup[]): BackupsByCluster {
    const grouped = new BackupsByCluster();
    grouped.add(backups);
    return grouped;
  }

  /** Adds backups[from, to). */
  add(backups: readonly Backup[], from = 0, to = backups.length): void {
    for (let i = from; i < Math.min(to, backups.length); i++) {
      const b = backups[i] as Backup;
      const list = this.byCluster.get(b.clusterId);
      if (list === undefined) this.byCluster.set(b.clusterId, [b]);
      else list.push(b);
    }
  }

  /** The backups of one cluster (none: empty). */
  of(clusterId: string): readonly Backup[] {
    return this.byCluster.get(clusterId) ?? [];
  }
}

/**
 * Maps a backup policy: vdbcloud_backup_policy_enabled (1 ENABLED, 0 DISABLED; no sample for
 * another status), _retention_seconds (retentionDays x 86400, when readable),
 * _cross_region_copies, and _max_gap_seconds from the weekdays (only while enabled: a disabled
 * policy schedules nothing).
 */
export function mapPolicy(clusterId: string, policy: BackupPolicy): MappingResult {
  const out = new MappingBuilder();
  const id = { cluster_id: clusterId };
  const status = lower(policy.status);
  const enabled = status === "enabled" ? true : status === "disabled" ? false : null;
  if (enabled !== null) out.add(D.policyEnabled, id, enabled ? 1 : 0);
  if (policy.retentionDays !== null && Number.isFinite(policy.retentionDays)) {
    out.add(D.policyRetention, id, policy.retentionDays * DAY_SECONDS);
  }
  out.add(D.policyCrossRegionCopies, id, policy.crossRegionCopies);
  const gap = enabled === true && policy.frequency !== null ? maxGapSeconds(policy.frequency) : null;
  if (gap !== null) out.add(D.policyMaxGap, id, gap);
  return out.result();
}
