import { describe, expect, it } from "vitest";
import { CLUSTER_FAMILIES } from "../src/metrics/clusterFamilies.js";
import {
  eitherSource,
  JOIN_WITHOUT,
  joinLabelsOf,
  NATIVE_LEVELS,
  NATIVE_SOURCES,
  NativeSourceError,
  nativeRuleGroups,
  recordsOf,
  withNativeSources,
} from "./native.js";

function source(family: string) {
  const found = NATIVE_SOURCES.find((s) => s.family.name === family);
  if (found === undefined) throw new Error(`no native source for ${family}`);
  return found;
}

describe("NATIVE_SOURCES", () => {
  it("covers every cluster family but those the native endpoint has no counterpart of", () => {
    const covered = new Set(NATIVE_SOURCES.map((s) => s.family.name));
    const uncovered = Object.values(CLUSTER_FAMILIES)
      .map((f) => f.name)
      .filter((n) => !covered.has(n));
    // vCUs exist on Free and Serverless only; the native endpoint has no entity insert rate.
    expect(uncovered.sort()).toEqual(["vdbcloud_entity_inserts_per_second", "vdbcloud_vcu"]);
  });

  it("names each record level:metric:operations after the native family, at a known level", () => {
    const levels = Object.values(NATIVE_LEVELS).join("|");
    for (const s of NATIVE_SOURCES) {
      for (const r of recordsOf(s))
        expect(r).toMatch(new RegExp(`^(${levels}):zilliz_[a-z0-9_]+:[a-z0-9_]+$`));
    }
  });

  it("records no name for two families, and no name twice with the same added labels", () => {
    const owner = new Map<string, string>();
    const seen = new Set<string>();
    for (const s of NATIVE_SOURCES) {
      for (const r of s.rules) {
        expect(owner.get(r.record) ?? s.family.name, r.record).toBe(s.family.name);
        owner.set(r.record, s.family.name);
        const key = `${r.record} ${JSON.stringify(r.labels ?? {})}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
    }
  });

  it("drops every label the exporter's family lacks (aggregations by the family's labels only)", () => {
    for (const s of NATIVE_SOURCES) {
      for (const r of s.rules) {
        expect(r.expr, r.record).not.toMatch(/\bwithout\b/);
        expect(r.expr, r.record).toMatch(/\b(?:sum|max) by \(cluster_id\b/);
      }
    }
  });

  it("joins every family without db_name, which no native series carries", () => {
    expect(JOIN_WITHOUT).toEqual(["db_name"]);
    for (const s of NATIVE_SOURCES) {
      const on = joinLabelsOf(s.family);
      expect(on, s.family.name).not.toContain("db_name");
      expect(on[0], s.family.name).toBe("cluster_id");
      expect(eitherSource(s, '{collection_name!=""}'), s.family.name).not.toMatch(/\bon \([^)]*\bdb_name\b/);
    }
  });

  it("records the entity gauges per collection from series that name no database", () => {
    for (const family of ["vdbcloud_entities", "vdbcloud_loaded_entities", "vdbcloud_indexed_entities"]) {
      const rules = source(family).rules;
      const native = family.replace("vdbcloud_", "zilliz_");
      expect(rules.map((r) => r.record)).toEqual([
        `vdbcloud_cluster:${native}:sum`,
        `vdbcloud_collection:${native}:max`,
      ]);
      // Selected by collection_name alone: a series without db_name is kept, none is required.
      for (const r of rules) expect(r.expr).not.toMatch(/db_name\s*(=|!=|=~|!~)/);
    }
  });

  it("puts each rule in the group of its level", () => {
    const groups = nativeRuleGroups();
    expect(groups.map((g) => g.name)).toEqual(["vdbcloud-native", "vdbcloud-native-collections"]);
    expect(groups.flatMap((g) => g.rules).length).toBe(NATIVE_SOURCES.flatMap((s) => s.rules).length);
    expect(groups[0]?.rules.every((r) => r.record.startsWith("vdbcloud_cluster:"))).toBe(true);
    expect(groups[1]?.rules.every((r) => r.record.startsWith("vdbcloud_collection:"))).toBe(true);
  });
});

describe("eitherSource", () => {
  it.each([
    {
      family: "vdbcloud_cu_computation_ratio",
      selector: '{cluster_id=~"$cluster", collection_name=""}',
      expected:
        '(vdbcloud_cu_computation_ratio{cluster_id=~"$cluster", collection_name=""} or on (cluster_id, collection_name) vdbcloud_cluster:zilliz_cluster_computation:max{cluster_id=~"$cluster", collection_name=""})',
    },
    {
      family: "vdbcloud_storage_bytes",
      selector: "",
      expected:
        "(vdbcloud_storage_bytes or on (cluster_id, collection_name) vdbcloud_cluster:zilliz_storage_bytes:max)",
    },
    {
      // Per cluster and per collection: both recordings, or-ed.
      family: "vdbcloud_entities",
      selector: "",
      expected:
        "(vdbcloud_entities or on (cluster_id, collection_name) (vdbcloud_cluster:zilliz_entities:sum or vdbcloud_collection:zilliz_entities:max))",
    },
    {
      // collection_name!="" selects no per-cluster recording.
      family: "vdbcloud_requests_per_second",
      selector: '{collection_name!=""}',
      expected:
        '(vdbcloud_requests_per_second{collection_name!=""} or on (cluster_id, collection_name, request_type) vdbcloud_collection:zilliz_requests:rate5m{collection_name!=""})',
    },
    {
      // stat="avg" selects the mean only, and per cluster only.
      family: "vdbcloud_request_latency_seconds",
      selector: '{collection_name="", stat="avg"}',
      expected:
        '(vdbcloud_request_latency_seconds{collection_name="", stat="avg"} or on (cluster_id, collection_name, request_type, stat) vdbcloud_cluster:zilliz_request_duration_seconds:mean5m{collection_name="", stat="avg"})',
    },
    {
      family: "vdbcloud_request_latency_seconds",
      selector: '{stat=~"p50|p90"}',
      expected:
        '(vdbcloud_request_latency_seconds{stat=~"p50|p90"} or on (cluster_id, collection_name, request_type, stat) vdbcloud_cluster:zilliz_request_duration_seconds:quantile_rate5m{stat=~"p50|p90"})',
    },
    {
      // A Grafana variable in a regex may select anything.
      family: "vdbcloud_request_latency_seconds",
      selector: '{stat=~"$stat"}',
      expected:
        '(vdbcloud_request_latency_seconds{stat=~"$stat"} or on (cluster_id, collection_name, request_type, stat) (vdbcloud_cluster:zilliz_request_duration_seconds:quantile_rate5m{stat=~"$stat"} or vdbcloud_collection:zilliz_request_duration_seconds:quantile_rate5m{stat=~"$stat"} or vdbcloud_cluster:zilliz_request_duration_seconds:mean5m{stat=~"$stat"}))',
    },
    {
      // Nothing native can match: the family alone.
      family: "vdbcloud_metrics_newest_bucket_timestamp_seconds",
      selector: '{collection_name!=""}',
      expected: 'vdbcloud_metrics_newest_bucket_timestamp_seconds{collection_name!=""}',
    },
  ])("$family$selector", ({ family, selector, expected }) => {
    expect(eitherSource(source(family), selector)).toBe(expected);
  });
});

describe("withNativeSources", () => {
  it.each([
    [
      'max(vdbcloud_cu_capacity_ratio{cluster_id=~"$cluster", collection_name=""}) > 0.9',
      'max((vdbcloud_cu_capacity_ratio{cluster_id=~"$cluster", collection_name=""} or on (cluster_id, collection_name) vdbcloud_cluster:zilliz_cluster_capacity:max{cluster_id=~"$cluster", collection_name=""})) > 0.9',
    ],
    [
      "time() - vdbcloud_metrics_newest_bucket_timestamp_seconds",
      "time() - (vdbcloud_metrics_newest_bucket_timestamp_seconds or on (cluster_id, collection_name) vdbcloud_cluster:zilliz_cluster_capacity:timestamp)",
    ],
    // Families the native endpoint lacks, names that only contain a family's, and the exporter's own.
    ['vdbcloud_vcu{collection_name=""}', 'vdbcloud_vcu{collection_name=""}'],
    [
      "vdbcloud_unloaded_collections_total + x_vdbcloud_collections",
      "vdbcloud_unloaded_collections_total + x_vdbcloud_collections",
    ],
    ["rate(vdbcloud_api_requests_total[5m])", "rate(vdbcloud_api_requests_total[5m])"],
  ])("%s", (expr, expected) => {
    expect(withNativeSources(expr)).toBe(expected);
  });

  it("rewrites every family of an expression, each once", () => {
    const out = withNativeSources("vdbcloud_entities / vdbcloud_loaded_entities");
    expect(out.match(/ or on \(/g)?.length).toBe(2);
    expect(out).toContain("vdbcloud_cluster:zilliz_entities:sum");
    expect(out).toContain("vdbcloud_cluster:zilliz_loaded_entities:sum");
  });

  it("is idempotent, and undoes an expansion made from another table", () => {
    const expr = 'sum without (request_type) (vdbcloud_requests_per_second{collection_name=""}) > 1';
    const once = withNativeSources(expr);
    expect(once).not.toBe(expr);
    expect(withNativeSources(once)).toBe(once);
    const older =
      "(vdbcloud_entities or on (cluster_id) (vdbcloud_cluster:zilliz_entities:old or vdbcloud_collection:zilliz_entities:gone))";
    expect(withNativeSources(older)).toBe(withNativeSources("vdbcloud_entities"));
  });

  it.each([
    "rate(vdbcloud_requests_per_second[5m])",
    'max_over_time(vdbcloud_cu_capacity_ratio{collection_name=""} [1h])',
    "vdbcloud_storage_bytes offset 1d",
    "vdbcloud_storage_bytes @ 1700000000",
  ])("refuses %s: PromQL has no range or offset of an `or`", (expr) => {
    expect(() => withNativeSources(expr)).toThrow(NativeSourceError);
    expect(() => withNativeSources(expr)).toThrow(/aggregate it in a recording rule first/);
  });
});
