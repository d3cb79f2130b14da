import type { CloudApi } from "../../cloud/types.js";
import type { SparkJobRef, SparkJobsConfig } from "../../config/types.js";
import type { ScheduledTask } from "../../schedule/scheduler.js";
import { type PollContext, putData, runPoll } from "../runtime.js";
import { isTerminalSparkStatus, mapSparkJob, normalizeSparkStatus } from "./mapping.js";

/** Polls needed in a terminal status before a job stops being polled (first sight + confirm). */
export const TERMINAL_CONFIRMATIONS = 2;

interface WatchState {
  terminalPolls: number;
  /** When the confirming poll landed; the job's series live `retention` from then. */
  settledAtMs: number | null;
  expired: boolean;
}

/**
 * Remembers, across reloads, which Spark jobs have settled in a terminal status, so that a
 * reload does not resume polling finished jobs. Bounded: entries of jobs no longer watched are
 * dropped by `retain`.
 */
export class SparkJobWatch {
  private readonly jobs = new Map<string, WatchState>();

  state(target: string): WatchState {
    let s = this.jobs.get(target);
    if (!s) {
      s = { terminalPolls: 0, settledAtMs: null, expired: false };
      this.jobs.set(target, s);
    }
    return s;
  }

  retain(targets: ReadonlySet<string>): void {
    for (const key of this.jobs.keys()) if (!targets.has(key)) this.jobs.delete(key);
  }

  get size(): number {
    return this.jobs.size;
  }
}

export function sparkTargetName(ref: SparkJobRef): string {
  return `${ref.projectId}/${ref.jobId}`;
}

/**
 * One task per watched job. A job seen in a terminal status is polled once more to confirm
 * (an upstream could report a transient status), then no longer: its last samples stay exposed
 * for `retention`, after which they and the job's health series are removed.
 */
export function sparkJobTasks(
  ctx: PollContext,
  cfg: SparkJobsConfig,
  refs: readonly SparkJobRef[],
  client: CloudApi,
  watch: SparkJobWatch,
  stalenessIntervals: number,
): ScheduledTask[] {
  const activeTtlMs = stalenessIntervals * cfg.intervalMs;
  watch.retain(new Set(refs.map(sparkTargetName)));
  return refs.map((ref) => {
    const target = sparkTargetName(ref);
    return {
      key: `spark_jobs/${target}`,
      collector: "spark_jobs",
      intervalMs: cfg.intervalMs,
      run: async (signal) => {
        const st = watch.state(target);
        if (st.settledAtMs !== null) {
          if (!st.expired && ctx.now() - st.settledAtMs >= cfg.retentionMs) {
            st.expired = true;
            ctx.store.delete({ collector: "spark_jobs", target, slot: "data" });
            ctx.health.remove("spark_jobs", target);
          }
          return "ok";
        }
        return runPoll(ctx, "spark_jobs", target, async () => {
          const job = await client.describeSparkJob(ref, signal);
          const terminal = isTerminalSparkStatus(normalizeSparkStatus(job.status));
          st.terminalPolls = terminal ? st.terminalPolls + 1 : 0;
          const settled = st.terminalPolls >= TERMINAL_CONFIRMATIONS;
          if (settled) st.settledAtMs = ctx.now();
          putData(ctx, "spark_jobs", target, mapSparkJob(job), settled ? cfg.retentionMs : activeTtlMs);
        });
      },
    };
  });
}
