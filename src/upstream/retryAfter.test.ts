import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./retryAfter.js";

const NOW = Date.parse("2024-05-01T12:00:00Z");

describe("parseRetryAfter", () => {
  it.each([
    { value: undefined, expected: undefined },
    { value: "", expected: undefined },
    { value: "0", expected: 0 },
    { value: "3", expected: 3000 },
    { value: " 120 ", expected: 120_000 },
    { value: "1.5", expected: 1500 },
    { value: "Wed, 01 May 2024 12:00:05 GMT", expected: 5000 },
    { value: "Wed, 01 May 2024 11:59:00 GMT", expected: 0 },
    { value: "-1", expected: undefined },
    { value: "soon", expected: undefined },
  ])("'$value' -> $expected", ({ value, expected }) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});
