/**
 * The import job collector's state: when each job was first seen terminal, kept across polls
 * and reloads (the listing gives no finish time).
 */

import { ClusterJobMemory, terminalSince } from "../../polling/clusterJobs.js";
import { stateSlot } from "../../polling/model.js";
import type { ImportJob } from "../../upstream/types.js";
import { isTerminalImportState } from "./mapping.js";

/**
 * Remembers, per cluster, when each import job was first seen in a terminal state. The list
 * endpoint gives no finish time, so first-seen is the start of the retention period. Memory is
 * bounded by the listings: a job no longer listed, or no longer terminal, is forgotten.
 */
export class ImportJobTracker extends ClusterJobMemory<number> {
  /**
   * Records the full job list of `clusterId` at `nowMs` and returns, for each terminal job of
   * that list, the epoch ms at which it was first seen terminal.
   */
  observe(clusterId: string, jobs: readonly ImportJob[], nowMs: number): ReadonlyMap<string, number> {
    return this.relist(
      clusterId,
      jobs,
      (job, since) => terminalSince(isTerminalImportState(job.state), since, nowMs) ?? undefined,
    );
  }
}

/** The import job collector's slot in the collectors' state. */
export const IMPORT_JOB_TRACKER = stateSlot("import job tracker", () => new ImportJobTracker());
