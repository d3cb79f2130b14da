import { describe, expect, it } from "vitest";
import { offsetFor } from "../src/schedule/scheduler.js";
import { countCycles, cycleOf, type LoggedRequest } from "./cycles.js";

const I = 30_000;
const CLUSTERS = ["in01-a", "in01-b", "in01-c", "in01-d"];
const offset = (id: string) => offsetFor(`cluster_metrics/${id}`, I);

/** One request per cluster per cycle k in [from, to], made `delayMs` after its slot. */
function steady(from: number, to: number, delayMs = 0): LoggedRequest[] {
  const out: LoggedRequest[] = [];
  for (let k = from; k <= to; k++) {
    for (const id of CLUSTERS) out.push({ atMs: k * I + offset(id) + delayMs, clusterId: id, status: 200 });
  }
  return out;
}

describe("cycleOf", () => {
  it.each([
    { delay: 0, want: 100 },
    { delay: 1, want: 100 },
    { delay: I - 1, want: 100 },
    { delay: I, want: 101 },
  ])("a request $delay ms after its slot of cycle 100 is in cycle $want", ({ delay, want }) => {
    for (const id of CLUSTERS) expect(cycleOf(100 * I + offset(id) + delay, id, I)).toBe(want);
  });
});

describe("countCycles", () => {
  it("counts one request per target per cycle, however late the limiter made it", () => {
    const log = steady(100, 104, 7_000);
    const counts = countCycles(log, I, 100 * I, 106 * I, 10_000);
    expect(counts.map((c) => [c.cycle, c.requests, c.distinctTargets])).toEqual([
      [100, 4, 4],
      [101, 4, 4],
      [102, 4, 4],
      [103, 4, 4],
      [104, 4, 4],
    ]);
  });

  it("keeps only cycles that start after `from` and ended before `to` minus the margin", () => {
    const counts = countCycles(steady(90, 110), I, 100 * I + 1, 105 * I + 5_000, 5_000);
    expect(counts.map((c) => c.cycle)).toEqual([101, 102, 103, 104]);
  });

  it("shows a skipped run, a repeated request and rate-limit answers", () => {
    const skipped = 100 * I + offset("in01-b");
    const log = steady(100, 102).filter((r) => r.atMs !== skipped || r.clusterId !== "in01-b");
    const extra = { atMs: 102 * I + offset("in01-c") + 2_000, clusterId: "in01-c", status: 429 };
    const counts = countCycles([...log, extra], I, 100 * I, 104 * I, 0);
    expect(counts.map((c) => [c.cycle, c.requests, c.distinctTargets, c.rateLimited])).toEqual([
      [100, 3, 3, 0],
      [101, 4, 4, 0],
      [102, 5, 4, 1],
      [103, 0, 0, 0],
    ]);
  });
});
