import { fnv1a32 } from "../shared/hash.js";

/** Result of one poll, as the scheduler needs it. */
export type RunOutcome = "ok" | "failed" | "permanent_failure";

/**
 * A periodic poll of one target by one collector. `run` must honour `signal` (aborted on
 * shutdown or when the task is removed) and should not reject; a rejection counts as "failed".
 */
export interface ScheduledTask {
  /** Unique and stable across reloads, e.g. "cluster_metrics/in01-abc". */
  readonly key: string;
  readonly collector: string;
  readonly intervalMs: number;
  run(signal: AbortSignal): Promise<RunOutcome>;
}

/** Timer functions, injectable so tests can drive time. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

interface SchedulerOptions {
  clock?: Clock;
  /** Called when a due run is skipped because the previous one is still running. */
  onSkip?: (task: ScheduledTask) => void;
  /** Upper bound of the slow retry after permanent failures. Default 30 minutes. */
  maxBackoffMs?: number;
  /**
   * Start-up runs (a task's first) of one collector that may be running at once; the others
   * wait their turn in order. Default DEFAULT_STARTUP_CONCURRENCY.
   */
  startupConcurrency?: number;
}

/**
 * Why start-up runs are gated: thousands of targets started in one go would each build a
 * request and wait in the rate limiter, all in one event-loop turn and all live at once (a
 * stall and a heap spike), though the upstream serves only `rate_limit` per second anyway. 64
 * per collector keeps the limiter fed at any documented rate with ordinary latencies. The
 * collectors are admitted in turn, one run of each, so that every collector's first request,
 * and with it every endpoint's, is asked for at once.
 */
const DEFAULT_STARTUP_CONCURRENCY = 64;

/** What the landing page and tests can see of a task. */
interface TaskStatus {
  readonly key: string;
  readonly collector: string;
  readonly running: boolean;
  readonly runs: number;
  readonly skipped: number;
  readonly lastOutcome: RunOutcome | null;
  readonly consecutivePermanentFailures: number;
  readonly nextRunAtMs: number | null;
}

interface TaskState {
  task: ScheduledTask;
  timer: unknown;
  nextRunAtMs: number | null;
  inFlight: Promise<void> | null;
  abort: AbortController | null;
  runs: number;
  skipped: number;
  lastOutcome: RunOutcome | null;
  permanentFailures: number;
  removed: boolean;
}

/**
 * Runs every task once at start, then every `intervalMs` at a fixed offset inside the interval
 * (the first slot at least half an interval after the start-up run)
 * derived from a hash of its key, so targets are spread over the interval instead of bursting
 * at its start. A task never overlaps itself: a run that comes due while the previous one is
 * still going is skipped and counted. After a permanent failure (e.g. cluster not found) the
 * task backs off exponentially up to `maxBackoffMs`, and returns to its interval on success.
 */
export class Scheduler {
  private readonly clock: Clock;
  private readonly onSkip: (task: ScheduledTask) => void;
  private readonly maxBackoffMs: number;
  private readonly startupConcurrency: number;
  private readonly states = new Map<string, TaskState>();
  /** Per collector: start-up runs going, and tasks waiting for theirs, in order. */
  private readonly startup = new Map<string, { running: number; waiting: TaskState[] }>();
  private started = false;
  private stopped = false;
  private firstCycleWaiters: Array<() => void> = [];

  constructor(opts: SchedulerOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.onSkip = opts.onSkip ?? (() => {});
    this.maxBackoffMs = opts.maxBackoffMs ?? 30 * 60_000;
    this.startupConcurrency = opts.startupConcurrency ?? DEFAULT_STARTUP_CONCURRENCY;
    if (!(Number.isSafeInteger(this.startupConcurrency) && this.startupConcurrency >= 1)) {
      throw new RangeError(`startupConcurrency must be a whole number >= 1, got ${this.startupConcurrency}`);
    }
  }

  /**
   * Replaces the task set: new keys are added (and run at once if started), removed keys are
   * aborted, kept keys take the new definition from their next run on.
   */
  setTasks(tasks: readonly ScheduledTask[]): void {
    const wanted = new Map(tasks.map((t) => [t.key, t]));
    for (const [key, st] of this.states) {
      if (!wanted.has(key)) {
        st.removed = true;
        this.clock.clearTimeout(st.timer);
        st.abort?.abort(new Error("task removed"));
        this.states.delete(key);
      }
    }
    for (const task of tasks) {
      const st = this.states.get(task.key);
      if (st) {
        const intervalChanged = st.task.intervalMs !== task.intervalMs;
        st.task = task;
        // A task still waiting for its start-up run has no slot to move yet.
        if (intervalChanged && this.started && !st.inFlight && st.nextRunAtMs !== null) this.scheduleNext(st);
        continue;
      }
      const fresh: TaskState = {
        task,
        timer: undefined,
        nextRunAtMs: null,
        inFlight: null,
        abort: null,
        runs: 0,
        skipped: 0,
        lastOutcome: null,
        permanentFailures: 0,
        removed: false,
      };
      this.states.set(task.key, fresh);
      if (this.started) this.queueStartup(fresh);
    }
    if (this.started) this.admitInTurn();
    this.checkFirstCycle();
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    for (const st of this.states.values()) this.queueStartup(st);
    this.admitInTurn();
  }

  /**
   * Forgets permanent-failure backoff (e.g. after a reload that may have fixed the key), so
   * those tasks return to their normal slot.
   */
  resetBackoff(): void {
    for (const st of this.states.values()) {
      if (st.permanentFailures === 0) continue;
      st.permanentFailures = 0;
      if (this.started && !this.stopped && !st.inFlight) this.scheduleNext(st);
    }
  }

  /** Stops all timers, aborts running polls and waits for them to settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    const pending: Promise<void>[] = [];
    for (const st of this.states.values()) {
      this.clock.clearTimeout(st.timer);
      st.abort?.abort(new Error("shutting down"));
      if (st.inFlight) pending.push(st.inFlight);
    }
    await Promise.allSettled(pending);
    for (const w of this.firstCycleWaiters.splice(0)) w();
  }

  /** Resolves once every current task has completed at least one run (or on stop). */
  firstCycle(): Promise<void> {
    if (this.firstCycleDone()) return Promise.resolve();
    return new Promise((resolve) => this.firstCycleWaiters.push(resolve));
  }

  firstCycleDone(): boolean {
    for (const st of this.states.values()) if (st.runs === 0) return false;
    return true;
  }

  status(): TaskStatus[] {
    return [...this.states.values()].map((st) => ({
      key: st.task.key,
      collector: st.task.collector,
      running: st.inFlight !== null,
      runs: st.runs,
      skipped: st.skipped,
      lastOutcome: st.lastOutcome,
      consecutivePermanentFailures: st.permanentFailures,
      nextRunAtMs: st.nextRunAtMs,
    }));
  }

  /** Queues a task's start-up run behind its collector's (admitInTurn or startupDone fires it). */
  private queueStartup(st: TaskState): void {
    const gate = this.startup.get(st.task.collector) ?? { running: 0, waiting: [] };
    this.startup.set(st.task.collector, gate);
    gate.waiting.push(st);
  }

  /**
   * Fires queued start-up runs one collector at a time in turn (one run of each, then the
   * next of each), each collector up to its room: the first runs of all collectors go out
   * together instead of one collector's backlog before the next collector's first run.
   */
  private admitInTurn(): void {
    let fired = true;
    while (fired) {
      fired = false;
      for (const collector of [...this.startup.keys()]) if (this.admitOne(collector)) fired = true;
    }
    for (const collector of [...this.startup.keys()]) this.dropIdleGate(collector);
  }

  /** Fires the next queued start-up run of `collector` if it has room; true when one started. */
  private admitOne(collector: string): boolean {
    const gate = this.startup.get(collector);
    if (!gate) return false;
    while (gate.running < this.startupConcurrency && !this.stopped) {
      const next = gate.waiting.shift();
      if (next === undefined) return false;
      if (next.removed) continue;
      gate.running++;
      this.fire(next);
      // fire() starts nothing for a stopped scheduler or a removed task.
      if (next.inFlight !== null) return true;
      gate.running--;
    }
    return false;
  }

  private dropIdleGate(collector: string): void {
    const gate = this.startup.get(collector);
    if (gate && gate.running === 0 && gate.waiting.length === 0) this.startup.delete(collector);
  }

  /** A start-up run ended (whatever its outcome): its collector's next may start. */
  private startupDone(collector: string): void {
    const gate = this.startup.get(collector);
    if (!gate) return;
    gate.running--;
    this.admitOne(collector);
    this.dropIdleGate(collector);
  }

  private fire(st: TaskState): void {
    if (this.stopped || st.removed) return;
    // Node may run a timer up to a millisecond early; acting on it would book the same slot
    // again, polling twice and counting a false skip. Wait out the remainder instead.
    const now = this.clock.now();
    if (st.nextRunAtMs !== null && now < st.nextRunAtMs) {
      st.timer = this.clock.setTimeout(() => this.fire(st), st.nextRunAtMs - now);
      return;
    }
    if (st.inFlight) {
      st.skipped++;
      this.onSkip(st.task);
      this.scheduleNext(st);
      return;
    }
    const abort = new AbortController();
    st.abort = abort;
    const startupRun = st.runs === 0;
    const collector = st.task.collector;
    // Fixed-rate: the next slot is booked now, so a slow run makes the next one a counted skip.
    this.scheduleNext(st);
    // Through a microtask, so a run that throws synchronously still counts as a failed run.
    st.inFlight = Promise.resolve()
      .then(() => st.task.run(abort.signal))
      .catch((): RunOutcome => "failed")
      .then((outcome) => {
        st.inFlight = null;
        st.abort = null;
        st.runs++;
        st.lastOutcome = outcome;
        const wasBackingOff = st.permanentFailures > 0;
        st.permanentFailures = outcome === "permanent_failure" ? st.permanentFailures + 1 : 0;
        // Entering, extending or leaving backoff changes when the next run is due.
        if (!this.stopped && !st.removed && (wasBackingOff || st.permanentFailures > 0))
          this.scheduleNext(st);
        if (startupRun) this.startupDone(collector);
        this.checkFirstCycle();
      });
  }

  private scheduleNext(st: TaskState): void {
    this.clock.clearTimeout(st.timer);
    const now = this.clock.now();
    const interval = st.task.intervalMs;
    // After the start-up run, the first slot is at least half an interval away: a slot that
    // happens to fall right after start would otherwise poll the target twice in a row.
    const from = st.runs === 0 ? now + interval / 2 : now;
    let due = nextSlot(from, interval, offsetFor(st.task.key, interval));
    if (st.permanentFailures > 0) {
      const backoff = Math.min(interval * 2 ** st.permanentFailures, Math.max(this.maxBackoffMs, interval));
      due = Math.max(due, now + backoff);
    }
    st.nextRunAtMs = due;
    st.timer = this.clock.setTimeout(() => this.fire(st), due - now);
  }

  private checkFirstCycle(): void {
    if (this.firstCycleWaiters.length > 0 && this.firstCycleDone()) {
      for (const w of this.firstCycleWaiters.splice(0)) w();
    }
  }
}

/** The first instant strictly after `now` that is `offset` past a multiple of `interval`. */
export function nextSlot(now: number, interval: number, offset: number): number {
  const k = Math.floor((now - offset) / interval) + 1;
  return k * interval + offset;
}

/** A stable offset in [0, interval) from a key (FNV-1a), so each target keeps its slot. */
export function offsetFor(key: string, interval: number): number {
  return fnv1a32(key) % interval;
}
