import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultBurst, RateLimiter } from "./rateLimiter.js";

const KEY = "GET /v2/regions";

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Starts `n` acquisitions on `key` and records when (fake Date.now) and in what order each resolves. */
function queue(limiter: RateLimiter, n: number, key = KEY) {
  const times: number[] = [];
  const order: number[] = [];
  const all = Promise.all(
    Array.from({ length: n }, (_, i) =>
      limiter.acquire(key).then(() => {
        times.push(Date.now());
        order.push(i);
      }),
    ),
  );
  return { times, order, all };
}

function maxInWindow(times: readonly number[], windowMs: number): number {
  let max = 0;
  for (const start of times) {
    max = Math.max(max, times.filter((t) => t >= start && t < start + windowMs).length);
  }
  return max;
}

describe("defaultBurst", () => {
  it.each([
    [20, 10],
    [7, 3],
    [3, 1],
    [1, 1],
    [0.5, 1],
  ])("rate %d -> burst %d", (rate, burst) => {
    expect(defaultBurst(rate)).toBe(burst);
  });
});

describe("RateLimiter", () => {
  it("rejects a non-positive rate", () => {
    expect(() => new RateLimiter({ rate: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ rate: 5, burst: 0 })).toThrow(RangeError);
  });

  it("grants the burst at once, then waits", async () => {
    const limiter = new RateLimiter({ rate: 20 });
    const q = queue(limiter, 11);
    await vi.advanceTimersByTimeAsync(0);
    expect(q.times).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(49);
    expect(q.times).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.times).toHaveLength(11);
    await q.all;
  });

  it.each([20, 4, 3])("never grants more than rate=%d in any 1 s window after the burst", async (rate) => {
    const limiter = new RateLimiter({ rate });
    const n = rate * 5 + defaultBurst(rate);
    const q = queue(limiter, n);
    await vi.advanceTimersByTimeAsync(10_000);
    await q.all;
    const afterBurst = q.times.slice(defaultBurst(rate));
    expect(maxInWindow(afterBurst, 1000)).toBeLessThanOrEqual(rate);
    // ...and it does use the budget: the whole queue drains in about five seconds.
    expect(q.times.at(-1)).toBeLessThanOrEqual(1_000_000 + 5_000 + 1_000 / rate + 1);
  });

  it("serves waiters in FIFO order", async () => {
    const limiter = new RateLimiter({ rate: 2, burst: 1 });
    const q = queue(limiter, 6);
    await vi.advanceTimersByTimeAsync(5_000);
    await q.all;
    expect(q.order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("keeps a newcomer behind the queue even when a token has accrued", async () => {
    const limiter = new RateLimiter({ rate: 1, burst: 1 });
    const order: string[] = [];
    await limiter.acquire(KEY);
    const first = limiter.acquire(KEY).then(() => order.push("first"));
    await vi.advanceTimersByTimeAsync(999);
    const second = limiter.acquire(KEY).then(() => order.push("second"));
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all([first, second]);
    expect(order).toEqual(["first", "second"]);
  });

  it("keeps one timer per bucket however many wait", async () => {
    const limiter = new RateLimiter({ rate: 1, burst: 1 });
    const q = queue(limiter, 50);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    await q.all;
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps buckets of different keys independent", async () => {
    const limiter = new RateLimiter({ rate: 1, burst: 1 });
    await limiter.acquire("a");
    let bGranted = false;
    void limiter.acquire("b").then(() => {
      bGranted = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(bGranted).toBe(true);
  });

  it("rejects an aborted waiter, gives its turn to the next, and stops the timer when none is left", async () => {
    const limiter = new RateLimiter({ rate: 1, burst: 1 });
    await limiter.acquire(KEY);
    const ctl = new AbortController();
    const aborted = limiter.acquire(KEY, ctl.signal);
    const next = queue(limiter, 1);
    ctl.abort(new Error("shutdown"));
    await expect(aborted).rejects.toThrow("shutdown");
    await vi.advanceTimersByTimeAsync(1_000);
    // The aborted waiter took no token: the next one got the first refill.
    expect(next.times).toEqual([1_001_000]);

    const lone = new AbortController();
    const pending = limiter.acquire(KEY, lone.signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    lone.abort();
    await expect(pending).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at once for an already aborted signal", async () => {
    const limiter = new RateLimiter({ rate: 10 });
    await expect(limiter.acquire(KEY, AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
  });

  it("pauses a penalized key for the given time, then refills from empty", async () => {
    const limiter = new RateLimiter({ rate: 10, burst: 5 });
    limiter.penalize(KEY, 2_000);
    const q = queue(limiter, 1);
    const other = queue(limiter, 1, "other");
    await vi.advanceTimersByTimeAsync(0);
    expect(other.times).toEqual([1_000_000]);
    await vi.advanceTimersByTimeAsync(2_099);
    expect(q.times).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.times).toEqual([1_002_100]);
  });

  it("keeps the longer of two pauses", async () => {
    const limiter = new RateLimiter({ rate: 10, burst: 1 });
    limiter.penalize(KEY, 3_000);
    limiter.penalize(KEY, 1_000);
    const q = queue(limiter, 1);
    await vi.advanceTimersByTimeAsync(3_099);
    expect(q.times).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.times).toEqual([1_003_100]);
  });
});
