/**
 * Which import jobs get a Get Import Job Progress (V2) call in a cycle, and what the collector
 * remembers about each job between cycles to decide it.
 *
 * "Newest first": the listings carry no timestamps and job IDs are not ordered, so the order of
 * the listing stands for age. The service lists newest first (as the simulator does), so the
 * first unfinished jobs of the listing are the newest.
 */

import { ClusterJobMemory, noteKey } from "../../polling/clusterJobs.js";
import { stateSlot } from "../../polling/model.js";
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
 * ones in listing order. `isSettled` tells which finished jobs need no call. `jobs` is the
 * pager's listing, each job once (tasks.ts, keyed by job ID), so no job is asked twice.
 */
export function pickProgressCalls(
  jobs: readonly ImportJob[],
  max: number,
  isSettled: (jobId: string) => boolean,
): ProgressPick {
  const finished: ImportJob[] = [];
  const unfinished: ImportJob[] = [];
  let budget = Math.max(0, Math.floor(max));
  for (const job of jobs) {
    if (isTerminalImportState(job.state) && !isSettled(job.jobId)) finished.push(job);
  }
  const pickedFinished = finished.slice(0, budget);
  budget -= pickedFinished.length;
  for (const job of jobs) {
    if (budget <= 0) break;
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
export class ImportProgressMemory extends ClusterJobMemory<JobMemory, true> {
  /**
   * Records the listing of `clusterId` (the pager's, each job once): new jobs are remembered
   * (settled when finished at the cluster's first listing), unlisted ones forgotten. Returns
   * whether a job is settled.
   */
  observe(clusterId: string, jobs: readonly ImportJob[]): (jobId: string) => boolean {
    const baseline = !this.clusters.has(clusterId);
    const now = this.relist(
      clusterId,
      jobs,
      (job, known) => {
        const finished = isTerminalImportState(job.state);
        // A job that went back to unfinished (a retried import) is watched again.
        if (known !== undefined) return finished ? known : { settled: false };
        return { settled: baseline && finished };
      },
      true,
    );
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
    return this.notes.changed(noteKey(clusterId, jobId), true);
  }
}

/** The collector's progress memory, kept across polls and reloads. */
export const IMPORT_PROGRESS_MEMORY = stateSlot("import job progress", () => new ImportProgressMemory());
