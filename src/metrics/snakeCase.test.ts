import { describe, expect, it } from "vitest";
import { lowerSnakeCase } from "./snakeCase.js";

describe("lowerSnakeCase", () => {
  it.each([
    ["GREATER_THAN", "greater_than"],
    ["GREATER_THAN_OR_EQUALS", "greater_than_or_equals"],
    ["GreaterThanOrEquals", "greater_than_or_equals"],
    ["greater than", "greater_than"],
    ["CRITICAL", "critical"],
    ["Warning", "warning"],
    // The reference's own sample sends both levels in one string.
    ["CRITICAL|WARNING", "critical_warning"],
    ["  EQUALS  ", "equals"],
    ["__odd--value__", "odd_value"],
    ["P99Latency", "p99_latency"],
    ["", ""],
  ])("%j -> %j", (input, want) => {
    expect(lowerSnakeCase(input)).toBe(want);
  });
});
