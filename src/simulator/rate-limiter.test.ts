import { describe, expect, it } from "vitest";
import { createRateLimiter, RATE_LIMIT_MODES, type RateLimitMode } from "./rate-limiter.js";

/** Offers one request at each time (ms) on key "k"; returns the admitted times. */
function admitted(mode: RateLimitMode, rate: number, times: readonly number[]): number[] {
  let now = 0;
  const limiter = createRateLimiter(mode, rate, () => now);
  return times.filter((t) => {
    now = t;
    return limiter.take("k");
  });
}

function maxInSlidingSecond(times: readonly number[]): number {
  return Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + 1000).length));
}

/** `n` requests at `at`. */
const burst = (at: number, n: number) => Array.from({ length: n }, () => at);
/** One request every `stepMs` from `from` until before `to`. */
const steady = (from: number, to: number, stepMs: number) =>
  Array.from({ length: Math.ceil((to - from) / stepMs) }, (_, i) => from + i * stepMs);

describe("simulator rate limiter", () => {
  // The pattern that tells the modes apart: 20 just before a calendar second ends and 20
  // just after it (40 in 20 ms), then 20 more half a second later.
  const edge = [...burst(1_990, 20), ...burst(2_010, 20), ...burst(2_500, 20)];
  it.each([
    // Calendar seconds: 20 in [1 s, 2 s) and 20 in [2 s, 3 s); the third burst is refused.
    ["fixed", 40],
    // Any one-second window: the second and third bursts come within a second of the first.
    ["sliding", 20],
    // A full bucket of 20, refilled 0.4 token by 2.01 s and 10 by 2.5 s.
    ["token_bucket", 30],
  ] as const)("%s admits %d of a burst around a second boundary", (mode, expected) => {
    expect(admitted(mode, 20, edge)).toHaveLength(expected);
  });

  it("sliding never admits more than `rate` in any one-second window, and admits at rate steadily", () => {
    // 40 requests per second for 10 s.
    const times = admitted("sliding", 20, steady(0, 10_000, 25));
    expect(maxInSlidingSecond(times)).toBe(20);
    expect(times.length).toBeGreaterThanOrEqual(199);
  });

  it.each(RATE_LIMIT_MODES)("%s admits a sender that keeps to `rate` in every sliding second", (mode) => {
    // 20 at once every 1 000 ms, then one every 50 ms: the two ways to use the whole budget.
    const bursts = [0, 1_000, 2_000, 3_000].flatMap((t) => burst(t, 20));
    const spaced = steady(4_000, 9_000, 50);
    const offered = [...bursts, ...spaced];
    expect(maxInSlidingSecond(offered)).toBe(20);
    expect(admitted(mode, 20, offered)).toHaveLength(offered.length);
  });

  it.each(RATE_LIMIT_MODES)("%s keeps one budget per key", (mode) => {
    const limiter = createRateLimiter(mode, 1, () => 0);
    expect(limiter.take("a")).toBe(true);
    expect(limiter.take("a")).toBe(false);
    expect(limiter.take("b")).toBe(true);
  });

  it.each(RATE_LIMIT_MODES)("%s is disabled at rate 0", (mode) => {
    const limiter = createRateLimiter(mode, 0, () => 0);
    expect(Array.from({ length: 100 }, () => limiter.take("k")).every(Boolean)).toBe(true);
  });

  it.each(RATE_LIMIT_MODES)("%s admits nothing more when the clock steps back", (mode) => {
    expect(admitted(mode, 1, [10_000, 0, 500])).toEqual([10_000]);
  });

  it("token_bucket refills at `rate` per second up to `rate`", () => {
    expect(admitted("token_bucket", 20, [...burst(0, 21), 50, 50])).toHaveLength(21);
    expect(admitted("token_bucket", 20, [...burst(0, 20), ...burst(60_000, 21)])).toHaveLength(40);
  });
});
