import { describe, expect, it } from "vitest";
import { DurationError, formatDuration, parseDuration } from "./duration.js";

describe("parseDuration", () => {
  it.each([
    ["PT30S", 30_000],
    ["PT1M", 60_000],
    ["PT1M30S", 90_000],
    ["PT1H30M", 5_400_000],
    ["PT1H", 3_600_000],
    ["P1D", 86_400_000],
    ["P1DT1H", 90_000_000],
    ["P1W", 604_800_000],
    ["PT0.5S", 500],
    ["PT1.1S", 1100],
    ["PT1,5S", 1500],
    ["PT0.001S", 1],
    ["PT0S", 0],
    ["PT90S", 90_000],
  ])("%s is %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ["P1M", "years or months"],
    ["P1Y", "years or months"],
    ["P1Y2D", "years or months"],
    ["-PT5S", "negative"],
    ["PT-5S", "is not an ISO 8601 duration"],
    ["30s", "not an ISO 8601 duration"],
    ["pt30s", "not an ISO 8601 duration"],
    ["PT", "not an ISO 8601 duration"],
    ["P", "not an ISO 8601 duration"],
    ["P1DT", "not an ISO 8601 duration"],
    ["xPT30S", "not an ISO 8601 duration"],
    ["PT30Sx", "not an ISO 8601 duration"],
    ["PT30M1H", "not an ISO 8601 duration"],
    ["", "not an ISO 8601 duration"],
    ["PT0.0001S", "more precise than a millisecond"],
  ])("rejects %j (%s)", (text, message) => {
    expect(() => parseDuration(text)).toThrow(DurationError);
    expect(() => parseDuration(text)).toThrow(message);
  });

  it("gives errors a stable code", () => {
    try {
      parseDuration("P1M");
      expect.unreachable();
    } catch (err) {
      expect((err as DurationError).code).toBe("duration_invalid");
    }
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "PT0S"],
    [500, "PT0.5S"],
    [1100, "PT1.1S"],
    [30_000, "PT30S"],
    [60_000, "PT1M"],
    [90_000, "PT1M30S"],
    [3_600_000, "PT1H"],
    [5_400_000, "PT1H30M"],
    [86_400_000, "P1D"],
    [90_061_001, "P1DT1H1M1.001S"],
  ])("%d ms is %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects %d", (ms) => {
    expect(() => formatDuration(ms)).toThrow(RangeError);
  });
});
