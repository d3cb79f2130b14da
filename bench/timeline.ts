/**
 * What the exporter's process was doing, and when: garbage-collection pauses, the store's puts
 * and publishes, and event-loop stalls, each with its start in epoch milliseconds, so the
 * harness can line them up with the scrapes it timed and say where a slow scrape's time went.
 * Recorded in the probe (the exporter's own process) only while asked.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { threadCpuWaitReader } from "./stallMeter.js";

/**
 * One thing that held the exporter's thread: a collection, a put, a publish, a stall (held
 * without being named, the thread's own time) or a wait for a CPU (runnable, another process
 * on the core: /proc/thread-self/schedstat, where the kernel has it).
 */
export interface TimelineEvent {
  readonly kind: "gc" | "put" | "publish" | "stall" | "wait";
  /** Start, epoch milliseconds. */
  readonly startMs: number;
  readonly ms: number;
}

/** A stall this much longer than the tick is recorded: shorter ones are the timer's jitter. */
const STALL_MIN_MS = 5;
const TICK_MS = 2;
/** A wait for a CPU this long within one tick is recorded. */
const WAIT_MIN_MS = 1;
/** Bound of the events kept: a recording of a few minutes holds far fewer. */
const MAX_EVENTS = 200_000;

/** Where the store's timed work goes while a timeline records; nowhere otherwise. */
let onStoreWork: ((e: TimelineEvent) => void) | undefined;
let storeTimed = false;

/** The store's private snapshot method, every publish's work (named here, so tsc checks it). */
const BUILD = "build";

/**
 * Times the store's puts and publishes from outside the product: wraps `put` and the private
 * `build` of SampleStore's prototype, once, in the running process. The import runs after the
 * exporter started (the probe is asked over IPC), so it returns the module the exporter loaded
 * (the same file, dist-bench/src/exposition/store.js) and loads nothing new. While no timeline
 * records, a wrapped call costs one check.
 */
async function timeStoreWork(): Promise<void> {
  if (storeTimed) return;
  storeTimed = true;
  const { SampleStore } = await import("../src/exposition/store.js");
  const proto = SampleStore.prototype;
  const timed = <A extends unknown[], R>(kind: "put" | "publish", fn: (...args: A) => R) =>
    function (this: InstanceType<typeof SampleStore>, ...args: A): R {
      if (onStoreWork === undefined) return fn.apply(this, args);
      const started = performance.now();
      try {
        return fn.apply(this, args);
      } finally {
        onStoreWork({ kind, startMs: performance.timeOrigin + started, ms: performance.now() - started });
      }
    };
  proto.put = timed("put", proto.put);
  proto[BUILD] = timed("publish", proto[BUILD]);
}

/** Records the process's events from `start()` until `stop()`, which returns them in order. */
export class Timeline {
  private events: TimelineEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private observer: PerformanceObserver | undefined;

  /** Starts recording; the first start also times the store from outside (see timeStoreWork). */
  async start(): Promise<void> {
    this.stop();
    await timeStoreWork();
    this.events = [];
    this.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        this.add({ kind: "gc", startMs: performance.timeOrigin + e.startTime, ms: e.duration });
      }
    });
    this.observer.observe({ entryTypes: ["gc"] });
    onStoreWork = (e) => this.add(e);
    const cpuWait = threadCpuWaitReader();
    let last = performance.now();
    let waited = cpuWait?.() ?? 0;
    this.timer = setInterval(() => {
      const now = performance.now();
      const nowWaited = cpuWait?.() ?? 0;
      const wait = Number.isFinite(nowWaited - waited) ? nowWaited - waited : 0;
      const gap = now - last - TICK_MS;
      const startMs = performance.timeOrigin + last;
      if (wait >= WAIT_MIN_MS) this.add({ kind: "wait", startMs, ms: wait });
      if (gap - wait >= STALL_MIN_MS) this.add({ kind: "stall", startMs, ms: gap - wait });
      last = now;
      waited = nowWaited;
    }, TICK_MS);
    this.timer.unref();
  }

  stop(): TimelineEvent[] {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.observer?.disconnect();
    this.observer = undefined;
    onStoreWork = undefined;
    const out = this.events.sort((a, b) => a.startMs - b.startMs);
    this.events = [];
    return out;
  }

  private add(e: TimelineEvent): void {
    if (this.events.length < MAX_EVENTS) this.events.push(e);
  }
}

/** A timed request of the harness: its start and end in epoch milliseconds. */
export interface TimedSpan {
  readonly startMs: number;
  readonly ms: number;
}

/** How much of `span` each kind of event covered (overlaps of several events of a kind add up). */
export function overlapByKind(
  span: TimedSpan,
  events: readonly TimelineEvent[],
): Record<TimelineEvent["kind"], number> {
  const out = { gc: 0, put: 0, publish: 0, stall: 0, wait: 0 };
  const end = span.startMs + span.ms;
  for (const e of events) {
    if (e.startMs >= end) break;
    const overlap = Math.min(end, e.startMs + e.ms) - Math.max(span.startMs, e.startMs);
    if (overlap > 0) out[e.kind] += overlap;
  }
  return out;
}
