import { describe, expect, it } from "vitest";
import {
  admittedPerSecond,
  type BudgetResult,
  budgetChecks,
  countWindows,
  fitsUsableRate,
  pollGaps,
} from "./budgetAnalysis.js";
import type { LoggedRequest } from "./cycles.js";

const req = (atMs: number, target: string, status = 200): LoggedRequest => ({ atMs, target, status });

const LOG: LoggedRequest[] = [
  req(900, "a"), // before the range
  req(1_000, "a"),
  req(1_500, "b"),
  req(2_000, "b", 429),
  req(2_100, "b"),
  req(31_000, "a"),
  req(40_000, "a"),
  req(61_000, "b"),
  req(95_000, "a"), // after the range
];

describe("countWindows", () => {
  it("counts requests, admitted ones and distinct admitted targets per window", () => {
    expect(countWindows(LOG, 30_000, 1_000, 3)).toEqual([
      { requests: 4, admitted: 3, distinctTargets: 2 },
      { requests: 2, admitted: 2, distinctTargets: 1 },
      { requests: 1, admitted: 1, distinctTargets: 1 },
    ]);
  });

  it("does not count a target whose only request was refused", () => {
    expect(countWindows([req(0, "a", 429)], 30_000, 0, 1)).toEqual([
      { requests: 1, admitted: 0, distinctTargets: 0 },
    ]);
  });
});

describe("admittedPerSecond", () => {
  it.each([
    [1_000, 91_000, 6 / 90],
    [1_000, 3_000, 1.5],
    [5_000, 5_000, 0],
  ])("[%d, %d) -> %d per second", (from, to, rate) => {
    expect(admittedPerSecond(LOG, from, to)).toBeCloseTo(rate, 9);
  });
});

describe("pollGaps", () => {
  it("finds the longest gap between two admitted polls of one target, and targets never polled", () => {
    // b: 1 500 -> 2 100 -> 61 000 (the 429 at 2 000 is no poll); a: 1 000 -> 31 000 -> 40 000.
    expect(pollGaps(LOG, ["a", "b", "c"], 1_000, 91_000)).toEqual({ maxGapMs: 58_900, neverPolled: 1 });
  });

  it("reads the log in time order whatever order it came in", () => {
    expect(pollGaps([req(30_000, "a"), req(0, "a"), req(10_000, "a")], ["a"], 0, 60_000)).toEqual({
      maxGapMs: 20_000,
      neverPolled: 0,
    });
  });
});

describe("fitsUsableRate", () => {
  it.each([
    [540, true],
    [545, true],
    [546, false],
    [570, false],
    [600, false],
  ])("%d targets at PT30S -> %s", (targets, fits) => {
    expect(fitsUsableRate(targets)).toBe(fits);
  });
});

describe("budgetChecks", () => {
  const base: BudgetResult = {
    percent: 90,
    mode: "sliding",
    targets: 540,
    checkConfig: "fits",
    firstCycleMs: 30_000,
    requests: 2_160,
    rateLimited: 0,
    rateLimitedObserved: 0,
    effectivePerSecond: 18,
    slotCycles: [0, 1, 2].map((cycle) => ({ cycle, requests: 540, distinctTargets: 540, rateLimited: 0 })),
    windows: [],
    gaps: { maxGapMs: 31_000, neverPolled: 0 },
    skippedAtStart: 0,
    skippedSteady: 0,
    exporterRateLimited: 0,
  };
  const over: BudgetResult = {
    ...base,
    percent: 110,
    targets: 660,
    checkConfig: "EXCEEDS the budget: needs an interval of at least PT35S",
    requests: 3_000,
    rateLimited: 29,
    gaps: { maxGapMs: 62_000, neverPolled: 0 },
    skippedSteady: 250,
  };
  const passes = (r: BudgetResult) => budgetChecks(r).map((c) => c.pass);

  it.each([
    ["within the budget, all held", base, [true, true, true]],
    ["a fits verdict missing", { ...base, checkConfig: "EXCEEDS the budget" }, [false, true, true]],
    ["one rate-limit answer", { ...base, rateLimited: 1 }, [true, false, true]],
    [
      "a target missing from a cycle",
      { ...base, slotCycles: [{ cycle: 0, requests: 539, distinctTargets: 539, rateLimited: 0 }] },
      [true, true, false],
    ],
    ["a skipped slot", { ...base, skippedSteady: 1 }, [true, true, false]],
    ["beyond the budget, all held", over, [true, true, true]],
    ["beyond, said to fit", { ...over, checkConfig: "fits" }, [false, true, true]],
    ["beyond, 1% rate-limited", { ...over, rateLimited: 30 }, [true, false, true]],
    [
      "beyond, a target skipped twice in a row",
      { ...over, gaps: { maxGapMs: 89_000, neverPolled: 0 } },
      [true, true, false],
    ],
    [
      "beyond, a target never polled",
      { ...over, gaps: { maxGapMs: 40_000, neverPolled: 1 } },
      [true, true, false],
    ],
  ] as const)("%s", (_name, result, expected) => {
    expect(passes(result)).toEqual(expected);
  });
});
