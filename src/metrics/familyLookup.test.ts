import { describe, expect, it } from "vitest";
import { STATIC_FAMILIES } from "../collectors/registry.js";
import { DESIGN_REQUEST_TYPES, DESIGN_SECOND_FORM_NAMES } from "../upstream/namesTestkit.js";
import { CLUSTER_FAMILIES } from "./families.js";
import { familyFor, lookupFamily, metricQueryFamilies, type Stat } from "./familyLookup.js";
import type { UnitKind } from "./units.js";

type Row = [
  name: string,
  stat: Stat | undefined,
  family: string,
  labels: Record<string, string>,
  kind: UnitKind,
];

// Every row of the table of docs/design.md section 5.
const ROWS: Row[] = [
  ["CU_COMPUTATION", undefined, "vdbcloud_cu_computation_ratio", {}, "ratio"],
  ["CU_COMPUTATION", "AVG", "vdbcloud_cu_computation_ratio", {}, "ratio"],
  ["CU_CAPACITY", undefined, "vdbcloud_cu_capacity_ratio", {}, "ratio"],
  ["CLUSTER_WRITE_CAPACITY", undefined, "vdbcloud_write_capacity_ratio", {}, "ratio"],
  ["STORAGE_USE", undefined, "vdbcloud_storage_bytes", {}, "bytes"],
  ["READ_VCU", undefined, "vdbcloud_vcu", { operation: "read" }, "count"],
  ["WRITE_VCU", undefined, "vdbcloud_vcu", { operation: "write" }, "count"],
  ["REQ_SEARCH_COUNT", undefined, "vdbcloud_requests_per_second", { request_type: "search" }, "per_second"],
  [
    "REQ_BULK_INSERT_COUNT",
    undefined,
    "vdbcloud_requests_per_second",
    { request_type: "bulk_insert" },
    "per_second",
  ],
  [
    "VECTOR_REQ_UPSERT_COUNT",
    undefined,
    "vdbcloud_vector_requests_per_second",
    { request_type: "upsert" },
    "per_second",
  ],
  [
    "VECTOR_REQ_BULK_INSERT_COUNT",
    undefined,
    "vdbcloud_vector_requests_per_second",
    { request_type: "bulk_insert" },
    "per_second",
  ],
  [
    "REQ_SEARCH_LATENCY",
    "P99",
    "vdbcloud_request_latency_seconds",
    { request_type: "search", stat: "p99" },
    "seconds",
  ],
  [
    "REQ_QUERY_LATENCY",
    "AVG",
    "vdbcloud_request_latency_seconds",
    { request_type: "query", stat: "avg" },
    "seconds",
  ],
  [
    "REQ_INSERT_LATENCY_AVG",
    undefined,
    "vdbcloud_request_latency_seconds",
    { request_type: "insert", stat: "avg" },
    "seconds",
  ],
  [
    "REQ_UPSERT_LATENCY_P99",
    undefined,
    "vdbcloud_request_latency_seconds",
    { request_type: "upsert", stat: "p99" },
    "seconds",
  ],
  [
    "REQ_FAIL_RATE_BULK_INSERT",
    undefined,
    "vdbcloud_request_failure_ratio",
    { request_type: "bulk_insert" },
    "ratio",
  ],
  ["REQ_FAIL_RATE_SEARCH", undefined, "vdbcloud_request_failure_ratio", { request_type: "search" }, "ratio"],
  ["REQ_FAIL_RATE", "AVG", "vdbcloud_request_failure_ratio", { request_type: "all" }, "ratio"],
  ["REQ_SUCCESS_RATE", "AVG", "vdbcloud_request_success_ratio", {}, "ratio"],
  ["SLOW_QUERY_COUNT", undefined, "vdbcloud_slow_queries_per_second", {}, "per_second"],
  ["FLUSH_COUNT", undefined, "vdbcloud_flushes_per_second", {}, "per_second"],
  ["ENTITIES_COUNT", undefined, "vdbcloud_entities", {}, "count"],
  ["ENTITIES_LOADED", undefined, "vdbcloud_loaded_entities", {}, "count"],
  ["ENTITIES_INDEXED", undefined, "vdbcloud_indexed_entities", {}, "count"],
  ["ENTITIES_INSERT_RATE", "AVG", "vdbcloud_entity_inserts_per_second", {}, "per_second"],
  ["COLLECTIONS_COUNT", undefined, "vdbcloud_collections", {}, "count"],
  ["UNLOADED_COLLECTIONS_COUNT", undefined, "vdbcloud_unloaded_collections", {}, "count"],
];

const T_ALL = DESIGN_REQUEST_TYPES;

// docs/design.md section 7: every publicly documented metric name, both forms.
const PUBLIC_NAMES: [string, Stat | undefined][] = [
  ...DESIGN_SECOND_FORM_NAMES.map((n): [string, Stat | undefined] => [n, undefined]),
  ...T_ALL.flatMap((t): [string, Stat][] => [
    [`REQ_${t}_LATENCY`, "AVG"],
    [`REQ_${t}_LATENCY`, "P99"],
  ]),
  ["REQ_SUCCESS_RATE", "AVG"],
  ["REQ_FAIL_RATE", "AVG"],
  ["ENTITIES_INSERT_RATE", "AVG"],
];

describe("familyFor: the catalog table", () => {
  it.each(ROWS)("%s (stat %s) -> %s %j", (name, stat, family, labels, kind) => {
    const e = familyFor(name, stat, "irrelevant for catalogued names");
    expect(e?.family.name).toBe(family);
    expect(e?.labels).toEqual(labels);
    expect(e?.kind).toBe(kind);
    expect(e?.family.type).toBe("gauge");
  });

  it.each(PUBLIC_NAMES)("public name %s (stat %s) lands on a fixed family", (name, stat) => {
    const e = familyFor(name, stat);
    expect(STATIC_FAMILIES).toContain(e?.family);
  });

  it.each(["REQ_DELETE_LATENCY", "REQ_BULK_INSERT_LATENCY", "req_search_latency"])(
    "%s without a statistic has no family (never a guessed avg)",
    (name) => {
      expect(lookupFamily(name)).toEqual({ ok: false, reason: "unknown_stat" });
    },
  );

  it("keeps the extra labels in order request_type, stat", () => {
    expect(Object.keys(familyFor("REQ_SEARCH_LATENCY_P99")?.labels ?? {})).toEqual(["request_type", "stat"]);
  });

  it("matches names case-insensitively and ignores surrounding spaces", () => {
    expect(familyFor(" cu_computation ")?.family.name).toBe("vdbcloud_cu_computation_ratio");
    expect(familyFor("req_search_latency_p99")?.labels).toEqual({ request_type: "search", stat: "p99" });
  });

  it("names the upstream metric in HELP", () => {
    expect(familyFor("CU_COMPUTATION")?.family.help).toBe(
      "Share of the cluster's CU compute in use, 0 to 1, in the newest closed bucket (upstream CU_COMPUTATION, percent / 100).",
    );
    expect(familyFor("REQ_SEARCH_COUNT")?.family.help).toContain("REQ_{T}_COUNT");
    expect(familyFor("REQ_FAIL_RATE")?.family.help).toContain("REQ_FAIL_RATE");
  });

  it("memoizes: a repeated lookup returns the same entry", () => {
    expect(familyFor("REQ_SEARCH_COUNT")).toBe(familyFor("REQ_SEARCH_COUNT"));
    expect(familyFor("NEW_METRIC", undefined, "GB")).toBe(familyFor("NEW_METRIC", undefined, "GB"));
  });
});

describe("lookupFamily: names missing from the catalog", () => {
  it.each<[name: string, stat: Stat | undefined, unit: string, family: string, kind: UnitKind]>([
    ["QUEUE_USAGE", undefined, "percent", "vdbcloud_queue_usage_ratio", "ratio"],
    ["INDEX_SIZE", undefined, "MB", "vdbcloud_index_size_bytes", "bytes"],
    ["COMPACTION_TIME", undefined, "ms", "vdbcloud_compaction_time_seconds", "seconds"],
    ["REPLAY_SECONDS", undefined, "s", "vdbcloud_replay_seconds", "seconds"],
    ["COMPACTION_COUNT", undefined, "counts/min", "vdbcloud_compaction_per_second", "per_second"],
    ["PARTITIONS_COUNT", undefined, "count", "vdbcloud_partitions", "count"],
    ["ERRORS_TOTAL", undefined, "count", "vdbcloud_errors", "count"],
    ["SEGMENTS", undefined, "", "vdbcloud_segments", "count"],
    ["QUEUE_WAIT", "AVG", "ms", "vdbcloud_queue_wait_seconds", "seconds"],
    ["QUEUE_WAIT", "P99", "ms", "vdbcloud_queue_wait_p99_seconds", "seconds"],
    ["Disk-Usage", undefined, "GiB", "vdbcloud_disk_usage_bytes", "bytes"],
  ])("%s (stat %s, unit %j) -> %s", (name, stat, unit, family, kind) => {
    const found = lookupFamily(name, stat, unit);
    expect(found).toMatchObject({ ok: true, entry: { family: { name: family, type: "gauge" }, kind } });
    if (found.ok) {
      expect(found.entry.family.help).toContain(`Upstream metric ${name.toUpperCase()}`);
      // Per what: the bucket, like every known cluster family.
      expect(found.entry.family.help).toContain("over the newest closed bucket (metrics.granularity)");
      expect(found.entry.labels).toEqual({});
    }
  });

  it.each<[name: string, unit: string, reason: string]>([
    ["QUEUE_USAGE", "furlongs", "unknown_unit"],
    ["TOTAL", "count", "unknown_metric_name"],
    ["COUNT", "count", "unknown_metric_name"],
    ["***", "count", "unknown_metric_name"],
    ["", "count", "unknown_metric_name"],
    // Would be named like a fixed family with another meaning.
    ["CU_COMPUTATION_RATIO", "percent", "unknown_metric_name"],
  ])("%j with unit %j cannot be exposed: %s", (name, unit, reason) => {
    expect(lookupFamily(name, undefined, unit)).toEqual({ ok: false, reason });
    expect(familyFor(name, undefined, unit)).toBeUndefined();
  });

  it("never names a derived family with _total", () => {
    for (const name of ["X_TOTAL", "X_TOTAL_COUNT", "X_COUNT_TOTAL"]) {
      expect(familyFor(name, undefined, "count")?.family.name).toBe("vdbcloud_x");
    }
  });
});

/** Units promtool's lint flags in a name: it asks for seconds or bytes instead. */
const NON_BASE_UNITS: readonly string[] = [
  "minutes",
  "hours",
  "days",
  "weeks",
  "milliseconds",
  "microseconds",
  "nanoseconds",
  "bits",
  "kilobytes",
  "megabytes",
  "gigabytes",
];

describe("STATIC_FAMILIES", () => {
  it.each(STATIC_FAMILIES.map((f) => [f.name, f]))("%s is well named", (_name, f) => {
    expect(f.name).toMatch(/^vdbcloud_[a-z0-9_]+$/);
    // _total is a counter's suffix only (promtool flags a gauge named so).
    if (f.type !== "counter") expect(f.name).not.toMatch(/_total$/);
    // Base units only: seconds, bytes (promtool flags the others).
    for (const unit of NON_BASE_UNITS) expect(f.name.split("_")).not.toContain(unit);
    expect(f.help.length).toBeGreaterThan(10);
  });

  it("has unique names", () => {
    const names = STATIC_FAMILIES.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("includes the job, inventory and per-target self families", () => {
    const names = STATIC_FAMILIES.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "vdbcloud_import_job_state",
        "vdbcloud_import_jobs",
        "vdbcloud_spark_job_status",
        "vdbcloud_spark_job_failure_info",
        "vdbcloud_cluster_info",
        "vdbcloud_cluster_status",
        "vdbcloud_region_info",
        "vdbcloud_collector_up",
        "vdbcloud_collector_last_success_timestamp_seconds",
        "vdbcloud_metrics_newest_bucket_timestamp_seconds",
        "vdbcloud_samples_dropped_total",
      ]),
    );
  });

  it("includes every family of the catalog table", () => {
    const names = new Set(STATIC_FAMILIES.map((f) => f.name));
    for (const [, , family] of ROWS) expect(names).toContain(family);
  });
});

describe("metricQueryFamilies", () => {
  const cluster = Object.values(CLUSTER_FAMILIES).map((f) => f.name);

  it("is every cluster family for catalog names, whatever is asked", () => {
    expect(metricQueryFamilies(["CU_COMPUTATION", "REQ_SEARCH_LATENCY_P99"]).sort()).toEqual(
      [...cluster].sort(),
    );
    expect(metricQueryFamilies([]).sort()).toEqual([...cluster].sort());
  });

  // The family a name outside the catalog lands in depends on the answer's unit and statistic:
  // every one the mapping can give must be listed, or denying "all" would miss it.
  it.each<[name: string, stat: Stat | undefined, unit: string]>([
    ["NEW_THING_RATE", "AVG", "percent"],
    ["NEW_THING_RATE", undefined, "count"],
    ["NEW_THING_SIZE", "AVG", "GB"],
    ["NEW_THING_LATENCY", "P99", "ms"],
    ["NEW_THING_COUNT", undefined, "count/min"],
  ])("holds the family of %s (stat %s, unit %s)", (name, stat, unit) => {
    const found = lookupFamily(name, stat, unit);
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    const listed = metricQueryFamilies([name.toLowerCase()]);
    expect(listed).toContain(found.entry.family.name);
    expect(listed.length).toBeGreaterThan(cluster.length);
  });
});
