import { describe, expect, it } from "vitest";
import { ApiCode } from "./errors.js";
import { alignBuckets, parseDurationMs, parseTimestampMs, resolveWindow } from "./window.js";

const NOW = Date.UTC(2025, 0, 1, 10, 7, 45);

describe("window", () => {
  it.each([
    ["PT30S", 30_000],
    ["PT1M", 60_000],
    ["PT1H30M", 5_400_000],
    ["P1D", 86_400_000],
    ["PT0.5S", 500],
    ["P1M", undefined],
    ["P1W", undefined],
    ["30s", undefined],
    ["", undefined],
  ])("parses duration %s", (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each([
    ["2025-01-01T10:00:00Z", Date.UTC(2025, 0, 1, 10)],
    ["2025-01-01T10:00:00.250Z", Date.UTC(2025, 0, 1, 10, 0, 0, 250)],
    ["2025-01-01T12:00:00+02:00", Date.UTC(2025, 0, 1, 10)],
    ["2025-01-01T10:00:00", undefined],
    ["2025-01-01", undefined],
    ["yesterday", undefined],
  ])("parses timestamp %s", (text, ms) => {
    expect(parseTimestampMs(text)).toBe(ms);
  });

  it.each([
    [Date.UTC(2025, 0, 1, 10, 0, 0), Date.UTC(2025, 0, 1, 10, 5, 0), 60_000, 5],
    [Date.UTC(2025, 0, 1, 10, 0, 20), Date.UTC(2025, 0, 1, 10, 5, 0), 60_000, 5],
    [Date.UTC(2025, 0, 1, 10, 0, 0), Date.UTC(2025, 0, 1, 10, 5, 1), 60_000, 6],
    [Date.UTC(2025, 0, 1, 10, 0, 0), Date.UTC(2025, 0, 1, 10, 1, 0), 30_000, 2],
  ])("aligns [%i, %i) at %i ms into %i buckets on boundaries", (start, end, g, n) => {
    const buckets = alignBuckets(start, end, g);
    expect(buckets).toHaveLength(n);
    for (const t of buckets) expect(t % g).toBe(0);
    expect(buckets[0]).toBeLessThanOrEqual(start);
    expect(buckets.at(-1)).toBeLessThan(end);
  });

  it("takes a period ending now", () => {
    const w = resolveWindow({ period: "PT5M", granularity: "PT1M" }, NOW);
    expect(w.endMs).toBe(NOW);
    expect(w.startMs).toBe(NOW - 300_000);
    expect(w.buckets).toEqual(alignBuckets(NOW - 300_000, NOW, 60_000));
    expect(w.buckets).toHaveLength(6);
  });

  it.each([
    [{ period: "PT5M" }, /granularity is required/],
    [{ period: "PT5M", granularity: "PT29S" }, /at least PT30S/],
    [{ period: "PT5M", granularity: "soon" }, /not an ISO 8601 duration/],
    [{ granularity: "PT1M" }, /either start and end, or period/],
    [{ start: "2025-01-01T10:00:00Z", granularity: "PT1M" }, /together/],
    [{ start: "2025-01-01T10:05:00Z", end: "2025-01-01T10:00:00Z", granularity: "PT1M" }, /before end/],
    [{ start: "2025-01-01 10:00", end: "2025-01-01T10:05:00Z", granularity: "PT1M" }, /start is not/],
    [{ period: "P365D", granularity: "PT30S" }, /more than/],
  ])("refuses %j", (fields, message) => {
    expect(() => resolveWindow(fields, NOW)).toThrow(
      expect.objectContaining({ code: ApiCode.INVALID_PARAMETER, message: expect.stringMatching(message) }),
    );
  });
});
