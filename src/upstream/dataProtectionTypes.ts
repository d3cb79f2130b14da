/**
 * Normalized results of the data-protection endpoints (List Backups, Get Backup Policy, List
 * Global Clusters, Get Global Cluster Replication Lag), re-exported by types.ts. Like every
 * shape there, they know nothing of the wire's variants or of Prometheus.
 */
import type { PageInfo } from "./pageTypes.js";

/**
 * One backup of List Backups (v2). Only AVAILABLE and CREATING backups are listed upstream (a
 * failed backup never appears). Strings are the raw upstream values; `sizeBytes` and
 * `createTimeMs` are null when absent or unreadable.
 */
export interface Backup {
  readonly backupId: string;
  readonly clusterId: string;
  readonly projectId: string | null;
  /** CLUSTER or COLLECTION, as sent. */
  readonly backupType: string;
  /** AUTO or MANUAL, as sent. */
  readonly creationMethod: string;
  /** AVAILABLE or CREATING, as sent. */
  readonly status: string;
  readonly sizeBytes: number | null;
  readonly createTimeMs: number | null;
}

/** One page of List Backups. `total` is the documented `count`, null when the answer left it out. */
export interface BackupPage extends PageInfo {
  readonly backups: readonly Backup[];
}

/** Get Backup Policy (v2). `frequency` is the raw weekday list ("1,3,5"; 1 = Monday). */
export interface BackupPolicy {
  readonly clusterId: string;
  /** ENABLED or DISABLED, as sent. */
  readonly status: string;
  readonly frequency: string | null;
  /** The UTC window, e.g. "02:00-04:00". */
  readonly startTime: string | null;
  readonly retentionDays: number | null;
  /** Regions the backups are copied to (crossRegionCopies). */
  readonly crossRegionCopies: number;
}

/** One item of List Global Clusters (v2). */
export interface GlobalCluster {
  readonly globalClusterId: string;
  readonly globalClusterName: string | null;
  readonly projectId: string | null;
}

/** One page of List Global Clusters. */
export interface GlobalClusterPage extends PageInfo {
  readonly globalClusters: readonly GlobalCluster[];
}

/** Get Global Cluster Replication Lag (v2): one lag per secondary; `lagMs` null when unreadable. */
export interface ReplicationLag {
  readonly globalClusterId: string;
  readonly primaryClusterId: string | null;
  readonly lags: ReadonlyArray<{
    readonly secondaryClusterId: string;
    readonly secondaryRegionId: string | null;
    readonly lagMs: number | null;
  }>;
}
