import { describe, expect, it } from "vitest";
import { alignedWindow, metricsTargetName } from "./tasks.js";

const MIN = 60_000;

describe("alignedWindow", () => {
  it.each([
    {
      name: "on a boundary",
      now: 10 * MIN,
      gran: MIN,
      lookback: 5 * MIN,
      want: { startMs: 5 * MIN, endMs: 10 * MIN },
    },
    {
      name: "mid-bucket ends at the last boundary",
      now: 10 * MIN + 59_999,
      gran: MIN,
      lookback: 5 * MIN,
      want: { startMs: 5 * MIN, endMs: 10 * MIN },
    },
    {
      name: "30 s granularity",
      now: 10 * MIN + 45_000,
      gran: 30_000,
      lookback: 5 * MIN,
      want: { startMs: 5 * MIN + 30_000, endMs: 10 * MIN + 30_000 },
    },
    {
      name: "lookback rounded up to whole steps",
      now: 10 * MIN,
      gran: MIN,
      lookback: 150_000,
      want: { startMs: 7 * MIN, endMs: 10 * MIN },
    },
    {
      name: "lookback below one step asks one bucket",
      now: 10 * MIN,
      gran: MIN,
      lookback: 1_000,
      want: { startMs: 9 * MIN, endMs: 10 * MIN },
    },
  ])("$name", ({ now, gran, lookback, want }) => {
    const w = alignedWindow(now, gran, lookback);
    expect(w).toEqual(want);
    expect(w.endMs % gran).toBe(0);
    expect(w.startMs % gran).toBe(0);
  });
});

describe("metricsTargetName", () => {
  it.each([
    [undefined, "in01-a"],
    [{ dbName: "default", collectionName: "docs" }, "in01-a/default/docs"],
    [{ dbName: "analytics" }, "in01-a/analytics/"],
    [{ collectionName: "docs" }, "in01-a//docs"],
  ])("%j -> %s", (scope, want) => {
    expect(metricsTargetName("in01-a", scope)).toBe(want);
  });
});
