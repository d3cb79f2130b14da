import { describe, expect, it } from "vitest";
import { parseUnit, scaleDecimal, toBaseUnit, type UnitKind } from "./units.js";

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

/** The rows of one conversion: each value with the decimal its result must print as. */
function conversion(
  unit: string,
  kind: UnitKind,
  cases: readonly [value: number | string, expected: string][],
): [value: number | string, unit: string, kind: UnitKind, expected: string][] {
  return cases.map(([value, expected]) => [value, unit, kind, expected]);
}

describe("exact values: the decimal the service sent, scaled, prints as that decimal", () => {
  // Each expected value is written as the decimal it must print as: `toBe` compares the exact
  // double, and String() of the result must be that text (no 0.0030399999999999997).
  it.each<[value: number | string, unit: string, kind: UnitKind, expected: string]>([
    // percent -> ratio
    ...conversion("percent", "ratio", [
      ["0.304", "0.00304"],
      [0.304, "0.00304"],
      ["1.00", "0.01"],
      ["100", "1"],
      ["100.00", "1"],
      ["99.99", "0.9999"],
      ["0.07", "0.0007"],
      [".5", "0.005"],
      ["5.", "0.05"],
      ["-0.304", "-0.00304"],
      ["+12.34", "0.1234"],
      ["3.04e-1", "0.00304"],
      ["3.04E2", "3.04"],
      [3.04e-7, "3.04e-9"],
      ["  55.5  ", "0.555"],
      ["0", "0"],
      ["0.1", "0.001"],
      ["0.3", "0.003"],
      ["33.3", "0.333"],
      ["0.123456789012345", "0.00123456789012345"],
    ]),
    // ms -> s
    ...conversion("ms", "seconds", [
      ["0.304", "0.000304"],
      ["12.5", "0.0125"],
      ["1.00", "0.001"],
      ["1000", "1"],
      [0.7, "0.0007"],
      ["1.1", "0.0011"],
      ["2.3e3", "2.3"],
    ]),
    ...conversion("us", "seconds", [["1", "0.000001"]]),
    ...conversion("ns", "seconds", [["3", "3e-9"]]),
    // GB -> bytes
    ...conversion("GB", "bytes", [
      ["0.304", "304000000"],
      ["1.1", "1100000000"],
      [0.1, "100000000"],
      ["1.00", "1000000000"],
      ["123456789.123", "123456789123000000"],
      ["1e12", "1e+21"],
    ]),
    ...conversion("MB", "bytes", [["0.001", "1000"]]),
    ...conversion("KB", "bytes", [["2.5", "2500"]]),
    // powers of two stay exact in binary
    ...conversion("GiB", "bytes", [["1", String(2 ** 30)]]),
    ...conversion("MiB", "bytes", [["0.5", String(2 ** 19)]]),
    // per minute -> per second: divisions by 60 are what they are, the tenth is moved first
    ...conversion("count/min", "per_second", [
      ["1.5", "0.025"],
      ["120", "2"],
      ["0.6", "0.01"],
    ]),
    // as is
    ...conversion("count", "count", [
      ["1.00", "1"],
      ["123456789012345678901234567890", "1.2345678901234568e+29"],
      [42, "42"],
    ]),
  ])("%j %s as %s -> %s", (value, unit, kind, expected) => {
    const got = toBaseUnit(value, unit, kind);
    expect(got).toBe(Number(expected));
    expect(String(got)).toBe(String(Number(expected)));
  });

  it.each([
    ["10.85", "10.850", "count/min"],
    ["10.85", "1.085e1", "count/min"],
    ["3.6951666", "3.69516660000", "count/min"],
    ["0.304", "0.3040", "percent"],
    ["1200", "1.2e3", "count/min"],
  ])("%j and %j are the same decimal and give the same double (%s)", (a, b, unit) => {
    const kind = parseUnit(unit)?.kind ?? "count";
    expect(toBaseUnit(a, unit, kind)).toBe(toBaseUnit(b, unit, kind));
    expect(toBaseUnit(Number(a), unit, kind)).toBe(toBaseUnit(b, unit, kind));
  });

  it.each<[value: string, bucketSeconds: number, expected: string]>([
    ["3", 30, "0.1"],
    ["0.3", 30, "0.01"],
    ["6", 60, "0.1"],
    ["1.00", 1, "1"],
  ])("a count of %j in a %d s bucket is %s per second", (value, bucketSeconds, expected) => {
    expect(toBaseUnit(value, "count", "per_second", bucketSeconds)).toBe(Number(expected));
  });

  it.each(["", ".", "abc", "0x1F", "1,5", "--1", "1e", "e5", "NaN", "Infinity"])(
    "%j is not a decimal: NaN, for the caller to drop",
    (value) => {
      expect(scaleDecimal(value, 1, 100)).toBeNaN();
    },
  );

  it.each<[value: string, expected: number]>([
    ["1e400", Number.POSITIVE_INFINITY],
    ["-1e400", Number.NEGATIVE_INFINITY],
    ["1e-400", 0],
    ["1e999999999", Number.POSITIVE_INFINITY],
    ["-1e999999999", Number.NEGATIVE_INFINITY],
    ["1e-999999999", 0],
    ["1.7976931348623157e308", Number.MAX_VALUE],
    ["5e-324", Number.MIN_VALUE],
  ])("%j overflows as a double would (without expanding it)", (value, expected) => {
    expect(scaleDecimal(value, 1, 1)).toBe(expected);
  });

  it("rounds to the nearest double of the exact result (checked against a 17-digit reference)", () => {
    // A pseudo-random sweep of decimals through percent, ms, per-minute and GiB scales: each
    // result must be the double nearest to the exact quotient, which is what Number() of the
    // exact decimal text gives when that text is exact (powers of ten) .
    for (let i = 1; i < 2_000; i++) {
      const text = `${(i * 7919) % 100_000}.${String((i * 104_729) % 1_000).padStart(3, "0")}`;
      const [whole = "", frac = ""] = text.split(".");
      expect(toBaseUnit(text, "percent", "ratio")).toBe(Number(`${whole}${frac}e-${frac.length + 2}`));
      expect(toBaseUnit(text, "ms", "seconds")).toBe(Number(`${whole}${frac}e-${frac.length + 3}`));
      expect(toBaseUnit(text, "GB", "bytes")).toBe(Number(`${whole}${frac}e${9 - frac.length}`));
    }
  });

  it("the naive division shows the noise this avoids", () => {
    expect(0.304 / 100).not.toBe(0.00304);
    expect(toBaseUnit("0.304", "percent", "ratio")).toBe(0.00304);
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
