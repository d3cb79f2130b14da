import type { Clock } from "../../src/scheduler/scheduler.js";

/**
 * A clock whose time moves only when a test says so. Timers fire in due order during
 * `advance`, with the promise queue drained between them so that polls can complete.
 */
export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  constructor(startMs: number) {
    this.t = startMs;
  }
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** Moves time forward by `ms`, firing every timer that comes due, then lets I/O settle. */
  async advance(
    ms: number,
    settle: () => Promise<void> = () => new Promise((r) => setTimeout(r, 20)),
  ): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= end && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.timers.delete(next[0]);
      this.t = Math.max(this.t, next[1].at);
      next[1].fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
}
