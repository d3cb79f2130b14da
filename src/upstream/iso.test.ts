import { describe, expect, it } from "vitest";
import { formatIsoUtcSeconds, parseTimestamp } from "./iso.js";

describe("formatIsoUtcSeconds", () => {
  it.each([
    { ms: Date.UTC(2024, 4, 1, 12, 0, 0), expected: "2024-05-01T12:00:00Z" },
    { ms: Date.UTC(2024, 4, 1, 12, 0, 0, 999), expected: "2024-05-01T12:00:00Z" },
  ])("$ms -> $expected", ({ ms, expected }) => {
    expect(formatIsoUtcSeconds(ms)).toBe(expected);
  });
});

describe("parseTimestamp", () => {
  const t = Date.UTC(2024, 4, 1, 12, 0, 0);
  it.each<{ value: string | number; expected: number | undefined }>([
    { value: "2024-05-01T12:00:00Z", expected: t },
    { value: "2024-05-01T12:00:00.000Z", expected: t },
    { value: "2024-05-01T14:00:00+02:00", expected: t },
    { value: "2024-05-01T12:00:00", expected: t },
    { value: t, expected: t },
    { value: t / 1000, expected: t },
    { value: String(t / 1000), expected: t },
    { value: "yesterday", expected: undefined },
    { value: "2024-13-45T99:00:00Z", expected: undefined },
    { value: Number.NaN, expected: undefined },
  ])("$value -> $expected", ({ value, expected }) => {
    expect(parseTimestamp(value)).toBe(expected);
  });
});

describe("zone-less timestamps are UTC, whatever the machine's time zone", () => {
  it.each(["Asia/Shanghai", "America/Los_Angeles", "UTC"])("TZ=%s", (tz) => {
    const saved = process.env.TZ;
    process.env.TZ = tz;
    try {
      expect(parseTimestamp("2024-05-01T12:00:00")).toBe(Date.UTC(2024, 4, 1, 12, 0, 0));
      expect(parseTimestamp("2024-05-01T12:00")).toBe(Date.UTC(2024, 4, 1, 12, 0, 0));
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});
