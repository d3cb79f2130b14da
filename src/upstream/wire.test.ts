import { describe, expect, it } from "vitest";
import { z } from "zod";
import { nullableNumeric, numeric, stringish, summarizeIssues, timestampMs } from "./wire.js";

describe("tolerant scalars", () => {
  it.each<{ input: unknown; expected: number | null }>([
    { input: 4, expected: 4 },
    { input: "4", expected: 4 },
    { input: " 2.5 ", expected: 2.5 },
    { input: null, expected: null },
    { input: undefined, expected: null },
  ])("nullableNumeric($input) -> $expected", ({ input, expected }) => {
    expect(nullableNumeric.parse(input)).toBe(expected);
  });

  it.each(["four", "", true, {}])("numeric rejects %j", (input) => {
    expect(numeric.safeParse(input).success).toBe(false);
  });

  it("stringish turns numbers into strings", () => {
    expect(stringish.parse(12)).toBe("12");
    expect(stringish.parse("a")).toBe("a");
  });

  it("timestampMs reads ISO strings and epoch seconds, and rejects junk", () => {
    expect(timestampMs.parse("2024-05-01T12:00:00Z")).toBe(Date.UTC(2024, 4, 1, 12));
    expect(timestampMs.parse(1_714_564_800)).toBe(Date.UTC(2024, 4, 1, 12));
    expect(timestampMs.safeParse("not a time").success).toBe(false);
  });
});

describe("summarizeIssues", () => {
  it("names paths and types, never the offending values", () => {
    const schema = z.object({ results: z.array(z.object({ unit: z.string(), n: z.number() })) });
    const parsed = schema.safeParse({ results: [{ unit: 42, n: "SECRET-VALUE" }] });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const summary = summarizeIssues(parsed.error, "data");
    expect(summary).toContain("data.results[0].unit");
    expect(summary).toContain("data.results[0].n");
    expect(summary).not.toContain("SECRET-VALUE");
  });

  it("shows at most `max` issues and counts the rest", () => {
    const parsed = z.array(z.string()).safeParse([1, 2, 3, 4, 5]);
    if (parsed.success) throw new Error("expected failure");
    expect(summarizeIssues(parsed.error, "data", 2)).toMatch(/^data\[0\]: .*; data\[1\]: .* \(\+3 more\)$/);
  });
});
