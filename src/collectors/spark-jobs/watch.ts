/**
 * The Spark job collector's state: which jobs have settled in a terminal status, kept across
 * polls and reloads so that a reload does not resume polling finished jobs.
 */
import { stateSlot } from "../../polling/model.js";

/** Polls needed in a terminal status before a job stops being polled (first sight + confirm). */
export const TERMINAL_CONFIRMATIONS = 2;

export interface WatchState {
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

/** The Spark job collector's slot in the collectors' state. */
export const SPARK_JOB_WATCH = stateSlot("Spark job watch", () => new SparkJobWatch());
