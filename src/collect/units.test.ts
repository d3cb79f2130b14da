import { describe, expect, it } from "vitest";
import { parseUnit, toBaseUnit, type UnitKind } from "./units.js";

describe("toBaseUnit", () => {
  it.each<[unit: string, kind: UnitKind, value: number, expected: number]>([
    // ratio
    ["percent", "ratio", 55.5, 0.555],
    ["Percent", "ratio", 12, 0.12],
    ["%", "ratio", 100, 1],
    [" PERCENTAGE ", "ratio", 7, 0.07],
    ["ratio", "ratio", 0.25, 0.25],
    // bytes
    ["GB", "bytes", 1.5, 1.5e9],
    ["gb", "bytes", 2, 2e9],
    ["gigabytes", "bytes", 1, 1e9],
    ["MB", "bytes", 3, 3e6],
    ["KB", "bytes", 4, 4e3],
    ["GiB", "bytes", 1, 2 ** 30],
    ["MiB", "bytes", 2, 2 * 2 ** 20],
    ["KiB", "bytes", 1, 1024],
    ["B", "bytes", 42, 42],
    ["bytes", "bytes", 42, 42],
    ["Byte", "bytes", 1, 1],
    // seconds
    ["ms", "seconds", 12.5, 0.0125],
    ["millisecond", "seconds", 250, 0.25],
    ["Milliseconds", "seconds", 1000, 1],
    ["s", "seconds", 3, 3],
    ["sec", "seconds", 3, 3],
    ["seconds", "seconds", 3, 3],
    ["us", "seconds", 1500, 0.0015],
    ["\u00b5s", "seconds", 2, 2e-6],
    ["\u03bcs", "seconds", 2, 2e-6],
    // per second, from per minute
    ["count/min", "per_second", 120, 2],
    ["counts/min", "per_second", 90, 1.5],
    ["Counts / Min", "per_second", 60, 1],
    ["/min", "per_second", 30, 0.5],
    ["per minute", "per_second", 6, 0.1],
    ["count per minute", "per_second", 60, 1],
    ["req/min", "per_second", 600, 10],
    ["requests/minute", "per_second", 60, 1],
    ["rpm", "per_second", 60, 1],
    ["RPM", "per_second", 120, 2],
    // per second, as is
    ["count/s", "per_second", 7, 7],
    ["counts/sec", "per_second", 7, 7],
    ["/s", "per_second", 7, 7],
    ["per second", "per_second", 7, 7],
    ["qps", "per_second", 7, 7],
    ["rps", "per_second", 7, 7],
    ["QPS", "per_second", 7, 7],
    // counts
    ["count", "count", 1234, 1234],
    ["counts", "count", 5, 5],
    ["Count", "count", 5, 5],
    ["", "count", 5, 5],
    ["  ", "count", 5, 5],
  ])("%j as %s: %d -> %d", (unit, kind, value, expected) => {
    expect(toBaseUnit(value, unit, kind)).toBeCloseTo(expected, 12);
  });

  it.each<[unit: string, kind: UnitKind]>([
    ["ms", "ratio"],
    ["percent", "seconds"],
    ["GB", "count"],
    ["count", "per_second"],
    ["count/min", "count"],
    ["s", "per_second"],
    ["", "ratio"],
  ])("refuses %j for a %s family (another kind)", (unit, kind) => {
    expect(toBaseUnit(1, unit, kind)).toBeUndefined();
  });

  it("divides exactly rather than multiplying by an inexact fraction", () => {
    expect(toBaseUnit(55.5, "percent", "ratio")).toBe(0.555);
    expect(toBaseUnit(12.5, "ms", "seconds")).toBe(0.0125);
  });
});

describe("parseUnit", () => {
  it.each(["furlongs", "ms/s", "count/fortnight", "GB/min", "count/min/s", "degrees", "percent/min"])(
    "does not recognise %j",
    (unit) => {
      expect(parseUnit(unit)).toBeUndefined();
    },
  );

  it.each<[unit: string, kind: UnitKind]>([
    ["percent", "ratio"],
    ["GB", "bytes"],
    ["ms", "seconds"],
    ["count/min", "per_second"],
    ["count", "count"],
  ])("gives %j the kind %s", (unit, kind) => {
    expect(parseUnit(unit)?.kind).toBe(kind);
  });
});
