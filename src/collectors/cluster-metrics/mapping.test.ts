import { describe, expect, it } from "vitest";
import type { MetricPoint, MetricResult } from "../../upstream/types.js";
import {
  type ClusterMetricsInput,
  clusterLabels,
  mapClusterMetrics,
  newestBucketSamples,
  newestUsablePoint,
  parseMetricValue,
  type QueryWindow,
} from "./mapping.js";

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const MIN = 60_000;
const CLUSTER = "in01-0123456789abcdef";

function result(
  name: string,
  unit: string,
  values: [offsetMin: number, value: string | null][],
  stat?: "AVG" | "P99",
): MetricResult {
  const points: MetricPoint[] = values.map(([m, value]) => ({ timestampMs: T0 + m * MIN, value }));
  return stat === undefined ? { name, unit, values: points } : { name, stat, unit, values: points };
}

// Every bucket the tables use (offsets 0..9 min) has ended in this window.
const WINDOW: QueryWindow = { endMs: T0 + 10 * MIN, granularityMs: MIN, nowMs: T0 + 10 * MIN };

function map(results: MetricResult[], scope?: ClusterMetricsInput["scope"], window = WINDOW) {
  return mapClusterMetrics(
    scope === undefined
      ? { clusterId: CLUSTER, results, window }
      : { clusterId: CLUSTER, scope, results, window },
  );
}

describe("mapClusterMetrics: conversion per catalog row, with the public units", () => {
  it.each<
    [
      name: string,
      stat: "AVG" | "P99" | undefined,
      unit: string,
      raw: string,
      family: string,
      extra: Record<string, string>,
      value: number,
    ]
  >([
    ["CU_COMPUTATION", undefined, "percent", "55.5", "vdbcloud_cu_computation_ratio", {}, 0.555],
    ["CU_CAPACITY", "AVG", "percent", "80", "vdbcloud_cu_capacity_ratio", {}, 0.8],
    ["CLUSTER_WRITE_CAPACITY", undefined, "percent", "12", "vdbcloud_write_capacity_ratio", {}, 0.12],
    ["STORAGE_USE", undefined, "GB", "1.25", "vdbcloud_storage_bytes", {}, 1.25e9],
    ["READ_VCU", undefined, "count", "42", "vdbcloud_vcu", { operation: "read" }, 42],
    ["WRITE_VCU", undefined, "count", "7", "vdbcloud_vcu", { operation: "write" }, 7],
    [
      "REQ_SEARCH_COUNT",
      undefined,
      "count/min",
      "120",
      "vdbcloud_requests_per_second",
      { request_type: "search" },
      2,
    ],
    [
      "REQ_BULK_INSERT_COUNT",
      undefined,
      "count/s",
      "3",
      "vdbcloud_requests_per_second",
      { request_type: "bulk_insert" },
      3,
    ],
    [
      "VECTOR_REQ_INSERT_COUNT",
      undefined,
      "count/min",
      "30",
      "vdbcloud_vector_requests_per_second",
      { request_type: "insert" },
      0.5,
    ],
    [
      "REQ_SEARCH_LATENCY",
      "P99",
      "ms",
      "85",
      "vdbcloud_request_latency_seconds",
      { request_type: "search", stat: "p99" },
      0.085,
    ],
    [
      "REQ_QUERY_LATENCY",
      "AVG",
      "ms",
      "12.5",
      "vdbcloud_request_latency_seconds",
      { request_type: "query", stat: "avg" },
      0.0125,
    ],
    [
      "REQ_INSERT_LATENCY_AVG",
      undefined,
      "ms",
      "4",
      "vdbcloud_request_latency_seconds",
      { request_type: "insert", stat: "avg" },
      0.004,
    ],
    [
      "REQ_DELETE_LATENCY_P99",
      undefined,
      "ms",
      "40",
      "vdbcloud_request_latency_seconds",
      { request_type: "delete", stat: "p99" },
      0.04,
    ],
    [
      "REQ_FAIL_RATE_UPSERT",
      undefined,
      "percent",
      "0.5",
      "vdbcloud_request_failure_ratio",
      { request_type: "upsert" },
      0.005,
    ],
    ["REQ_FAIL_RATE", "AVG", "percent", "1", "vdbcloud_request_failure_ratio", { request_type: "all" }, 0.01],
    ["REQ_SUCCESS_RATE", "AVG", "percent", "99", "vdbcloud_request_success_ratio", {}, 0.99],
    ["SLOW_QUERY_COUNT", undefined, "counts/min", "6", "vdbcloud_slow_queries_per_second", {}, 0.1],
    ["FLUSH_COUNT", undefined, "counts/min", "3", "vdbcloud_flushes_per_second", {}, 0.05],
    ["ENTITIES_COUNT", undefined, "count", "1000000", "vdbcloud_entities", {}, 1e6],
    ["ENTITIES_LOADED", undefined, "count", "900", "vdbcloud_loaded_entities", {}, 900],
    ["ENTITIES_INDEXED", undefined, "count", "800", "vdbcloud_indexed_entities", {}, 800],
    ["ENTITIES_INSERT_RATE", "AVG", "count/s", "25", "vdbcloud_entity_inserts_per_second", {}, 25],
    ["ENTITIES_INSERT_RATE", "AVG", "count/min", "1500", "vdbcloud_entity_inserts_per_second", {}, 25],
    ["COLLECTIONS_COUNT", undefined, "count", "5", "vdbcloud_collections", {}, 5],
    ["UNLOADED_COLLECTIONS_COUNT", undefined, "count", "1", "vdbcloud_unloaded_collections", {}, 1],
    ["INDEX_BUILD_TIME", undefined, "ms", "1500", "vdbcloud_index_build_time_seconds", {}, 1.5],
  ])("%s (stat %s, %s) %s -> %s", (name, stat, unit, raw, family, extra, value) => {
    const out = map([result(name, unit, [[0, raw]], stat)]);
    expect(out.samples).toHaveLength(1);
    expect(out.samples[0]?.family).toBe(family);
    expect(out.samples[0]?.labels).toEqual({ cluster_id: CLUSTER, ...extra });
    expect(out.samples[0]?.value).toBeCloseTo(value, 12);
    expect(out.families.map((f) => f.name)).toEqual([family]);
    expect(out.dropped).toEqual({});
  });
});

describe("mapClusterMetrics: newest non-null bucket", () => {
  it.each<[label: string, values: [number, string | null][], expected: number | undefined]>([
    [
      "in order",
      [
        [0, "10"],
        [1, "20"],
        [2, "30"],
      ],
      0.3,
    ],
    [
      "out of order timestamps",
      [
        [2, "30"],
        [0, "10"],
        [1, "20"],
      ],
      0.3,
    ],
    [
      "newest first",
      [
        [2, "30"],
        [1, "20"],
        [0, "10"],
      ],
      0.3,
    ],
    [
      "trailing nulls",
      [
        [0, "10"],
        [1, "20"],
        [2, null],
        [3, null],
      ],
      0.2,
    ],
    [
      "null newest, out of order",
      [
        [3, null],
        [1, "20"],
        [2, null],
        [0, "10"],
      ],
      0.2,
    ],
    [
      "all null",
      [
        [0, null],
        [1, null],
      ],
      undefined,
    ],
    ["empty", [], undefined],
  ])("%s", (_label, values, expected) => {
    const out = map([result("CU_COMPUTATION", "percent", values)]);
    if (expected === undefined) {
      expect(out.samples).toEqual([]);
      expect(out.newestBucketMs).toBeNull();
    } else {
      expect(out.samples.map((s) => s.value)).toEqual([expected]);
    }
    // No data is normal upstream: never counted as a drop.
    expect(out.dropped).toEqual({});
  });

  it("reports the newest bucket of the values shown: a dropped result does not make data look fresh", () => {
    const out = map([
      result("CU_COMPUTATION", "percent", [
        [1, "10"],
        [5, null],
      ]),
      result("STORAGE_USE", "furlongs", [[3, "1"]]),
      result("CU_CAPACITY", "percent", [
        [2, "10"],
        [4, null],
      ]),
    ]);
    expect(out.newestBucketMs).toBe(T0 + 2 * MIN);
    expect(out.dropped).toEqual({ unknown_unit: 1 });
  });

  it("picks the first of equal timestamps", () => {
    expect(
      newestUsablePoint(
        [
          { timestampMs: T0, value: "1" },
          { timestampMs: T0, value: "2" },
        ],
        WINDOW,
      ),
    ).toEqual({ point: { timestampMs: T0, value: 1 }, skipped: [] });
  });

  it("passes over points whose timestamp is not a number, and reports them", () => {
    expect(
      newestUsablePoint(
        [
          { timestampMs: Number.NaN, value: "9" },
          { timestampMs: T0, value: "1" },
        ],
        WINDOW,
      ),
    ).toEqual({ point: { timestampMs: T0, value: 1 }, skipped: ["bad_timestamp"] });
  });
});

describe("mapClusterMetrics: unusable values are dropped and counted", () => {
  it.each<[raw: string, reason: string]>([
    ["abc", "unparsable_value"],
    ["", "unparsable_value"],
    ["  ", "unparsable_value"],
    ["0x10", "unparsable_value"],
    ["1,5", "unparsable_value"],
    ["12%", "unparsable_value"],
    ["NaN", "non_finite_value"],
    ["Infinity", "non_finite_value"],
    ["-inf", "non_finite_value"],
    ["1e400", "non_finite_value"],
  ])("%j -> %s, and the older closed bucket still wins", (raw, reason) => {
    const out = map([
      result("CU_COMPUTATION", "percent", [
        [0, "50"],
        [1, raw],
      ]),
    ]);
    expect(out.samples.map((s) => s.value)).toEqual([0.5]);
    expect(out.newestBucketMs).toBe(T0);
    expect(out.dropped).toEqual({ [reason]: 1 });
  });

  it.each<[raw: string, reason: string]>([
    ["abc", "unparsable_value"],
    ["", "unparsable_value"],
    ["NaN", "non_finite_value"],
  ])("%j as the only value -> no series, %s counted", (raw, reason) => {
    const out = map([result("CU_COMPUTATION", "percent", [[1, raw]])]);
    expect(out.samples).toEqual([]);
    expect(out.families).toEqual([]);
    expect(out.newestBucketMs).toBeNull();
    expect(out.dropped).toEqual({ [reason]: 1 });
  });

  it.each<[name: string, unit: string]>([
    ["CU_COMPUTATION", "ms"],
    ["STORAGE_USE", "percent"],
    ["REQ_SEARCH_LATENCY_P99", "count"],
    ["ENTITIES_COUNT", "count/min"],
    ["ENTITIES_COUNT", "furlongs"],
    ["SOMETHING_NEW", "furlongs"],
  ])("%s in %j -> unknown_unit", (name, unit) => {
    const out = map([result(name, unit, [[0, "1"]])]);
    expect(out.samples).toEqual([]);
    expect(out.dropped).toEqual({ unknown_unit: 1 });
  });

  it("counts unusable names as unknown_metric_name", () => {
    const out = map([result("___", "count", [[0, "1"]])]);
    expect(out.samples).toEqual([]);
    expect(out.dropped).toEqual({ unknown_metric_name: 1 });
  });

  it("adds up drops of several results and keeps the good ones", () => {
    const out = map([
      result("CU_COMPUTATION", "percent", [[0, "x"]]),
      result("CU_CAPACITY", "percent", [[0, "y"]]),
      result("STORAGE_USE", "GB", [[0, "2"]]),
    ]);
    expect(out.dropped).toEqual({ unparsable_value: 2 });
    expect(out.samples.map((s) => [s.family, s.value])).toEqual([["vdbcloud_storage_bytes", 2e9]]);
  });

  it.each<[raw: string, value: number]>([
    ["42", 42],
    [" 42 ", 42],
    ["-1.5", -1.5],
    ["+3", 3],
    [".5", 0.5],
    ["5.", 5],
    ["1e3", 1000],
    ["2.5E-2", 0.025],
  ])("parses %j as %d", (raw, value) => {
    expect(parseMetricValue(raw)).toEqual({ ok: true, value });
  });
});

describe("mapClusterMetrics: labels", () => {
  it("orders labels cluster_id, db_name, collection_name, then the family's", () => {
    const out = map([result("REQ_SEARCH_LATENCY_P99", "ms", [[0, "5"]])], {
      dbName: "default",
      collectionName: "docs",
    });
    const labels = out.samples[0]?.labels ?? {};
    expect(Object.keys(labels)).toEqual(["cluster_id", "db_name", "collection_name", "request_type", "stat"]);
    expect(labels).toEqual({
      cluster_id: CLUSTER,
      db_name: "default",
      collection_name: "docs",
      request_type: "search",
      stat: "p99",
    });
  });

  it.each<[scope: ClusterMetricsInput["scope"], keys: string[]]>([
    [undefined, ["cluster_id", "operation"]],
    [{}, ["cluster_id", "operation"]],
    [{ dbName: "default" }, ["cluster_id", "db_name", "operation"]],
    [{ collectionName: "docs" }, ["cluster_id", "collection_name", "operation"]],
    [{ dbName: "", collectionName: "docs" }, ["cluster_id", "collection_name", "operation"]],
  ])("scope %j -> labels %j", (scope, keys) => {
    const out = map([result("READ_VCU", "count", [[0, "1"]])], scope);
    expect(Object.keys(out.samples[0]?.labels ?? {})).toEqual(keys);
  });

  it("builds the same leading labels for other uses", () => {
    expect(clusterLabels("c1", { dbName: "d", collectionName: "c" })).toEqual({
      cluster_id: "c1",
      db_name: "d",
      collection_name: "c",
    });
  });
});

describe("mapClusterMetrics: two results on the same series", () => {
  it.each<[label: string, firstAt: number, secondAt: number, expected: number]>([
    ["second form newer", 1, 2, 0.02],
    ["first form newer", 2, 1, 0.01],
    ["same bucket: the first result wins", 1, 1, 0.01],
  ])("%s", (_label, firstAt, secondAt, expected) => {
    const out = map([
      result("REQ_SEARCH_LATENCY", "ms", [[firstAt, "10"]], "P99"),
      result("REQ_SEARCH_LATENCY_P99", "ms", [[secondAt, "20"]]),
    ]);
    expect(out.samples).toHaveLength(1);
    expect(out.samples[0]?.labels).toEqual({ cluster_id: CLUSTER, request_type: "search", stat: "p99" });
    expect(out.samples[0]?.value).toBeCloseTo(expected, 12);
    expect(out.families).toHaveLength(1);
  });

  it("keeps AVG and P99 apart", () => {
    const out = map([
      result("REQ_SEARCH_LATENCY", "ms", [[0, "10"]], "AVG"),
      result("REQ_SEARCH_LATENCY", "ms", [[0, "30"]], "P99"),
    ]);
    expect(out.samples.map((s) => [s.labels.stat, s.value])).toEqual([
      ["avg", 0.01],
      ["p99", 0.03],
    ]);
  });

  it("lists each family once, in order of first use", () => {
    const out = map([
      result("READ_VCU", "count", [[0, "1"]]),
      result("CU_COMPUTATION", "percent", [[0, "1"]]),
      result("WRITE_VCU", "count", [[0, "2"]]),
    ]);
    expect(out.families.map((f) => f.name)).toEqual(["vdbcloud_vcu", "vdbcloud_cu_computation_ratio"]);
    expect(out.samples.map((s) => s.labels.operation ?? "-")).toEqual(["read", "-", "write"]);
  });
});

describe("mapClusterMetrics: buckets that have not ended", () => {
  // Window asked at 12:10:20 for [12:05, 12:10) at PT1M; the server may still answer later buckets.
  const asked: QueryWindow = { endMs: T0 + 10 * MIN, granularityMs: MIN, nowMs: T0 + 10 * MIN + 20_000 };

  it.each<[label: string, values: [number, string | null][], expected: number, skipped: number]>([
    [
      "a bucket at the window's end",
      [
        [9, "40"],
        [10, "3"],
      ],
      0.4,
      1,
    ],
    [
      "a bucket past the window's end",
      [
        [9, "40"],
        [11, "3"],
      ],
      0.4,
      1,
    ],
    [
      "open buckets out of order",
      [
        [10, "3"],
        [8, "20"],
        [9, "40"],
      ],
      0.4,
      1,
    ],
    [
      "a null open bucket is just no data",
      [
        [9, "40"],
        [10, null],
      ],
      0.4,
      0,
    ],
  ])("%s is never the newest value", (_label, values, expected, skipped) => {
    const out = map([result("CU_COMPUTATION", "percent", values)], undefined, asked);
    expect(out.samples.map((s) => s.value)).toEqual([expected]);
    expect(out.newestBucketMs).toBe(T0 + 9 * MIN);
    expect(out.dropped).toEqual(skipped === 0 ? {} : { open_bucket: skipped });
  });

  it("drops a bucket that ends after the request was made, even inside the window", () => {
    // A delay-less request made 30 s into the minute with an unaligned end (as a `period` query has).
    const early: QueryWindow = {
      endMs: T0 + 9 * MIN + 30_000,
      granularityMs: MIN,
      nowMs: T0 + 9 * MIN + 30_000,
    };
    const out = map(
      [
        result("CU_COMPUTATION", "percent", [
          [8, "20"],
          [9, "40"],
        ]),
      ],
      undefined,
      early,
    );
    expect(out.samples.map((s) => s.value)).toEqual([0.2]);
    expect(out.dropped).toEqual({ open_bucket: 1 });
  });

  it("gives no series when only an open bucket has data", () => {
    const out = map(
      [
        result("CU_COMPUTATION", "percent", [
          [9, null],
          [10, "3"],
        ]),
      ],
      undefined,
      asked,
    );
    expect(out.samples).toEqual([]);
    expect(out.newestBucketMs).toBeNull();
    expect(out.dropped).toEqual({ open_bucket: 1 });
  });
});

describe("mapClusterMetrics: bad points drop the point, not the response", () => {
  it("keeps every other result of the response", () => {
    const out = map([
      {
        name: "CU_COMPUTATION",
        unit: "percent",
        values: [
          { timestampMs: T0, value: "10" },
          { timestampMs: Number.NaN, value: "99" },
        ],
      },
      result("STORAGE_USE", "GB", [[1, "2"]]),
      result("CU_CAPACITY", "percent", [
        [1, "30"],
        [2, ""],
      ]),
    ]);
    expect(out.samples.map((s) => [s.family, s.value])).toEqual([
      ["vdbcloud_cu_computation_ratio", 0.1],
      ["vdbcloud_storage_bytes", 2e9],
      ["vdbcloud_cu_capacity_ratio", 0.3],
    ]);
    expect(out.dropped).toEqual({ bad_timestamp: 1, unparsable_value: 1 });
  });

  it("does not count bad points older than the value shown (they never mattered)", () => {
    const out = map([
      result("CU_COMPUTATION", "percent", [
        [0, "x"],
        [1, "10"],
      ]),
    ]);
    expect(out.samples.map((s) => s.value)).toEqual([0.1]);
    expect(out.dropped).toEqual({});
  });
});

describe("mapClusterMetrics: statistics are never guessed", () => {
  it("drops a first-form latency result without a statistic, and keeps the others", () => {
    const out = map([
      result("REQ_SEARCH_LATENCY", "ms", [[0, "10"]]),
      result("REQ_SEARCH_LATENCY", "ms", [[0, "30"]], "P99"),
    ]);
    expect(out.samples.map((s) => [s.labels.stat, s.value])).toEqual([["p99", 0.03]]);
    expect(out.dropped).toEqual({ unknown_stat: 1 });
  });
});

describe("mapClusterMetrics: a bare count on a rate is per bucket", () => {
  it.each<[name: string, unit: string, granularityMs: number, raw: string, family: string, value: number]>([
    ["REQ_SEARCH_COUNT", "count", MIN, "120", "vdbcloud_requests_per_second", 2],
    ["REQ_SEARCH_COUNT", "count", 30_000, "120", "vdbcloud_requests_per_second", 4],
    ["VECTOR_REQ_SEARCH_COUNT", "count", 5 * MIN, "600", "vdbcloud_vector_requests_per_second", 2],
    ["SLOW_QUERY_COUNT", "count", MIN, "6", "vdbcloud_slow_queries_per_second", 0.1],
    ["FLUSH_COUNT", "counts", 30_000, "3", "vdbcloud_flushes_per_second", 0.1],
    ["REQ_SEARCH_COUNT", "QPS", MIN, "7", "vdbcloud_requests_per_second", 7],
    ["VECTOR_REQ_INSERT_COUNT", "VPS", MIN, "9", "vdbcloud_vector_requests_per_second", 9],
    ["REQ_QUERY_COUNT", "count/s", MIN, "5", "vdbcloud_requests_per_second", 5],
    ["REQ_QUERY_COUNT", "count/min", 30_000, "60", "vdbcloud_requests_per_second", 1],
    ["ENTITIES_INSERT_RATE", "count", MIN, "600", "vdbcloud_entity_inserts_per_second", 10],
  ])("%s in %j at %d ms buckets: %s -> %s %d", (name, unit, granularityMs, raw, family, value) => {
    const window = { endMs: T0 + 10 * MIN, granularityMs, nowMs: T0 + 10 * MIN };
    const out = map(
      [result(name, unit, [[0, raw]], name === "ENTITIES_INSERT_RATE" ? "AVG" : undefined)],
      undefined,
      window,
    );
    expect(out.samples.map((s) => [s.family, s.value])).toEqual([[family, value]]);
    expect(out.dropped).toEqual({});
  });
});

describe("newestBucketSamples", () => {
  it("exposes the newest bucket in seconds with the target's labels", () => {
    const r = newestBucketSamples("in01-a", { dbName: "default", collectionName: "docs" }, 1_700_000_060_000);
    expect(r.samples).toEqual([
      {
        family: "vdbcloud_metrics_newest_bucket_timestamp_seconds",
        labels: { cluster_id: "in01-a", db_name: "default", collection_name: "docs" },
        value: 1_700_000_060,
      },
    ]);
  });

  it("gives no sample without a non-null bucket", () => {
    expect(newestBucketSamples("in01-a", undefined, null).samples).toEqual([]);
  });
});
