/**
 * Polling a job until it settles, shared by the collectors that follow one job per task (Spark
 * jobs, jobs by ID): a job seen in a terminal status is polled once more to confirm (an upstream
 * could report a transient status), then no longer; its last samples stay exposed for
 * `retention`, after which they and the job's health series are removed.
 */
import type { MappingResult } from "../metrics/sample.js";
import type { RunOutcome } from "../scheduler/scheduler.js";
import { stateSlot } from "./model.js";
import { type PollContext, type PollTarget, putData, runPoll } from "./runtime.js";

/** Polls needed in a terminal status before a job stops being polled (first sight + confirm). */
const TERMINAL_CONFIRMATIONS = 2;

/** One job's progress towards settling. */
interface WatchState {
  terminalPolls: number;
  /** When the confirming poll landed; the job's series live `retention` from then. */
  settledAtMs: number | null;
  expired: boolean;
}

/**
 * Remembers, across reloads, which jobs have settled in a terminal status, so that a reload does
 * not resume polling finished jobs. Bounded: entries of jobs no longer watched are dropped by
 * `retain`. Each collector keeps its own (a `stateSlot` of its own).
 */
class JobWatch {
  private readonly byTarget = new Map<string, WatchState>();

  state(target: string): WatchState {
    let s = this.byTarget.get(target);
    if (!s) {
      s = { terminalPolls: 0, settledAtMs: null, expired: false };
      this.byTarget.set(target, s);
    }
    return s;
  }

  retain(targets: ReadonlySet<string>): void {
    for (const key of this.byTarget.keys()) if (!targets.has(key)) this.byTarget.delete(key);
  }

  get size(): number {
    return this.byTarget.size;
  }
}

/** Declares a collector's own JobWatch slot. */
export function jobWatchSlot(name: string) {
  return stateSlot(name, () => new JobWatch());
}

/** One poll's answer: the samples, and whether the job is in a terminal status. */
interface SettlingPoll {
  readonly mapping: MappingResult;
  readonly terminal: boolean;
}

/**
 * Runs one poll of a job that settles: nothing once settled (the series expire after
 * `retentionMs`, health included), else `read` through `runPoll`. A settled job's samples live
 * `retentionMs`; an unsettled one's `activeTtlMs`. `onSettled` runs once, on the confirming poll.
 */
export async function runSettling(opts: {
  readonly ctx: PollContext;
  readonly poll: PollTarget;
  readonly state: WatchState;
  readonly retentionMs: number;
  readonly activeTtlMs: number;
  readonly read: () => Promise<SettlingPoll>;
  readonly onSettled?: () => void;
}): Promise<RunOutcome> {
  const { ctx, state: st } = opts;
  const { collector, target } = opts.poll;
  if (st.settledAtMs !== null) {
    if (!st.expired && ctx.now() - st.settledAtMs >= opts.retentionMs) {
      st.expired = true;
      ctx.store.delete({ collector, target, slot: "data" });
      ctx.health.remove(collector, target);
    }
    return "ok";
  }
  return runPoll(ctx, opts.poll, async () => {
    const { mapping, terminal } = await opts.read();
    st.terminalPolls = terminal ? st.terminalPolls + 1 : 0;
    const settled = st.terminalPolls >= TERMINAL_CONFIRMATIONS;
    if (settled) st.settledAtMs = ctx.now();
    putData(ctx, collector, target, mapping, settled ? opts.retentionMs : opts.activeTtlMs);
    if (settled) opts.onSettled?.();
  });
}
