/**
 * Event-loop stalls split by who held the CPU. A timer that fires late was delayed either by
 * the process's own work (a long task, a garbage-collection pause) or by the kernel running
 * another process on the core: on a 2-core machine that also runs the simulator, the
 * harness and the floor, the exporter's thread waits in the run queue for tens of ms at a
 * time (measured: 17-24 ms of stalls of 26-30 ms). Linux counts that wait per thread in
 * /proc/thread-self/schedstat; a stall less that wait is the time the exporter itself held
 * the loop.
 */
import { closeSync, openSync, readSync } from "node:fs";

/** The calling thread's time spent waiting for a CPU so far, in ms. */
export type CpuWaitReader = () => number;

/**
 * A reader of the calling thread's run-queue wait (the second field of
 * /proc/thread-self/schedstat, in ns), or undefined where the kernel does not offer it. Call
 * the reader on the thread to measure: the file is per thread.
 */
export function threadCpuWaitReader(path = "/proc/thread-self/schedstat"): CpuWaitReader | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  const buf = Buffer.alloc(128);
  const read = (): number | undefined => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    const wait = Number(buf.toString("latin1", 0, n).split(" ")[1]);
    return Number.isFinite(wait) ? wait / 1e6 : undefined;
  };
  if (read() === undefined) {
    closeSync(fd);
    return undefined;
  }
  return () => read() ?? Number.NaN;
}

/** The stalls of one window. */
export interface Stalls {
  /** Longest delay of a tick past its interval. */
  readonly maxMs: number;
  /** Longest delay less the thread's wait for a CPU during it; null when the wait is unknown. */
  readonly ownMaxMs: number | null;
  /** The wait for a CPU inside the longest delay; null when unknown. */
  readonly cpuWaitInMaxMs: number | null;
}

/**
 * Fed one tick of an interval timer at a time (monotonic ms, and the thread's CPU wait so far
 * when known); `take` reports the window since the previous take.
 */
export class StallMeter {
  private lastMs: number | undefined;
  private lastWaitMs: number | undefined;
  private maxMs = 0;
  private ownMaxMs = 0;
  private cpuWaitInMaxMs = 0;
  private waitKnown = true;

  constructor(private readonly intervalMs: number) {}

  tick(nowMs: number, cpuWaitMs: number | undefined): void {
    const known = cpuWaitMs !== undefined && Number.isFinite(cpuWaitMs);
    if (this.lastMs !== undefined) {
      const delay = Math.max(0, nowMs - this.lastMs - this.intervalMs);
      const waited =
        known && this.lastWaitMs !== undefined ? Math.max(0, cpuWaitMs - this.lastWaitMs) : undefined;
      if (waited === undefined) this.waitKnown = false;
      if (delay > this.maxMs) {
        this.maxMs = delay;
        this.cpuWaitInMaxMs = waited ?? 0;
      }
      this.ownMaxMs = Math.max(this.ownMaxMs, Math.max(0, delay - (waited ?? 0)));
    }
    this.lastMs = nowMs;
    this.lastWaitMs = known ? cpuWaitMs : undefined;
  }

  take(): Stalls {
    const out: Stalls = {
      maxMs: this.maxMs,
      ownMaxMs: this.waitKnown ? this.ownMaxMs : null,
      cpuWaitInMaxMs: this.waitKnown ? this.cpuWaitInMaxMs : null,
    };
    this.maxMs = 0;
    this.ownMaxMs = 0;
    this.cpuWaitInMaxMs = 0;
    this.waitKnown = true;
    return out;
  }
}
