import { describe, expect, it } from "vitest";
import { SimApiError } from "./errors.js";
import { answerMetricsQuery, type MetricsQueryContext } from "./metrics-query.js";
import { metricsContext } from "./testkit.js";
import { generateWorld } from "./world.js";

const MIN = 60_000;
const DAY = 86_400_000;
const NOW = Date.UTC(2025, 4, 10, 12, 0, 0);
const world = generateWorld({ seed: 3, clusters: 2, collectionsPerCluster: 1, nowMs: NOW - 400 * DAY });
const cluster = world.clusters.find((c) => c.status === "RUNNING");
if (!cluster) throw new Error("no running cluster");
const QUERIES = [
  { name: "CU_COMPUTATION", stat: "AVG" },
  { name: "REQ_SEARCH_LATENCY", stat: "P99" },
];

function ask(startMs: number, endMs: number, extra: Partial<MetricsQueryContext> = {}, granularity = "PT1M") {
  const ctx = metricsContext(cluster as NonNullable<typeof cluster>, 3, NOW, extra);
  const body = {
    start: new Date(startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    granularity,
    metricQueries: QUERIES,
  };
  const byTime = new Map<string, (string | null)[]>();
  for (const r of answerMetricsQuery(body, ctx).results) {
    for (const v of r.values) byTime.set(v.timestamp, [...(byTime.get(v.timestamp) ?? []), v.value]);
  }
  return byTime;
}

describe("simulator history", () => {
  it("answers the same value for a bucket whatever window asks for it", () => {
    const t = NOW - 3 * DAY;
    const wide = ask(t - 200 * MIN, t + 300 * MIN);
    const narrow = ask(t, t + MIN);
    const shifted = ask(t - MIN, t + 2 * MIN);
    const key = new Date(t).toISOString().replace(".000Z", "Z");
    expect(narrow.get(key)?.every((v) => v !== null)).toBe(true);
    expect(wide.get(key)).toEqual(narrow.get(key));
    expect(shifted.get(key)).toEqual(narrow.get(key));
  });

  it("answers null beyond the retention, values within it", () => {
    const answer = ask(NOW - 2 * DAY - 10 * MIN, NOW - 2 * DAY + 10 * MIN, { retentionMs: 2 * DAY });
    const values = [...answer.entries()].sort(([a], [b]) => a.localeCompare(b));
    const boundary = NOW - 2 * DAY;
    for (const [stamp, v] of values) {
      const beyond = Date.parse(stamp) < boundary;
      expect(
        v.every((x) => (beyond ? x === null : x !== null)),
        stamp,
      ).toBe(true);
    }
    expect(values.length).toBe(20);
  });

  it("refuses an answer over maxPoints as too many data points, and accepts one at it", () => {
    const start = NOW - DAY;
    // 10 buckets x 2 queries = 20 points.
    expect(() => ask(start, start + 10 * MIN, { maxPoints: 19 })).toThrow(SimApiError);
    expect(() => ask(start, start + 10 * MIN, { maxPoints: 19 })).toThrow(/too many data points/);
    expect(ask(start, start + 10 * MIN, { maxPoints: 20 }).size).toBe(10);
  });
});
