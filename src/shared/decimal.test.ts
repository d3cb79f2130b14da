import { describe, expect, it } from "vitest";
import { add, formatDecimal, parseDecimal, shift, toNumber, ZERO } from "./decimal.js";

describe("decimal amounts", () => {
  it.each<[input: string | number, text: string]>([
    ["1234", "1234"],
    [1234, "1234"],
    ["12.340", "12.34"],
    [" -0.5 ", "-0.5"],
    ["+7", "7"],
    [".25", "0.25"],
    ["5.", "5"],
    ["1.5e3", "1500"],
    ["15E-3", "0.015"],
    [1e21, "1000000000000000000000"],
    [1.1, "1.1"],
    ["0", "0"],
    ["-0", "0"],
  ])("reads %j as %s", (input, text) => {
    const d = parseDecimal(input);
    expect(d && formatDecimal(d)).toBe(text);
  });

  it.each<[input: string | number]>([
    ["abc"],
    [""],
    ["."],
    ["1.2.3"],
    ["0x10"],
    [Number.NaN],
    [Infinity],
    ["1e999"],
  ])("refuses %j", (input) => {
    expect(parseDecimal(input)).toBeUndefined();
  });

  it.each<[cents: string | number, major: number]>([
    // The naive division leaves noise in each of these.
    [1.1, 0.011],
    ["1.1", 0.011],
    [3, 0.03],
    [57, 0.57],
    ["123456789.01", 1234567.8901],
    [-250, -2.5],
  ])("scales %j cents to %d exactly", (cents, major) => {
    const d = parseDecimal(cents);
    expect(d && toNumber(shift(d, 2))).toBe(major);
  });

  it("sums without binary noise, where floats do not", () => {
    const parts = ["0.1", "0.2", 0.3].map((v) => parseDecimal(v) ?? ZERO);
    const sum = parts.reduce(add, ZERO);
    expect(toNumber(sum)).toBe(0.6);
    expect(0.1 + 0.2 + 0.3).not.toBe(0.6);
  });

  it("shifts the other way by adding zeros", () => {
    const d = parseDecimal("1.5");
    expect(d && formatDecimal(shift(d, -3))).toBe("1500");
  });
});
