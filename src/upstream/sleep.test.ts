import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { abortReason, sleep, sleepOn, type Timers } from "./sleep.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("sleep", () => {
  it("resolves only once the time has passed", async () => {
    let done = false;
    const pending = sleep(100).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(done).toBe(true);
  });

  it("rejects with the signal's reason on abort and clears its timer", async () => {
    const ctl = new AbortController();
    const pending = sleep(10_000, ctl.signal);
    expect(vi.getTimerCount()).toBe(1);
    ctl.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at once for an aborted signal, without a timer", async () => {
    await expect(sleep(10, AbortSignal.abort(new Error("pre")))).rejects.toThrow("pre");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("abortReason", () => {
  it("gives the signal's reason, or an AbortError", () => {
    expect(abortReason(AbortSignal.abort("why"))).toBe("why");
    const ctl = new AbortController();
    Object.defineProperty(ctl.signal, "reason", { value: undefined });
    expect((abortReason(ctl.signal) as DOMException).name).toBe("AbortError");
  });
});

/** Timers whose time moves only on `advance`, firing what comes due. */
function steppedTimers(): Timers & { advance(ms: number): void; pending(): number } {
  let t = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => t,
    setTimeout(fn, ms) {
      timers.set(++seq, { at: t + ms, fn });
      return seq;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      t += ms;
      for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > t) break;
        timers.delete(id);
        timer.fn();
      }
    },
    pending: () => timers.size,
  };
}

describe("sleepOn", () => {
  it.each([
    { ms: 100, steps: [99, 1], resolvedAfter: 2 },
    { ms: 0, steps: [0], resolvedAfter: 1 },
    { ms: -5, steps: [0], resolvedAfter: 1 },
    { ms: 1_000, steps: [400, 400, 400], resolvedAfter: 3 },
  ])("sleeps $ms ms on the given timers, not the global ones", async ({ ms, steps, resolvedAfter }) => {
    const timers = steppedTimers();
    let done = false;
    const pending = sleepOn(timers)(ms).then(() => {
      done = true;
    });
    // The global (fake) timers never fire it.
    await vi.advanceTimersByTimeAsync(10 * Math.max(ms, 1));
    expect(done).toBe(false);
    for (const [i, step] of steps.entries()) {
      timers.advance(step);
      await Promise.resolve();
      expect(done).toBe(i + 1 >= resolvedAfter);
    }
    await pending;
    expect(timers.pending()).toBe(0);
  });

  it("clears its timer and rejects with the signal's reason on abort", async () => {
    const timers = steppedTimers();
    const ctl = new AbortController();
    const pending = sleepOn(timers)(10_000, ctl.signal);
    expect(timers.pending()).toBe(1);
    ctl.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    expect(timers.pending()).toBe(0);
  });

  it("rejects at once for an aborted signal, without a timer", async () => {
    const timers = steppedTimers();
    await expect(sleepOn(timers)(10, AbortSignal.abort(new Error("pre")))).rejects.toThrow("pre");
    expect(timers.pending()).toBe(0);
  });
});
