/**
 * What a collector remembers per cluster, per listed job (or index), across polls and reloads,
 * written once: replacing a cluster's jobs with its latest listing; when a job was first seen terminal (listings give no finish time, so
 * retention starts there); forgetting jobs that left the listing and clusters no longer polled;
 * and the lines logged once per job (a failure's reason), forgotten with the job.
 */

import { ChangeLog } from "../shared/changeLog.js";

/** A job as a listing gives it: the memory needs only its ID. */
export interface ListedJob {
  readonly jobId: string;
}

/**
 * When a job of a listing seen at `nowMs` was first seen terminal: kept from the listing before
 * (`before`), else now; null while it is not terminal, so that a job that leaves a terminal state
 * and comes back (a retried one) starts its retention afresh.
 */
export function terminalSince(
  terminal: boolean,
  before: number | null | undefined,
  nowMs: number,
): number | null {
  return terminal ? (before ?? nowMs) : null;
}

/**
 * A per cluster, per job memory. Subclasses decide what a job's `Entry` holds and what is logged
 * of it (`Note`); the memory stays bounded because a listing replaces the cluster's jobs and
 * `retain` drops every cluster no longer polled, each with its notes.
 */
export class ClusterJobMemory<Entry, Note = never> {
  /** Per cluster ID, per job ID, what is remembered. */
  protected readonly clusters = new Map<string, Map<string, Entry>>();
  /** Per "<cluster>\0<job>", what was logged of a remembered job (see `noteKey`). */
  protected readonly notes = new ChangeLog<Note>();

  /** What is remembered of one job of the cluster's last listing, if anything. */
  protected entry(clusterId: string, jobId: string): Entry | undefined {
    return this.clusters.get(clusterId)?.get(jobId);
  }

  /**
   * Replaces what is remembered of `clusterId` by its full listing `jobs` (the pager's, each job
   * once): each job as `next` says from what was remembered of it (undefined: nothing). A cluster
   * left with nothing is forgotten unless `keepEmpty` (its having been listed is itself worth
   * knowing). Returns the new entries.
   */
  protected relist<J extends ListedJob>(
    clusterId: string,
    jobs: readonly J[],
    next: (job: J, before: Entry | undefined) => Entry | undefined,
    keepEmpty = false,
  ): ReadonlyMap<string, Entry> {
    const before = this.clusters.get(clusterId);
    const after = new Map<string, Entry>();
    for (const job of jobs) {
      const entry = next(job, before?.get(job.jobId));
      if (entry !== undefined) after.set(job.jobId, entry);
    }
    if (after.size === 0 && !keepEmpty) this.clusters.delete(clusterId);
    else this.clusters.set(clusterId, after);
    this.#keepNotes(clusterId, after);
    return after;
  }

  /** Remembers `entry` for one job of `clusterId`, beside the others. */
  protected put(clusterId: string, jobId: string, entry: Entry): void {
    const jobs = this.clusters.get(clusterId) ?? new Map<string, Entry>();
    jobs.set(jobId, entry);
    this.clusters.set(clusterId, jobs);
  }

  /** Forgets every job of `clusterId` that `keep` says no to (and the cluster once empty). */
  protected keepJobs(clusterId: string, keep: (jobId: string) => boolean): void {
    const jobs = this.clusters.get(clusterId);
    if (jobs === undefined) return;
    for (const jobId of jobs.keys()) if (!keep(jobId)) jobs.delete(jobId);
    if (jobs.size === 0) this.clusters.delete(clusterId);
    this.#keepNotes(clusterId, jobs);
  }

  /** Forgets a cluster entirely (e.g. removed from the configuration). */
  forgetCluster(clusterId: string): void {
    this.keepJobs(clusterId, () => false);
  }

  /** Forgets every cluster not in `clusterIds` (the clusters still polled). */
  retain(clusterIds: ReadonlySet<string>): void {
    for (const id of this.clusters.keys()) if (!clusterIds.has(id)) this.clusters.delete(id);
    this.notes.retain((k) => clusterIds.has(k.slice(0, k.indexOf("\u0000"))));
  }

  /** Jobs remembered over all clusters. */
  get size(): number {
    let n = 0;
    for (const jobs of this.clusters.values()) n += jobs.size;
    return n;
  }

  #keepNotes(clusterId: string, jobs: ReadonlyMap<string, Entry>): void {
    if (this.notes.size === 0) return;
    const prefix = `${clusterId}\u0000`;
    this.notes.retain((k) => !k.startsWith(prefix) || jobs.has(k.slice(prefix.length)));
  }
}

/** The key of a job's notes (no cluster ID holds a NUL). */
export function noteKey(clusterId: string, jobId: string): string {
  return `${clusterId}\u0000${jobId}`;
}
