import { describe, expect, it } from "vitest";
import { budgetBound, describeFirstCycle, firstCycleCheck } from "./firstCycle.js";

const calls = {
  "POST /v2/clusters/{id}/metrics/query": 816,
  "GET /v2/clusters/{id}": 812,
  "GET /v2/regions": 1,
};

describe("the first cycle against its budget-bound minimum", () => {
  it.each([
    { durationMs: 45_000, rateLimited: 0, ratio: 1.1, pass: true },
    { durationMs: 61_200, rateLimited: 0, ratio: 1.5, pass: true },
    { durationMs: 61_300, rateLimited: 0, ratio: 1.5, pass: false },
    { durationMs: 45_000, rateLimited: 1, ratio: 1.1, pass: false },
    { durationMs: 297_000, rateLimited: 0, ratio: 7.28, pass: false },
  ])(
    "$durationMs ms, $rateLimited rate-limit answers: $ratio x, pass $pass",
    ({ durationMs, rateLimited, ratio, pass }) => {
      const cycle = { durationMs, calls, ratePerSecond: 20, rateLimited };
      // The busiest endpoint: 816 calls at 20 per second, 40.8 s.
      expect(budgetBound(cycle)).toMatchObject({
        endpoint: "POST /v2/clusters/{id}/metrics/query",
        calls: 816,
      });
      expect(budgetBound(cycle).minimumMs).toBeCloseTo(40_800, 6);
      expect(budgetBound(cycle).ratio).toBeCloseTo(ratio, 2);
      expect(firstCycleCheck(cycle).pass).toBe(pass);
    },
  );

  it("says the figures behind the verdict", () => {
    expect(describeFirstCycle({ durationMs: 52_100, calls, ratePerSecond: 20, rateLimited: 0 })).toBe(
      "first cycle 52.1 s against a budget-bound minimum of 40.8 s (POST /v2/clusters/{id}/metrics/query: 816 distinct calls at 20/s) = 1.28x, 0 rate-limit answers",
    );
  });

  it("fails a cycle with no calls counted", () => {
    expect(firstCycleCheck({ durationMs: 1_000, calls: {}, ratePerSecond: 20, rateLimited: 0 }).pass).toBe(
      false,
    );
  });
});
