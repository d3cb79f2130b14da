/**
 * Backups, backup policies and global clusters (the routes are in data-protection-routes.ts), with
 * the documented shapes: List Backups (GET
 * /v2/backups, paged, organisation-wide or per cluster, only AVAILABLE and CREATING), Get Backup
 * Policy (GET /v2/clusters/{id}/backups/policy), List Global Clusters (GET /v2/globalClusters)
 * and Get Global Cluster Replication Lag (GET /v2/globalClusters/{id}/replicationLag), whose
 * reference samples carry no envelope (the `globalClustersEnvelope` quirk adds one).
 *
 * Everything follows from the world and the start time, by the position of each dedicated
 * cluster (d = 0, 1, ...): its policy is the pattern d % 4 (every day, retention 30; "1,3,5",
 * retention 14, one cross-region copy; "1,2,3,5", retention 30, two copies; disabled), its auto
 * backups are taken at 02:00 UTC plus d x 7 minutes on each scheduled weekday within the
 * retention, except that dedicated cluster 0 took none in the last 3 days (overdue), dedicated
 * cluster 1 has one backup CREATING since 8 hours before the start (it stays so), and even
 * clusters have 12 weekly manual backups (odd ones one). With the demo's six clusters that is
 * more than one page of 100. Free and serverless clusters are refused as not dedicated, and a
 * key of `backupDeniedKeys` is refused for lack of backup permission (HTTP 403).
 */

import { DAY_MS, HOUR_MS, MINUTE_MS } from "./time.js";
import type { SimCluster } from "./world.js";

/**
 * The refusal of a backup operation on a free or a serverless cluster: the reference's error
 * catalogue (error-codes-v2), 96021 and 96022, word for word.
 */
export const FREE_CLUSTER_CODE = 96021;
export const FREE_CLUSTER_MESSAGE = "Free cluster does not support this operation.";
export const SERVERLESS_CLUSTER_CODE = 96022;
export const SERVERLESS_CLUSTER_MESSAGE = "Serverless cluster does not support this operation.";
/**
 * The refusal of a backup operation to a key without backup permission: the catalogue's 96027
 * (the key's project scope), in a success status, as the catalogue's answers are documented.
 */
export const BACKUP_PERMISSION_CODE = 96027;
export const BACKUP_PERMISSION_MESSAGE = "Please check your Apikey scope.";

/** Dedicated cluster 0 took no automatic backup in this many recent days. */
export const OVERDUE_DAYS = 3;
/** How long before the start the stuck backup began creating. */
export const STUCK_CREATING_MS = 8 * HOUR_MS;

/** One simulated backup, as List Backups lists it (createTime as epoch ms here). */
export interface SimBackup {
  readonly backupId: string;
  readonly backupName: string;
  readonly clusterId: string;
  readonly clusterName: string;
  readonly projectId: string;
  readonly backupType: "CLUSTER" | "COLLECTION";
  readonly creationMethod: "AUTO" | "MANUAL";
  readonly status: "AVAILABLE" | "CREATING";
  readonly size: number;
  readonly createTimeMs: number;
  readonly expireTimeMs: number | null;
}

/** A policy as Get Backup Policy answers it. */
interface SimBackupPolicy {
  readonly clusterId: string;
  readonly status: "ENABLED" | "DISABLED";
  readonly startTime: string;
  readonly frequency: string;
  readonly retentionDays: number;
  readonly crossRegionCopies: ReadonlyArray<{ readonly regionId: string; readonly retentionDays: number }>;
}

/** One secondary of a global cluster, with how its lag moves. */
interface SimSecondary {
  readonly clusterId: string;
  readonly regionId: string;
  /** The lag swings between minMs and maxMs over periodMs (a sine, from the start time). */
  readonly minMs: number;
  readonly maxMs: number;
  readonly periodMs: number;
}

/** A simulated global cluster. */
interface SimGlobalCluster {
  readonly globalClusterId: string;
  readonly globalClusterName: string;
  readonly projectId: string;
  readonly primary: SimCluster;
  readonly secondaries: readonly SimSecondary[];
}

const POLICY_PATTERNS = [
  { status: "ENABLED", frequency: "1,2,3,4,5,6,7", retentionDays: 30, copies: 0 },
  { status: "ENABLED", frequency: "1,3,5", retentionDays: 14, copies: 1 },
  { status: "ENABLED", frequency: "1,2,3,5", retentionDays: 30, copies: 2 },
  { status: "DISABLED", frequency: "", retentionDays: 0, copies: 0 },
] as const;

const COPY_REGIONS = ["aws-eu-central-1", "gcp-us-west1"];

/** Whether the cluster can have backups (not free, not serverless). */
export function isDedicated(c: SimCluster): boolean {
  return c.plan !== "Free" && c.plan !== "Serverless" && !c.id.startsWith("in03-");
}

/** Weekday of a UTC day number, 1 = Monday .. 7 = Sunday. */
function weekday(day: number): number {
  return ((new Date(day * DAY_MS).getUTCDay() + 6) % 7) + 1;
}

/** The backups, policies and global clusters of one world. */
export class DataProtection {
  readonly dedicated: readonly SimCluster[];
  readonly policies: ReadonlyMap<string, SimBackupPolicy>;
  readonly globalClusters: readonly SimGlobalCluster[];
  readonly #fixed: readonly SimBackup[];

  /** `globalClusters`: how many global clusters at least (more than the world makes: listings longer than a page). */
  constructor(
    clusters: readonly SimCluster[],
    readonly startMs: number,
    globalClusters = 0,
  ) {
    this.dedicated = clusters.filter(isDedicated);
    const policies = new Map<string, SimBackupPolicy>();
    const fixed: SimBackup[] = [];
    this.dedicated.forEach((c, d) => {
      const p = POLICY_PATTERNS[d % POLICY_PATTERNS.length] ?? POLICY_PATTERNS[0];
      policies.set(c.id, {
        clusterId: c.id,
        status: p.status,
        startTime: "02:00-04:00",
        frequency: p.frequency,
        retentionDays: p.retentionDays,
        crossRegionCopies: COPY_REGIONS.slice(0, p.copies).map((regionId) => ({
          regionId,
          retentionDays: 7,
        })),
      });
      const manual = d % 2 === 0 ? 12 : 1;
      for (let k = 0; k < manual; k++) {
        fixed.push(
          this.backup(c, {
            id: `m${k + 1}`,
            type: k % 2 === 0 ? "CLUSTER" : "COLLECTION",
            method: "MANUAL",
            status: "AVAILABLE",
            size: 500_000_000 * (k + 1) + d,
            createTimeMs: startMs - (2 + 7 * k) * DAY_MS - d * HOUR_MS,
            expireTimeMs: null,
          }),
        );
      }
      if (d === 1) {
        fixed.push(
          this.backup(c, {
            id: "stuck",
            type: "CLUSTER",
            method: "AUTO",
            status: "CREATING",
            size: 0,
            createTimeMs: startMs - STUCK_CREATING_MS,
            expireTimeMs: null,
          }),
        );
      }
    });
    this.policies = policies;
    this.#fixed = fixed;
    this.globalClusters = withFiller(globalClustersOf(this.dedicated), this.dedicated, globalClusters);
  }

  private backup(
    c: SimCluster,
    b: {
      id: string;
      type: SimBackup["backupType"];
      method: SimBackup["creationMethod"];
      status: SimBackup["status"];
      size: number;
      createTimeMs: number;
      expireTimeMs: number | null;
    },
  ): SimBackup {
    const short = c.id.slice(5, 13);
    return {
      backupId: `backup-${short}-${b.id}`,
      backupName: `${c.name}-${b.method.toLowerCase()}-${b.id}`,
      clusterId: c.id,
      clusterName: c.name,
      projectId: c.projectId,
      backupType: b.type,
      creationMethod: b.method,
      status: b.status,
      size: b.size,
      createTimeMs: b.createTimeMs,
      expireTimeMs: b.expireTimeMs,
    };
  }

  /** Every backup listed at `nowMs`, newest first (auto backups follow each policy's schedule). */
  backupsAt(nowMs: number): SimBackup[] {
    const out: SimBackup[] = [...this.#fixed];
    const today = Math.floor(nowMs / DAY_MS);
    this.dedicated.forEach((c, d) => {
      const policy = this.policies.get(c.id);
      if (policy?.status !== "ENABLED") return;
      const days = new Set(policy.frequency.split(",").map(Number));
      for (let k = 0; k < policy.retentionDays; k++) {
        const day = today - k;
        const at = day * DAY_MS + 2 * HOUR_MS + d * 7 * MINUTE_MS;
        if (at > nowMs || !days.has(weekday(day))) continue;
        if (d === 0 && nowMs - at < OVERDUE_DAYS * DAY_MS) continue;
        out.push(
          this.backup(c, {
            id: `a${day}`,
            type: "CLUSTER",
            method: "AUTO",
            status: "AVAILABLE",
            size: (d + 1) * 1_000_000_000 + (day % 10) * 1_000_000,
            createTimeMs: at,
            expireTimeMs: at + policy.retentionDays * DAY_MS,
          }),
        );
      }
    });
    return out.sort((a, b) => b.createTimeMs - a.createTimeMs || a.backupId.localeCompare(b.backupId));
  }

  /**
   * The global cluster `clusterId` belongs to and its role there (Describe Cluster's
   * globalClusterMeta), or null outside one. The first global cluster that names it wins: the
   * fillers that lengthen the listing reuse clusters already placed.
   */
  membership(
    clusterId: string,
  ): { readonly globalClusterId: string; readonly role: "PRIMARY" | "SECONDARY" } | null {
    for (const g of this.globalClusters) {
      if (g.primary.id === clusterId) return { globalClusterId: g.globalClusterId, role: "PRIMARY" };
      if (g.secondaries.some((s) => s.clusterId === clusterId))
        return { globalClusterId: g.globalClusterId, role: "SECONDARY" };
    }
    return null;
  }

  /** A secondary's lag at `nowMs`, in whole milliseconds. */
  lagMs(s: SimSecondary, nowMs: number): number {
    const phase = ((nowMs - this.startMs) / s.periodMs) * 2 * Math.PI;
    return Math.round(s.minMs + ((s.maxMs - s.minMs) * (1 - Math.cos(phase))) / 2);
  }
}

/**
 * From three dedicated clusters on, one global cluster (primary: dedicated 0; secondaries 1 and
 * 2, the second swinging from 20 s to 120 s over 40 minutes, so its lag stays above 60 s for
 * about 20 minutes at a time); from five on, a second one (primary 3, secondary 4, under 2 s).
 */
function globalClustersOf(dedicated: readonly SimCluster[]): SimGlobalCluster[] {
  const out: SimGlobalCluster[] = [];
  const [a, b, c, d, e] = dedicated;
  if (a && b && c) {
    out.push(
      globalCluster("global-search", a, [
        [b, 200, 2_000, 5 * MINUTE_MS],
        [c, 20_000, 120_000, 40 * MINUTE_MS],
      ]),
    );
  }
  if (d && e) out.push(globalCluster("global-rag", d, [[e, 100, 1_500, 7 * MINUTE_MS]]));
  return out;
}

/**
 * `made`, then global clusters on the dedicated clusters in turn (each with the next one as its
 * secondary, a lag under a second) until there are `atLeast`: none without two dedicated clusters.
 */
function withFiller(
  made: SimGlobalCluster[],
  dedicated: readonly SimCluster[],
  atLeast: number,
): SimGlobalCluster[] {
  const out = [...made];
  for (let i = 0; out.length < atLeast && dedicated.length >= 2; i++) {
    const primary = dedicated[i % dedicated.length] as SimCluster;
    const secondary = dedicated[(i + 1) % dedicated.length] as SimCluster;
    const g = globalCluster(`global-${i}`, primary, [[secondary, 100, 900, 5 * MINUTE_MS]]);
    out.push({ ...g, globalClusterId: `glo-filler-${String(i).padStart(5, "0")}` });
  }
  return out;
}

/** A global cluster on `primary`, each secondary with its lag swinging [minMs, maxMs] over periodMs. */
function globalCluster(
  name: string,
  primary: SimCluster,
  secondaries: readonly (readonly [SimCluster, minMs: number, maxMs: number, periodMs: number])[],
): SimGlobalCluster {
  return {
    globalClusterId: `glo-${primary.id.slice(5, 17)}`,
    globalClusterName: name,
    projectId: primary.projectId,
    primary,
    secondaries: secondaries.map(([s, minMs, maxMs, periodMs]) => ({
      clusterId: s.id,
      regionId: s.regionId,
      minMs,
      maxMs,
      periodMs,
    })),
  };
}
