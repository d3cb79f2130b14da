/**
 * The import job collector's state: when each job was first seen terminal, kept across polls
 * and reloads (the listing gives no finish time).
 */

import { stateSlot } from "../../polling/model.js";
import type { ImportJob } from "../../upstream/types.js";
import { isTerminalImportState } from "./mapping.js";

/**
 * Remembers, per cluster, when each import job was first seen in a terminal state. The list
 * endpoint gives no finish time, so first-seen is the start of the retention period. Memory is
 * bounded by the listings: a job no longer listed, or no longer terminal, is forgotten.
 */
export class ImportJobTracker {
  readonly #terminalSince = new Map<string, ReadonlyMap<string, number>>();

  /**
   * Records the full job list of `clusterId` at `nowMs` and returns, for each terminal job of
   * that list, the epoch ms at which it was first seen terminal.
   */
  observe(clusterId: string, jobs: readonly ImportJob[], nowMs: number): ReadonlyMap<string, number> {
    const before = this.#terminalSince.get(clusterId);
    const after = new Map<string, number>();
    // A job listed twice (pages shifting during pagination) counts as its first listing.
    const seen = new Set<string>();
    for (const job of jobs) {
      if (seen.has(job.jobId)) continue;
      seen.add(job.jobId);
      if (isTerminalImportState(job.state)) after.set(job.jobId, before?.get(job.jobId) ?? nowMs);
    }
    if (after.size === 0) this.#terminalSince.delete(clusterId);
    else this.#terminalSince.set(clusterId, after);
    return after;
  }

  /** Forgets a cluster entirely (e.g. removed from the configuration). */
  forgetCluster(clusterId: string): void {
    this.#terminalSince.delete(clusterId);
  }

  /** Forgets every cluster not in `clusterIds` (the clusters still polled). */
  retain(clusterIds: ReadonlySet<string>): void {
    for (const id of this.#terminalSince.keys()) if (!clusterIds.has(id)) this.#terminalSince.delete(id);
  }

  /** Number of jobs remembered over all clusters. */
  get size(): number {
    let n = 0;
    for (const m of this.#terminalSince.values()) n += m.size;
    return n;
  }
}

/** The import job collector's slot in the collectors' state. */
export const IMPORT_JOB_TRACKER = stateSlot("import job tracker", () => new ImportJobTracker());
