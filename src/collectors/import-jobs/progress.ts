/**
 * Which import jobs get a Get Import Job Progress (V2) call in a cycle, and what the collector
 * remembers about each job between cycles to decide it.
 *
 * "Newest first": the listings carry no timestamps and job IDs are not ordered, so the order of
 * the listing stands for age. The service lists newest first (as the simulator does), so the
 * first unfinished jobs of the listing are the newest.
 */

import { ClusterJobMemory } from "../../polling/clusterJobs.js";
import { stateSlot } from "../../polling/model.js";
import { ChangeLog } from "../../shared/changeLog.js";
import type { ImportJob } from "../../upstream/types.js";
import { isTerminalImportState, isUnfinishedImportState } from "./mapping.js";

/** What is known of one job of a cluster's listing. */
interface JobMemory {
  /** Its final state needs no more calls: asked once after it finished, or finished when first seen. */
  settled: boolean;
}

/** The jobs to ask this cycle, in the order to ask them. */
interface ProgressPick {
  /** Jobs that finished since the last listing and were not asked since (their final answer). */
  readonly finished: readonly ImportJob[];
  /** Unfinished jobs, newest first (listing order). */
  readonly unfinished: readonly ImportJob[];
}

/**
 * Picks at most `max` jobs: first those that finished while watched and were not asked since
 * (one call each, ever: to learn the final rows and a failure's reason), then the unfinished
 * ones in listing order. `isSettled` tells which finished jobs need no call.
 */
export function pickProgressCalls(
  jobs: readonly ImportJob[],
  max: number,
  isSettled: (jobId: string) => boolean,
): ProgressPick {
  const seen = new Set<string>();
  const finished: ImportJob[] = [];
  const unfinished: ImportJob[] = [];
  let budget = Math.max(0, Math.floor(max));
  for (const job of jobs) {
    if (seen.has(job.jobId)) continue;
    seen.add(job.jobId);
    if (isTerminalImportState(job.state) && !isSettled(job.jobId)) finished.push(job);
  }
  const pickedFinished = finished.slice(0, budget);
  budget -= pickedFinished.length;
  seen.clear();
  for (const job of jobs) {
    if (budget <= 0) break;
    if (seen.has(job.jobId)) continue;
    seen.add(job.jobId);
    if (isUnfinishedImportState(job.state)) {
      unfinished.push(job);
      budget--;
    }
  }
  return { finished: pickedFinished, unfinished };
}

/**
 * Per cluster, per listed job: whether its final state was asked, and whether its failure was
 * logged. The first listing of a cluster is a baseline: jobs finished then are settled without a
 * call (they did not finish while watched, and a fresh start must not ask the whole history).
 * Memory is bounded by the listings: a job no longer listed is forgotten.
 */
export class ImportProgressMemory extends ClusterJobMemory<JobMemory> {
  /** "<cluster>\0<job ID>" of the listed jobs whose failure reason was logged. */
  readonly #reasons = new ChangeLog<true>();

  /**
   * Records the listing of `clusterId`: new jobs are remembered (settled when finished at the
   * cluster's first listing), unlisted ones forgotten. Returns whether a job is settled.
   */
  observe(clusterId: string, jobs: readonly ImportJob[]): (jobId: string) => boolean {
    const before = this.clusters.get(clusterId);
    const baseline = before === undefined;
    const now = new Map<string, JobMemory>();
    for (const job of jobs) {
      if (now.has(job.jobId)) continue;
      const known = before?.get(job.jobId);
      const finished = isTerminalImportState(job.state);
      if (known !== undefined) {
        // A job that went back to unfinished (a retried import) is watched again.
        now.set(job.jobId, finished ? known : { settled: false });
      } else now.set(job.jobId, { settled: baseline && finished });
    }
    this.clusters.set(clusterId, now);
    const prefix = `${clusterId}\u0000`;
    this.#reasons.retain((told) => !told.startsWith(prefix) || now.has(told.slice(prefix.length)));
    return (jobId) => now.get(jobId)?.settled ?? true;
  }

  /** The final answer of a finished job arrived: it is never asked again. */
  settle(clusterId: string, jobId: string): void {
    const job = this.entry(clusterId, jobId);
    if (job !== undefined) job.settled = true;
  }

  /** True the first time a job's failure is reported (the one time to log its reason). */
  firstFailure(clusterId: string, jobId: string): boolean {
    if (this.entry(clusterId, jobId) === undefined) return false;
    return this.#reasons.changed(`${clusterId}\u0000${jobId}`, true);
  }

  override retain(clusterIds: ReadonlySet<string>): void {
    super.retain(clusterIds);
    this.#reasons.retain((told) => clusterIds.has(told.slice(0, told.indexOf("\u0000"))));
  }
}

/** The collector's progress memory, kept across polls and reloads. */
export const IMPORT_PROGRESS_MEMORY = stateSlot("import job progress", () => new ImportProgressMemory());
