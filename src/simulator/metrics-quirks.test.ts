import { describe, expect, it } from "vitest";
import { answerMetricsQuery, type WireMetricResult } from "./metrics-query.js";
import { NO_QUIRKS, type SimQuirks } from "./quirks.js";
import { metricsContext } from "./testkit.js";
import { generateWorld } from "./world.js";

const MIN = 60_000;
const CREATED = Date.UTC(2025, 0, 1);
const WINDOW_END = Date.UTC(2025, 4, 1, 12, 10, 0);
// Asked 40 s into the bucket that starts at the window's end.
const NOW = WINDOW_END + 40_000;
const world = generateWorld({ seed: 7, clusters: 3, collectionsPerCluster: 2, nowMs: CREATED });
const cluster = world.clusters.find((c) => c.status === "RUNNING") ?? world.clusters[0];
if (!cluster) throw new Error("no cluster");

function answer(
  quirks: Partial<SimQuirks>,
  metricQueries: unknown[],
  granularity = "PT1M",
): WireMetricResult[] {
  const ctx = metricsContext(cluster as NonNullable<typeof cluster>, 7, NOW, {
    quirks: { ...NO_QUIRKS, ...quirks },
  });
  const body = {
    start: new Date(WINDOW_END - 5 * MIN).toISOString(),
    end: new Date(WINDOW_END).toISOString(),
    granularity,
    metricQueries,
  };
  return answerMetricsQuery(body, ctx).results;
}

describe("simulator quirks of Query Cluster Metrics", () => {
  it("openBucket adds the bucket at the window's end with a partial value", () => {
    const [plain] = answer({}, [{ name: "REQ_SEARCH_COUNT" }]);
    const [open] = answer({ openBucket: true }, [{ name: "REQ_SEARCH_COUNT" }]);
    expect(plain?.values).toHaveLength(5);
    expect(open?.values).toHaveLength(6);
    expect(open?.values.at(-1)?.timestamp).toBe(new Date(WINDOW_END).toISOString().replace(".000Z", "Z"));
    expect(Number(open?.values.at(-1)?.value)).toBeGreaterThan(0);
    expect(open?.values.slice(0, 5)).toEqual(plain?.values);
  });

  it("statlessResults leaves `stat` out of first-form results", () => {
    const q = [
      { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
      { name: "REQ_SEARCH_LATENCY", stat: "P99" },
    ];
    expect(answer({}, q).map((r) => r.stat)).toEqual(["AVG", "P99"]);
    const statless = answer({ statlessResults: true }, q);
    expect(statless.map((r) => "stat" in r)).toEqual([false, false]);
    // The values still differ: P99 above AVG, in request order.
    const last = statless.map((r) => Number(r.values.findLast((v) => v.value !== null)?.value));
    expect(last[1]).toBeGreaterThan(last[0] ?? Number.POSITIVE_INFINITY);
  });

  it.each([
    ["REQ_SEARCH_COUNT", true],
    ["VECTOR_REQ_INSERT_COUNT", true],
    ["SLOW_QUERY_COUNT", true],
    ["FLUSH_COUNT", true],
    ["ENTITIES_COUNT", false],
    ["CU_COMPUTATION", false],
  ])("countUnits rewrites %s: %s", (name, rewritten) => {
    const [plain] = answer({}, [{ name }], "PT30S");
    const [counted] = answer({ countUnits: true }, [{ name }], "PT30S");
    if (!rewritten) {
      expect(counted).toEqual(plain);
      return;
    }
    expect(plain?.unit).toBe("count/min");
    expect(counted?.unit).toBe("count");
    // 30-second buckets: the count in a bucket is half the per-minute rate.
    const perMinute = plain?.values.map((v) => (v.value === null ? null : Number(v.value))) ?? [];
    const perBucket = counted?.values.map((v) => (v.value === null ? null : Number(v.value))) ?? [];
    expect(perBucket.filter((v) => v !== null).length).toBeGreaterThan(0);
    perBucket.forEach((v, i) => {
      const rate = perMinute[i];
      if (v === null || rate === null || rate === undefined) expect(v).toBe(rate ?? null);
      else expect(v).toBeCloseTo(rate / 2, 1);
    });
  });
});
