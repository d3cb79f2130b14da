import { describe, expect, it } from "vitest";
import { type ParsedSample, parseExposition } from "./exposition.js";
import { LossTracker, ownerOf } from "./lossTracker.js";

describe("ownerOf", () => {
  it.each([
    {
      name: "vdbcloud_entities",
      labels: { cluster_id: "c" },
      want: { collector: "cluster_metrics", target: "c" },
    },
    {
      name: "vdbcloud_entities",
      labels: { cluster_id: "c", db_name: "d", collection_name: "x" },
      want: { collector: "cluster_metrics", target: "c/d/x" },
    },
    {
      name: "vdbcloud_metrics_newest_bucket_timestamp_seconds",
      labels: { cluster_id: "c", db_name: "d" },
      want: { collector: "cluster_metrics", target: "c/d/" },
    },
    {
      name: "vdbcloud_import_job_state",
      labels: { cluster_id: "c", collection_name: "x", job_id: "j", state: "failed" },
      want: { collector: "import_jobs", target: "c" },
    },
    {
      name: "vdbcloud_import_jobs",
      labels: { cluster_id: "c", collection_name: "x", state: "failed" },
      want: { collector: "import_jobs", target: "c" },
    },
    {
      name: "vdbcloud_cluster_status",
      labels: { cluster_id: "c", status: "running" },
      want: { collector: "inventory", target: "c" },
    },
    {
      name: "vdbcloud_cluster_replicas",
      labels: { cluster_id: "c" },
      want: { collector: "inventory", target: "c" },
    },
    {
      name: "vdbcloud_cluster_snapshots",
      labels: { cluster_id: "c" },
      want: { collector: "inventory", target: "c" },
    },
    {
      name: "vdbcloud_cluster_autoscaling_cu_max",
      labels: { cluster_id: "c" },
      want: { collector: "inventory", target: "c" },
    },
    {
      name: "vdbcloud_region_info",
      labels: { region_id: "r" },
      want: { collector: "inventory", target: "global" },
    },
    {
      name: "vdbcloud_spark_job_info",
      labels: { project_id: "p", job_id: "j", cluster_id: "c" },
      want: { collector: "spark_jobs", target: "p/j" },
    },
    { name: "vdbcloud_collector_up", labels: { collector: "inventory", target: "c" }, want: "health" },
    { name: "vdbcloud_api_requests_total", labels: { endpoint: "e", outcome: "success" }, want: undefined },
    { name: "process_resident_memory_bytes", labels: {}, want: undefined },
  ])("$name $labels -> $want", ({ name, labels, want }) => {
    expect(ownerOf({ name, labels })).toEqual(want);
  });
});

const BOUND = 150_000;
const T = 1_800_000_000_000;

/** A scrape with cluster c's CU series (if `withCu`) and the health of cluster_metrics/c. */
function scrape(opts: { withCu: boolean; lastSuccessMs: number }): ParsedSample[] {
  return parseExposition(
    [
      opts.withCu ? 'vdbcloud_cu_computation_ratio{cluster_id="c"} 0.5' : "",
      'vdbcloud_collector_up{collector="cluster_metrics",target="c"} 1',
      `vdbcloud_collector_last_success_timestamp_seconds{collector="cluster_metrics",target="c"} ${opts.lastSuccessMs / 1000}`,
      'vdbcloud_api_requests_total{endpoint="e",outcome="success"} 1',
    ].join("\n"),
  ).samples;
}

describe("LossTracker", () => {
  it("counts a series dropped by a later successful poll as replaced", () => {
    const t = new LossTracker({ boundMs: BOUND });
    t.observe(T, scrape({ withCu: true, lastSuccessMs: T - 10_000 }));
    t.observe(T + 1000, scrape({ withCu: false, lastSuccessMs: T + 500 }));
    expect([t.replaced, t.expired.length, t.lost.length]).toEqual([1, 0, 0]);
  });

  it("counts a series gone once its last success is older than the bound as expired", () => {
    const t = new LossTracker({ boundMs: BOUND });
    t.observe(T, scrape({ withCu: true, lastSuccessMs: T - BOUND + 2000 }));
    t.observe(T + 2500, scrape({ withCu: false, lastSuccessMs: T - BOUND + 2000 }));
    expect([t.replaced, t.expired.length, t.lost.length]).toEqual([0, 1, 0]);
    expect(t.expired[0]?.owner).toEqual({ collector: "cluster_metrics", target: "c" });
  });

  it("reports a series gone while its data is within the bound and no poll replaced it", () => {
    const t = new LossTracker({ boundMs: BOUND });
    t.observe(T, scrape({ withCu: true, lastSuccessMs: T - 60_000 }));
    t.observe(T + 1000, scrape({ withCu: false, lastSuccessMs: T - 60_000 }));
    expect(t.lost).toEqual([
      {
        series: 'vdbcloud_cu_computation_ratio{cluster_id="c"}',
        atMs: T + 1000,
        owner: { collector: "cluster_metrics", target: "c" },
        lastSuccessMs: T - 60_000,
      },
    ]);
  });

  it("reports a vanished health series, and ignores series that belong to no target", () => {
    const t = new LossTracker({ boundMs: BOUND });
    t.observe(T, scrape({ withCu: true, lastSuccessMs: T }));
    t.observe(T + 1000, parseExposition('vdbcloud_cu_computation_ratio{cluster_id="c"} 0.5').samples);
    expect(t.lost.map((l) => l.series).sort()).toEqual([
      'vdbcloud_collector_last_success_timestamp_seconds{collector="cluster_metrics",target="c"}',
      'vdbcloud_collector_up{collector="cluster_metrics",target="c"}',
    ]);
    expect(t.seen.size).toBe(3);
  });

  it("keeps quiet while every series stays", () => {
    const t = new LossTracker({ boundMs: BOUND });
    for (let i = 0; i < 5; i++) t.observe(T + i * 1000, scrape({ withCu: true, lastSuccessMs: T - 100_000 }));
    expect([t.replaced, t.expired.length, t.lost.length]).toEqual([0, 0, 0]);
  });
});
