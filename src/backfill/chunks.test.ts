import { describe, expect, it } from "vitest";
import { CloudError } from "../upstream/errors.js";
import { bucketsPerCall, CallSize, isTooManyPoints, splitSpan } from "./chunks.js";

const G = 30_000;
const ENDPOINT = "POST /v2/clusters/{id}/metrics/query" as const;

describe("splitSpan", () => {
  it.each([
    [10, 4, [4, 4, 2]],
    [8, 4, [4, 4]],
    [3, 10, [3]],
    [5, 1, [1, 1, 1, 1, 1]],
  ])("%d buckets in calls of %d -> %j", (buckets, per, sizes) => {
    const spans = splitSpan({ startMs: 600_000, endMs: 600_000 + buckets * G }, G, per);
    expect(spans.map((s) => (s.endMs - s.startMs) / G)).toEqual(sizes);
    // Contiguous, no gap, no overlap.
    for (let i = 1; i < spans.length; i++) expect(spans[i]?.startMs).toBe(spans[i - 1]?.endMs);
    expect(spans[0]?.startMs).toBe(600_000);
  });
});

describe("bucketsPerCall and CallSize", () => {
  it("divides the points budget by the queries, at least one bucket", () => {
    expect(bucketsPerCall(33)).toBe(303);
    expect(bucketsPerCall(1, 500)).toBe(500);
    expect(bucketsPerCall(1000, 500)).toBe(1);
  });

  it("halves the refused call and never grows back", () => {
    const size = new CallSize(10_000);
    expect(size.bucketsFor(10)).toBe(1000);
    expect(size.refused(1000, 10)).toBe(true);
    expect(size.bucketsFor(10)).toBe(500);
    // A refusal of a larger call (one already in flight) does not undo the smaller size.
    expect(size.refused(1000, 10)).toBe(true);
    expect(size.bucketsFor(10)).toBe(500);
    expect(size.refused(500, 10)).toBe(true);
    expect(size.bucketsFor(20)).toBe(125);
    expect(size.refused(1, 10)).toBe(false);
  });
});

describe("isTooManyPoints", () => {
  const err = (code: "invalid_request" | "api_error" | "rate_limited", message: string) =>
    new CloudError(code, `${ENDPOINT}: ${message}`, { endpoint: ENDPOINT });
  it.each([
    [err("invalid_request", "too many data points: the answer would hold 20000, more than 10000"), true],
    [err("api_error", "The number of points exceeds the maximum of 11000"), true],
    [err("api_error", "time range too large for this granularity"), true],
    [err("invalid_request", "the window holds more than 10000 points at this granularity"), true],
    [err("rate_limited", "too many requests"), false],
    [err("api_error", "too many requests"), false],
    [err("invalid_request", "granularity must be at least PT30S"), false],
    [new Error("too many data points"), false],
  ])("%s -> %s", (e, expected) => {
    expect(isTooManyPoints(e)).toBe(expected);
  });
});
