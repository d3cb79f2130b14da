/**
 * Spark job discovery's state, kept across polls and reloads: per cluster, when each listed job
 * was first seen finished (the end of a job whose listing gives no finishedAt) and what the last
 * Describe Spark Job said of it (so a finished job is never described again).
 */
import { ClusterJobMemory, terminalSince } from "../../polling/clusterJobs.js";
import { stateSlot } from "../../polling/model.js";
import type { SparkJob } from "../../upstream/types.js";
import type { DescribedJob } from "./listing.js";
import { isTerminalSparkStatus } from "./mapping.js";

interface Remembered {
  terminalSinceMs: number | null;
  described: DescribedJob | undefined;
}

/**
 * Bounded by the listings: a job no longer listed is forgotten at the cluster's next listing,
 * a cluster no longer polled by `retain`.
 */
class SparkListingMemory extends ClusterJobMemory<Remembered> {
  /**
   * Records the full listing of `clusterId` at `nowMs`; returns, for each finished job of it,
   * when it was first seen finished (epoch ms).
   */
  observe(clusterId: string, jobs: readonly SparkJob[], nowMs: number): ReadonlyMap<string, number> {
    const finished = new Map<string, number>();
    this.relist(clusterId, jobs, (job, known) => {
      const since = terminalSince(isTerminalSparkStatus(job.status), known?.terminalSinceMs, nowMs);
      if (since !== null) finished.set(job.jobId, since);
      return { terminalSinceMs: since, described: known?.described };
    });
    return finished;
  }

  /** The last Describe answer kept for a listed job. */
  described(clusterId: string, jobId: string): DescribedJob | undefined {
    return this.entry(clusterId, jobId)?.described;
  }

  /** Keeps a Describe answer of a job of the cluster's last listing (others are ignored). */
  remember(clusterId: string, jobId: string, described: DescribedJob): void {
    const entry = this.entry(clusterId, jobId);
    if (entry !== undefined) entry.described = described;
  }
}

/** Spark job discovery's slot in the collectors' state. */
export const SPARK_LISTING_MEMORY = stateSlot("Spark job listing", () => new SparkListingMemory());
