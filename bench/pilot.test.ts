import { describe, expect, it } from "vitest";
import { clustersFor, estimateFrom, runPilot, scopesNeeded, seriesKind } from "./pilot.js";

describe("seriesKind", () => {
  it.each([
    { name: "vdbcloud_cu_computation_ratio", labels: { cluster_id: "c" }, want: "cluster" },
    {
      name: "vdbcloud_entities",
      labels: { cluster_id: "c", db_name: "d", collection_name: "x" },
      want: "scope",
    },
    {
      name: "vdbcloud_import_jobs",
      labels: { cluster_id: "c", collection_name: "x", state: "failed" },
      want: "cluster",
    },
    {
      name: "vdbcloud_collector_up",
      labels: { collector: "cluster_metrics", target: "c/d/x" },
      want: "scope",
    },
    { name: "vdbcloud_collector_up", labels: { collector: "cluster_metrics", target: "c" }, want: "cluster" },
    { name: "vdbcloud_collector_up", labels: { collector: "import_jobs", target: "c" }, want: "cluster" },
    { name: "vdbcloud_collector_up", labels: { collector: "spark_jobs", target: "p/j" }, want: "global" },
    { name: "vdbcloud_collector_up", labels: { collector: "inventory", target: "global" }, want: "global" },
    {
      name: "vdbcloud_spark_job_status",
      labels: { project_id: "p", job_id: "j", status: "running" },
      want: "global",
    },
    {
      name: "vdbcloud_region_info",
      labels: { cloud_id: "aws", region_id: "r", domain: "d" },
      want: "global",
    },
    // Organisation-wide families that carry a cluster_id of a cluster nobody polls.
    { name: "vdbcloud_on_demand_cluster_cu_size", labels: { cluster_id: "od-1" }, want: "global" },
    {
      name: "vdbcloud_collector_up",
      labels: { collector: "backups", target: "organization" },
      want: "global",
    },
    { name: "vdbcloud_collector_up", labels: { collector: "alert_rules", target: "proj-1" }, want: "global" },
    {
      name: "vdbcloud_console_alert_rule_enabled",
      labels: { project_id: "p", rule_id: "r" },
      want: "global",
    },
  ])("$name $labels is $want", ({ name, labels, want }) => {
    expect(seriesKind({ name, labels }, new Set(["c"]))).toBe(want);
  });
});

describe("estimateFrom", () => {
  it("divides cluster and scope series by what was sampled", () => {
    const text = [
      'vdbcloud_entities{cluster_id="a"} 1',
      'vdbcloud_entities{cluster_id="b"} 1',
      'vdbcloud_collector_up{collector="cluster_metrics",target="a"} 1',
      'vdbcloud_collector_up{collector="cluster_metrics",target="b"} 1',
      'vdbcloud_entities{cluster_id="a",db_name="d",collection_name="x"} 1',
      'vdbcloud_collector_up{collector="cluster_metrics",target="a/d/x"} 1',
      'vdbcloud_region_info{cloud_id="aws",region_id="r",domain="h"} 1',
    ].join("\n");
    expect(estimateFrom(text, new Set(["a", "b"]), 1)).toEqual({
      perCluster: 2,
      perScope: 2,
      global: 1,
      sampledClusters: 2,
    });
  });
});

describe("clustersFor", () => {
  it.each([
    // 128 series a cluster: 1,000 clusters would be 128,000 series; 780 make 99,940 with global.
    { perCluster: 128, global: 100, max: 1000, target: 100_000, want: 780 },
    // Fewer series a cluster (metrics only): the maximum, scopes make up the rest.
    { perCluster: 40, global: 100, max: 1000, target: 100_000, want: 1000 },
    { perCluster: 128, global: 100, max: 1000, target: 50, want: 1 },
    { perCluster: 0, global: 0, max: 1000, target: 100_000, want: 1000 },
  ])(
    "$perCluster a cluster, at most $max, to $target: $want",
    ({ perCluster, global, max, target, want }) => {
      expect(clustersFor({ perCluster, perScope: 30, global, sampledClusters: 40 }, max, target)).toBe(want);
    },
  );
});

describe("scopesNeeded", () => {
  const est = { perCluster: 40, perScope: 30, global: 100, sampledClusters: 10 };
  it.each([
    { clusters: 1000, target: 100_000, want: Math.ceil((100_000 - 40_100) / 30) },
    { clusters: 3000, target: 100_000, want: 0 },
    { clusters: 1, target: 170, want: 1 },
    { clusters: 1, target: 140, want: 0 },
  ])("$clusters clusters to $target series: $want scopes", ({ clusters, target, want }) => {
    expect(scopesNeeded(est, clusters, target)).toBe(want);
  });

  it("adds none when scopes yield no series", () => {
    expect(scopesNeeded({ ...est, perScope: 0 }, 1, 1_000_000)).toBe(0);
  });
});

describe("runPilot", () => {
  it("measures the series of a small world through the real exporter", async () => {
    const est = await runPilot({
      clusters: 12,
      seed: 1,
      collectionsPerCluster: 2,
      collectors: { importJobs: false, sparkJobs: false, inventory: true },
      sample: 4,
    });
    expect(est.sampledClusters).toBe(4);
    // 40 default queries (some null in the simulator), the newest-bucket gauge, two health
    // series, and the inventory's info, status state set and CU size.
    expect(est.perCluster).toBeGreaterThan(40);
    expect(est.perCluster).toBeLessThan(70);
    expect(est.perScope).toBeGreaterThan(10);
    expect(est.perScope).toBeLessThan(est.perCluster);
    expect(est.global).toBeGreaterThan(0);
  });
});
