import { afterEach, describe, expect, it } from "vitest";
import { type Harness, parseSamples, startHarness, sampleValue as value } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const SPARK_ENDPOINT = "GET /v2/projects/{projectId}/jobs/{jobId}";
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("jobs and inventory against the simulator", () => {
  it("follows import job states, keeps terminal jobs for the retention, then only counts them", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    h = await startHarness({
      clock,
      sim: { now: () => clock.now(), clusters: 2 },
      config: (raw) => {
        raw.import_jobs = { interval: "PT30S", retention: "PT5M" };
      },
    });
    const cluster = h.sim.clusters[0]?.id as string;
    const jobId = h.sim.state.addImportJob(cluster, { collectionName: "docs", state: "ImportRunning" });
    await h.exporter.scheduler.firstCycle();
    // First slots fall 0.5 to 1.5 intervals after start: from here, one step polls each target once.
    await clock.advance(15_000);
    let text = await h.metrics();
    const labels = { cluster_id: cluster, job_id: jobId };
    expect(value(text, "vdbcloud_import_job_state", { ...labels, state: "running" })).toBe(1);
    expect(value(text, "vdbcloud_import_job_state", { ...labels, state: "completed" })).toBe(0);

    h.sim.state.setImportJobState(cluster, jobId, "ImportCompleted");
    await clock.advance(30_000);
    // The poll asks the job's progress too (paced in real time): let it finish.
    await h.settle();
    text = await h.metrics();
    expect(value(text, "vdbcloud_import_job_state", { ...labels, state: "completed" })).toBe(1);
    expect(
      value(text, "vdbcloud_import_jobs", {
        cluster_id: cluster,
        collection_name: "docs",
        state: "completed",
      }),
    ).toBeGreaterThanOrEqual(1);

    // Past the retention the per-job series go; the per-state counts stay.
    await clock.advance(6 * 60_000);
    text = await h.metrics();
    expect(value(text, "vdbcloud_import_job_state", { ...labels, state: "completed" })).toBeUndefined();
    expect(
      value(text, "vdbcloud_import_jobs", {
        cluster_id: cluster,
        collection_name: "docs",
        state: "completed",
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it("polls a Spark job until it settles in a terminal status, confirms once, then stops; retention removes it", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    let ref: { projectId: string; jobId: string } | undefined;
    h = await startHarness({
      clock,
      sim: { now: () => clock.now(), clusters: 2 },
      config: (raw) => {
        const jobs = (raw.spark_jobs as { jobs: { project_id: string; job_id: string }[] }).jobs;
        const first = jobs[0] as { project_id: string; job_id: string };
        ref = { projectId: first.project_id, jobId: first.job_id };
        // Discovery would describe the project's other jobs on the same endpoint (its own test:
        // integration.sparkjobs.test.ts); here only the configured job's calls are counted.
        raw.spark_jobs = {
          interval: "PT30S",
          retention: "PT10M",
          jobs: [first],
          discovery: { enabled: false },
        };
      },
    });
    const job = ref as { projectId: string; jobId: string };
    h.sim.state.setSparkJobStatus(job.projectId, job.jobId, "RUNNING");
    await h.exporter.scheduler.firstCycle();
    // First slots fall 0.5 to 1.5 intervals after start: from here, one step polls each target once.
    await clock.advance(15_000);
    const labels = { project_id: job.projectId, job_id: job.jobId };
    let text = await h.metrics();
    // The first poll may have seen the generated status; after one more cycle it is RUNNING.
    await clock.advance(30_000);
    text = await h.metrics();
    expect(value(text, "vdbcloud_spark_job_status", { ...labels, status: "running" })).toBe(1);
    expect(value(text, "vdbcloud_spark_job_finished_timestamp_seconds", labels)).toBeUndefined();
    expect(value(text, "vdbcloud_spark_job_info", labels)).toBe(1);

    h.sim.state.setSparkJobStatus(job.projectId, job.jobId, "FAILED");
    const before = h.sim.stats.byEndpoint[SPARK_ENDPOINT] ?? 0;
    await clock.advance(30_000); // sees FAILED
    await clock.advance(30_000); // confirms FAILED
    const settled = h.sim.stats.byEndpoint[SPARK_ENDPOINT] ?? 0;
    expect(settled - before).toBe(2);
    text = await h.metrics();
    expect(value(text, "vdbcloud_spark_job_status", { ...labels, status: "failed" })).toBe(1);
    expect(value(text, "vdbcloud_spark_job_status", { ...labels, status: "running" })).toBe(0);
    expect(value(text, "vdbcloud_spark_job_finished_timestamp_seconds", labels)).toBeGreaterThan(0);
    expect(
      parseSamples(text).some(
        (s) => s.name === "vdbcloud_spark_job_failure_info" && s.labels.job_id === job.jobId,
      ),
    ).toBe(true);

    // No more requests for a settled job; still exposed within the retention.
    await clock.advance(5 * 60_000);
    expect(h.sim.stats.byEndpoint[SPARK_ENDPOINT] ?? 0).toBe(settled);
    expect(value(await h.metrics(), "vdbcloud_spark_job_status", { ...labels, status: "failed" })).toBe(1);

    // Past the retention: gone, health series included.
    await clock.advance(6 * 60_000);
    h.exporter.store.sweep();
    text = await h.metrics();
    expect(value(text, "vdbcloud_spark_job_status", { ...labels, status: "failed" })).toBeUndefined();
    expect(
      value(text, "vdbcloud_collector_up", {
        collector: "spark_jobs",
        target: `${job.projectId}/${job.jobId}`,
      }),
    ).toBeUndefined();
    expect(h.sim.stats.byEndpoint[SPARK_ENDPOINT] ?? 0).toBe(settled);
  });

  it("exposes cluster info, status as a state set that follows the upstream, CU size, projects and regions", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    h = await startHarness({ clock, sim: { now: () => clock.now(), clusters: 3 } });
    await h.exporter.scheduler.firstCycle();
    // First slots fall 0.5 to 1.5 intervals after start: from here, one step polls each target once.
    await clock.advance(15_000);
    const c = h.sim.clusters[0];
    if (!c) throw new Error("no cluster");
    let text = await h.metrics();
    expect(
      value(text, "vdbcloud_cluster_info", {
        cluster_id: c.id,
        cluster_name: c.name,
        project_id: c.projectId,
        region_id: c.regionId,
      }),
    ).toBe(1);
    expect(value(text, "vdbcloud_cluster_cu_size", { cluster_id: c.id })).toBe(c.cuSize);
    expect(value(text, "vdbcloud_cluster_status", { cluster_id: c.id, status: c.status.toLowerCase() })).toBe(
      1,
    );
    expect(parseSamples(text).filter((s) => s.name === "vdbcloud_region_info").length).toBe(
      h.sim.regions.length,
    );
    expect(parseSamples(text).some((s) => s.name === "vdbcloud_project_clusters")).toBe(true);

    h.sim.state.setClusterStatus(c.id, "ABNORMAL");
    await clock.advance(30_000);
    text = await h.metrics();
    expect(value(text, "vdbcloud_cluster_status", { cluster_id: c.id, status: "abnormal" })).toBe(1);
    expect(value(text, "vdbcloud_cluster_status", { cluster_id: c.id, status: "running" })).toBe(0);
  });

  it("shows free and serverless clusters without a CU size, a creating one's progress, replicas and autoscaling", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    // The simulator's own limiter would count every request in one frozen manual second.
    h = await startHarness({ clock, sim: { now: () => clock.now(), clusters: 12, rateLimitPerSecond: 0 } });
    await h.exporter.scheduler.firstCycle();
    await clock.advance(15_000);
    const text = await h.metrics();
    const free = h.sim.clusters.find((c) => c.plan === "Free");
    const serverless = h.sim.clusters.find((c) => c.plan === "Serverless");
    const creating = h.sim.clusters.find((c) => c.status === "CREATING");
    const scaled = h.sim.clusters.find((c) => c.autoscalingCu !== undefined && c.replica !== undefined);
    if (!free || !serverless || !creating || !scaled) throw new Error("the simulator lacks a cluster kind");
    expect(free.id).toMatch(/^in03-/);
    for (const c of [free, serverless]) {
      expect(value(text, "vdbcloud_cluster_cu_size", { cluster_id: c.id })).toBeUndefined();
      expect(value(text, "vdbcloud_cluster_info", { cluster_id: c.id, plan: c.plan, cu_type: "" })).toBe(1);
      expect(value(text, "vdbcloud_cluster_replicas", { cluster_id: c.id })).toBeUndefined();
    }
    expect(value(text, "vdbcloud_cluster_create_progress_ratio", { cluster_id: creating.id })).toBe(0.4);
    expect(value(text, "vdbcloud_cluster_status", { cluster_id: creating.id, status: "creating" })).toBe(1);
    expect(value(text, "vdbcloud_cluster_create_progress_ratio", { cluster_id: scaled.id })).toBeUndefined();
    expect(value(text, "vdbcloud_cluster_cu_size", { cluster_id: scaled.id })).toBe(scaled.cuSize);
    expect(value(text, "vdbcloud_cluster_replicas", { cluster_id: scaled.id })).toBe(scaled.replica);
    expect(value(text, "vdbcloud_cluster_autoscaling_cu_min", { cluster_id: scaled.id })).toBe(
      scaled.autoscalingCu?.min,
    );
    expect(value(text, "vdbcloud_cluster_autoscaling_cu_max", { cluster_id: scaled.id })).toBe(
      scaled.autoscalingCu?.max,
    );
    expect(value(text, "vdbcloud_cluster_snapshots", { cluster_id: scaled.id })).toBe(scaled.snapshotNumber);
  });

  it("discovers clusters through List Clusters and polls them without listing them by hand", async () => {
    h = await startHarness({
      sim: { clusters: 5 },
      config: (raw) => {
        raw.clusters = [];
        raw.inventory = { interval: "PT30S", discovery: { enabled: true } };
      },
    });
    // The cluster discovery run rebuilds the tasks; wait for the second wave of first runs.
    for (let i = 0; i < 50 && h.exporter.clusters().length < 5; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(
      h.exporter
        .clusters()
        .map((c) => c.id)
        .sort(),
    ).toEqual(h.sim.clusters.map((c) => c.id).sort());
    await h.exporter.scheduler.firstCycle();
    const text = await h.metrics();
    for (const c of h.sim.clusters) {
      expect(
        parseSamples(text).some((s) => s.name === "vdbcloud_cluster_info" && s.labels.cluster_id === c.id),
        c.id,
      ).toBe(true);
    }
    expect(parseSamples(text).some((s) => s.name === "vdbcloud_import_jobs")).toBe(true);
  });
});
