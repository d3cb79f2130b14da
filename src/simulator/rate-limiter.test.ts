import { describe, expect, it } from "vitest";
import { TokenBucketLimiter } from "./rate-limiter.js";

describe("TokenBucketLimiter", () => {
  it("allows a burst of `rate` and refills at `rate` per second", () => {
    let now = 1_000_000;
    const limiter = new TokenBucketLimiter(20, () => now);
    const burst = Array.from({ length: 21 }, () => limiter.take("k"));
    expect(burst.filter(Boolean)).toHaveLength(20);
    expect(burst.at(-1)).toBe(false);
    now += 50; // one token at 20/s
    expect(limiter.take("k")).toBe(true);
    expect(limiter.take("k")).toBe(false);
    now += 10_000; // capped at capacity
    expect(Array.from({ length: 21 }, () => limiter.take("k")).filter(Boolean)).toHaveLength(20);
  });

  it("keeps one bucket per key", () => {
    const limiter = new TokenBucketLimiter(1, () => 0);
    expect(limiter.take("a")).toBe(true);
    expect(limiter.take("a")).toBe(false);
    expect(limiter.take("b")).toBe(true);
  });

  it("is disabled at rate 0", () => {
    const limiter = new TokenBucketLimiter(0, () => 0);
    expect(Array.from({ length: 100 }, () => limiter.take("k")).every(Boolean)).toBe(true);
  });

  it("mints no tokens when the clock steps back", () => {
    let now = 10_000;
    const limiter = new TokenBucketLimiter(1, () => now);
    expect(limiter.take("k")).toBe(true);
    now = 0;
    expect(limiter.take("k")).toBe(false);
  });
});
