/**
 * The limiter's two lanes: background requests (a canary's probes) take only the turns the
 * foreground ones (the polls) leave, and both together stay within the key's budget.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Lane, RateLimiter } from "./rateLimiter.js";

const KEY = "data-plane";

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Grants `lanes` in order (all asked at once) and records which lane each grant served, and when. */
function ask(limiter: RateLimiter, lanes: readonly Lane[]) {
  const served: { lane: Lane; i: number; at: number }[] = [];
  const all = Promise.all(
    lanes.map((lane, i) =>
      limiter.grant(KEY, undefined, lane).then((permit) => {
        served.push({ lane, i, at: Date.now() });
        permit.sent();
        permit.release();
      }),
    ),
  );
  return { served, all };
}

describe("lanes", () => {
  it("serve every waiting foreground request before any background one, each lane in order", async () => {
    const limiter = new RateLimiter({ rate: 2, marginMs: 0 });
    const { served, all } = ask(limiter, [
      "background",
      "foreground",
      "background",
      "foreground",
      "foreground",
    ]);
    await vi.runAllTimersAsync();
    await all;
    // The first background request came to an idle key and went at once; then the foreground ones.
    expect(served.map((s) => s.i)).toEqual([0, 1, 3, 4, 2]);
  });

  it("a foreground request that comes later still goes ahead of the background ones waiting", async () => {
    const limiter = new RateLimiter({ rate: 1, marginMs: 0 });
    const first = ask(limiter, ["foreground", "background", "background"]);
    await vi.advanceTimersByTimeAsync(10);
    const later = ask(limiter, ["foreground"]);
    await vi.runAllTimersAsync();
    await Promise.all([first.all, later.all]);
    const byTime = [...first.served, ...later.served.map((s) => ({ ...s, i: 9 }))]
      .sort((x, y) => x.at - y.at)
      .map((s) => (s.i === 9 ? "later" : `${s.lane}#${s.i}`));
    expect(byTime).toEqual(["foreground#0", "later", "background#1", "background#2"]);
  });

  it("keep both lanes together within the budget: never more than `rate` grants in a window", async () => {
    const limiter = new RateLimiter({ rate: 3, marginMs: 0 });
    const lanes: Lane[] = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? "background" : "foreground"));
    const { served, all } = ask(limiter, lanes);
    await vi.runAllTimersAsync();
    await all;
    const times = served.map((s) => s.at);
    for (const start of times)
      expect(times.filter((t) => t >= start && t < start + 1_000).length).toBeLessThanOrEqual(3);
    // The first came to an idle key; every other background request went after every
    // foreground one: the foreground requests never waited for them.
    expect(served.map((s) => s.lane)).toEqual([
      "background",
      ...Array(8).fill("foreground"),
      ...Array(3).fill("background"),
    ]);
  });
});
