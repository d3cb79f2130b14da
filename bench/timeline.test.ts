import { describe, expect, it } from "vitest";
import { tailCause } from "./steady.js";
import { overlapByKind, type TimelineEvent } from "./timeline.js";

const ev = (kind: TimelineEvent["kind"], startMs: number, ms: number): TimelineEvent => ({
  kind,
  startMs,
  ms,
});

describe("overlapByKind", () => {
  it.each([
    { name: "nothing meanwhile", events: [], want: { gc: 0, put: 0, publish: 0, stall: 0, wait: 0 } },
    {
      name: "a GC inside",
      events: [ev("gc", 1002, 5)],
      want: { gc: 5, put: 0, publish: 0, stall: 0, wait: 0 },
    },
    {
      name: "a publish begun before",
      events: [ev("publish", 990, 15)],
      want: { gc: 0, put: 0, publish: 5, stall: 0, wait: 0 },
    },
    {
      name: "a stall running past the end",
      events: [ev("stall", 1015, 20)],
      want: { gc: 0, put: 0, publish: 0, stall: 5, wait: 0 },
    },
    {
      name: "events outside",
      events: [ev("gc", 900, 50), ev("put", 1020, 3)],
      want: { gc: 0, put: 0, publish: 0, stall: 0, wait: 0 },
    },
    {
      name: "two puts add up",
      events: [ev("put", 1001, 2), ev("put", 1010, 3)],
      want: { gc: 0, put: 5, publish: 0, stall: 0, wait: 0 },
    },
  ])("$name", ({ events, want }) => {
    expect(overlapByKind({ startMs: 1000, ms: 20 }, events)).toEqual(want);
  });
});

describe("tailCause", () => {
  it("counts only the scrapes over the threshold, and the stall time GC and the store do not explain", () => {
    const spans = [
      { startMs: 0, ms: 10 },
      { startMs: 100, ms: 40 },
      { startMs: 200, ms: 30 },
    ];
    const events = [
      ev("gc", 5, 3),
      ev("gc", 110, 10),
      ev("stall", 108, 14),
      ev("stall", 205, 12),
      ev("publish", 204, 4),
      ev("wait", 220, 6),
    ];
    const t = tailCause(spans, 20, events);
    expect(t.scrapes).toBe(2);
    expect(t.ms).toBe(70);
    expect(t.by.gc).toEqual({ scrapes: 1, ms: 10 });
    expect(t.by.publish).toEqual({ scrapes: 1, ms: 4 });
    // 14 ms of stall around a 10 ms GC: 4 ms unexplained; 12 ms around a 4 ms publish: 8.
    expect(t.by.stall).toEqual({ scrapes: 2, ms: 12 });
    expect(t.by.put).toEqual({ scrapes: 0, ms: 0 });
    // The wait for a CPU is its own column, not the exporter's stall.
    expect(t.by.wait).toEqual({ scrapes: 1, ms: 6 });
  });
});
