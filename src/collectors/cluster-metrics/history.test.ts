import { describe, expect, it } from "vitest";
import type { MetricResult } from "../../upstream/types.js";
import { mapClusterMetricsHistory } from "./history.js";
import { mapClusterMetrics } from "./mapping.js";

const G = 60_000;
const START = Date.UTC(2025, 4, 1, 12, 0, 0);
const END = START + 4 * G;
const NOW = END + 10 * G;
const at = (i: number) => START + i * G;

const RESULTS: MetricResult[] = [
  {
    name: "CU_COMPUTATION",
    stat: "AVG",
    unit: "percent",
    values: [
      { timestampMs: at(-1), value: "99" }, // before the window: another chunk's
      { timestampMs: at(0), value: "10" },
      { timestampMs: at(1), value: null }, // no data: nothing
      { timestampMs: at(2), value: "30" },
      { timestampMs: at(3), value: "40" },
      { timestampMs: at(4), value: "50" }, // at the window's end: the next chunk's
      { timestampMs: Number.NaN, value: "1" },
    ],
  },
  {
    name: "REQ_SEARCH_LATENCY",
    stat: "P99",
    unit: "ms",
    values: [
      { timestampMs: at(0), value: "250" },
      { timestampMs: at(2), value: "oops" },
    ],
  },
];

describe("mapClusterMetricsHistory", () => {
  const history = mapClusterMetricsHistory({
    clusterId: "in01-a",
    scope: { dbName: "db", collectionName: "c" },
    results: RESULTS,
    window: { startMs: START, endMs: END, granularityMs: G, nowMs: NOW },
  });

  it("gives one sample per usable bucket in the window, stamped with the bucket's start", () => {
    expect(history.samples.map((s) => [s.family, s.timestampMs, s.value])).toEqual([
      ["vdbcloud_cu_computation_ratio", at(0), 0.1],
      ["vdbcloud_request_latency_seconds", at(0), 0.25],
      ["vdbcloud_cu_computation_ratio", at(2), 0.3],
      ["vdbcloud_cu_computation_ratio", at(3), 0.4],
    ]);
    expect(history.dropped).toEqual({ bad_timestamp: 1, unparsable_value: 1 });
  });

  it("maps each bucket exactly as the live mapping maps it when it is the newest", () => {
    for (const i of [0, 2, 3]) {
      const live = mapClusterMetrics({
        clusterId: "in01-a",
        scope: { dbName: "db", collectionName: "c" },
        results: RESULTS.map((r) => ({ ...r, values: r.values.filter((p) => p.timestampMs === at(i)) })),
        window: { endMs: at(i) + G, granularityMs: G, nowMs: NOW },
      });
      const mine = history.samples
        .filter((s) => s.timestampMs === at(i))
        .map(({ timestampMs: _, ...s }) => s);
      expect(mine).toEqual(live.samples.filter((s) => mine.some((m) => m.family === s.family)));
      expect(mine.length).toBeGreaterThan(0);
    }
    expect(history.samples[0]?.labels).toEqual({ cluster_id: "in01-a", db_name: "db", collection_name: "c" });
  });

  it("writes nothing for a bucket that had not ended when asked", () => {
    const early = mapClusterMetricsHistory({
      clusterId: "in01-a",
      results: RESULTS,
      window: { startMs: START, endMs: END, granularityMs: G, nowMs: at(3) + G / 2 },
    });
    expect(early.samples.map((s) => s.timestampMs)).not.toContain(at(3));
    expect(early.dropped.open_bucket).toBe(1);
  });
});
