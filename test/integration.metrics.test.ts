import { afterEach, describe, expect, it } from "vitest";
import { type Harness, parseSamples, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { promtoolLint } from "./helpers/promtoolLint.js";
import { toolOrSkip } from "./helpers/tools.js";

const METRICS_ENDPOINT = "POST /v2/clusters/{id}/metrics/query";
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("cluster metrics against the simulator", () => {
  it("exposes every catalog family in base units after the first cycle", async () => {
    h = await startHarness();
    await h.exporter.scheduler.firstCycle();
    const samples = parseSamples(await h.metrics());
    const names = new Set(samples.map((s) => s.name));
    for (const family of [
      "vdbcloud_cu_computation_ratio",
      "vdbcloud_cu_capacity_ratio",
      "vdbcloud_write_capacity_ratio",
      "vdbcloud_storage_bytes",
      "vdbcloud_vcu",
      "vdbcloud_requests_per_second",
      "vdbcloud_vector_requests_per_second",
      "vdbcloud_request_latency_seconds",
      "vdbcloud_request_failure_ratio",
      "vdbcloud_slow_queries_per_second",
      "vdbcloud_flushes_per_second",
      "vdbcloud_entities",
      "vdbcloud_loaded_entities",
      "vdbcloud_indexed_entities",
      "vdbcloud_collections",
      "vdbcloud_unloaded_collections",
      "vdbcloud_metrics_newest_bucket_timestamp_seconds",
      "vdbcloud_collector_up",
      "vdbcloud_collector_last_success_timestamp_seconds",
    ]) {
      expect(names, family).toContain(family);
    }
    const values = (name: string) => samples.filter((s) => s.name === name).map((s) => s.value);
    // Ratios, not percents; seconds, not milliseconds; bytes, not GB.
    expect(values("vdbcloud_cu_computation_ratio").every((v) => v >= 0 && v <= 1)).toBe(true);
    expect(values("vdbcloud_request_latency_seconds").every((v) => v > 0 && v < 10)).toBe(true);
    expect(Math.max(...values("vdbcloud_storage_bytes"))).toBeGreaterThan(1e6);
    // P99 is at least the average for the same cluster and request type.
    const lat = samples.filter((s) => s.name === "vdbcloud_request_latency_seconds");
    for (const p99 of lat.filter((s) => s.labels.stat === "p99")) {
      const avg = lat.find(
        (s) =>
          s.labels.stat === "avg" &&
          s.labels.cluster_id === p99.labels.cluster_id &&
          s.labels.request_type === p99.labels.request_type &&
          s.labels.collection_name === p99.labels.collection_name,
      );
      if (avg) expect(p99.value).toBeGreaterThanOrEqual(avg.value);
    }
    // Scoped targets add db_name and collection_name.
    expect(samples.some((s) => s.name === "vdbcloud_entities" && s.labels.collection_name)).toBe(true);
    // Every target is up.
    expect(values("vdbcloud_collector_up").every((v) => v === 1)).toBe(true);
  });

  it("sends exactly one metrics request per target per cycle and meets no rate limit", async () => {
    // Only the second (current) request form: one request carries every query of a target.
    h = await startHarness({
      config: (raw) => {
        raw.metrics = { granularity: "PT30S", interval: "PT30S", lookback: "PT5M" };
      },
    });
    await h.exporter.scheduler.firstCycle();
    const targets = h.exporter.scheduler.status().filter((t) => t.collector === "cluster_metrics").length;
    const clusters = h.sim.clusters.length;
    // demoConfig scopes two collections of the first cluster.
    expect(targets).toBe(clusters + 2);
    expect(h.sim.stats.byEndpoint[METRICS_ENDPOINT]).toBe(targets);
    const perCluster = h.sim.stats.byEndpointCluster[METRICS_ENDPOINT] ?? {};
    const first = h.sim.clusters[0]?.id as string;
    for (const c of h.sim.clusters) expect(perCluster[c.id], c.id).toBe(c.id === first ? 3 : 1);
    expect(h.sim.stats.rateLimited).toBe(0);
    expect(h.sim.stats.mutatingCalls).toEqual([]);
    // The request carried every configured query with the bearer key and an aligned window.
    const last = h.sim.stats.lastRequest[METRICS_ENDPOINT];
    expect(last?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(last?.headers["user-agent"]).toBe("vdbcloud-exporter/test");
    const body = last?.body as { start: string; end: string; granularity: string; metricQueries: unknown[] };
    expect(body.granularity).toBe("PT30S");
    expect(Date.parse(body.end) % 30_000).toBe(0);
    expect(Date.parse(body.end) - Date.parse(body.start)).toBe(300_000);
  });

  it("with both request forms configured, splits cluster-wide requests in two and never mixes forms", async () => {
    h = await startHarness(); // the demo config asks for first-form-only metrics too
    await h.exporter.scheduler.firstCycle();
    const perCluster = h.sim.stats.byEndpointCluster[METRICS_ENDPOINT] ?? {};
    const first = h.sim.clusters[0]?.id as string;
    // Two per cluster-wide target; scoped targets (two on the first cluster) use the second form only.
    for (const c of h.sim.clusters) expect(perCluster[c.id], c.id).toBe(c.id === first ? 4 : 2);
    const samples = parseSamples(await h.metrics());
    expect(samples.some((s) => s.name === "vdbcloud_request_success_ratio")).toBe(true);
    expect(samples.some((s) => s.name === "vdbcloud_entity_inserts_per_second")).toBe(true);
    // REQ_SEARCH_LATENCY (P99, first form) and REQ_SEARCH_LATENCY_P99 (second form) are one series.
    const searchP99 = samples.filter(
      (s) =>
        s.name === "vdbcloud_request_latency_seconds" &&
        s.labels.cluster_id === first &&
        s.labels.request_type === "search" &&
        s.labels.stat === "p99" &&
        s.labels.collection_name === undefined,
    );
    expect(searchP99.length).toBe(1);
  });

  it("exposes no series for a metric whose buckets are all null", async () => {
    h = await startHarness();
    const running = h.sim.clusters.filter((c) => c.status === "RUNNING");
    expect(running.length).toBeGreaterThanOrEqual(2);
    const quiet = running[1]?.id as string;
    h.sim.state.setMetricNull(quiet, "CU_COMPUTATION", true);
    await h.exporter.scheduler.firstCycle();
    const samples = parseSamples(await h.metrics());
    const cu = samples.filter((s) => s.name === "vdbcloud_cu_computation_ratio");
    expect(cu.some((s) => s.labels.cluster_id === quiet)).toBe(false);
    // Null is never 0: the other cluster still has its sample, and the quiet one has other metrics.
    expect(cu.some((s) => s.labels.cluster_id !== quiet)).toBe(true);
    expect(samples.some((s) => s.name === "vdbcloud_storage_bytes" && s.labels.cluster_id === quiet)).toBe(
      true,
    );
  });

  it("lists every scheduled target on the landing page, pending until polled, then with its poll's duration", async () => {
    h = await startHarness();
    const scheduled = h.exporter.scheduledTasks().map((t) => `${t.id.collector} ${t.id.target}`);
    const listed = () => h?.exporter.landing().targets ?? [];
    expect(scheduled.length).toBeGreaterThan(10);
    expect(
      listed()
        .map((t) => `${t.collector} ${t.target}`)
        .sort(),
    ).toEqual([...scheduled].sort());
    await h.exporter.scheduler.firstCycle();
    expect(listed()).toHaveLength(h.exporter.scheduledTasks().length);
    for (const t of listed()) {
      expect(t.up, `${t.collector} ${t.target}`).not.toBeNull();
      expect(t.lastPollSeconds, `${t.collector} ${t.target}`).toBeGreaterThan(0);
    }
  });

  it("never shows the API key on /metrics or the landing page", async () => {
    h = await startHarness();
    await h.exporter.scheduler.firstCycle();
    expect(await h.metrics()).not.toContain(TEST_API_KEY);
    expect(await (await fetch(`${h.url}/`)).text()).not.toContain(TEST_API_KEY);
  });

  const promtool = toolOrSkip("promtool");
  // Skipped only where promtool is missing outside CI (toolOrSkip printed why); CI fails instead.
  it.skipIf(promtool.skip)("passes promtool check metrics for the exporter's own families", async () => {
    h = await startHarness();
    await h.exporter.scheduler.firstCycle();
    const text = await h.metrics();
    const path = promtool.skip ? "" : promtool.path;
    // `promtool check metrics` exits non-zero on any lint problem and prints it: nothing may be reported.
    expect(promtoolLint(path, text)).toEqual([]);
  });
});
