/**
 * Spark job discovery and jobs by ID against the simulator: a cluster with 125 Spark jobs more
 * (two pages of List Spark Jobs), and the simulator's migration, backup and failing restore.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, parseSamples, startHarness, sampleValue as value } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const LIST = "GET /v2/jobs";
const DESCRIBE_SPARK = "GET /v2/projects/{projectId}/jobs/{jobId}";
const DESCRIBE_JOB = "GET /v2/jobs/{jobId}";
const HOUR = 3_600_000;
const TERMINAL = new Set(["SUCCEEDED", "FAILED", "TIMEOUT", "CANCELED"]);

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The simulator's truth for one cluster: every Spark job it lists, as Describe shows it now. */
function listedBySimulator(harness: Harness, clusterId: string) {
  return harness.sim.state.sparkJobRefs
    .map((r) => harness.sim.state.sparkJob(r.projectId, r.jobId))
    .filter((j) => j.clusterId === clusterId);
}

describe("Spark job discovery against the simulator", () => {
  it("counts 125+ jobs of one cluster over two pages exactly; per-job series only within retention", {
    timeout: 120_000,
  }, async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    // The simulator's truth is read at the time of the last listing (the clock has moved since).
    let asOf: number | undefined;
    h = await startHarness({
      clock,
      // The simulator's limiter counts in its (manual) time, which stands still between steps:
      // the client's own pacing keeps to the budget in real time.
      sim: { now: () => asOf ?? clock.now(), clusters: 2, busyClusterSparkJobs: 125, rateLimitPerSecond: 0 },
      config: (raw) => {
        // Only the busy cluster, only discovery: an hour of cycles stays quick.
        raw.clusters = (raw.clusters as unknown[]).slice(0, 1);
        (raw.metrics as Record<string, unknown>).enabled = false;
        raw.import_jobs = { enabled: false };
        raw.inventory = { enabled: false };
        raw.spark_jobs = { jobs: [], retention: "PT1H", discovery: { interval: "PT1M" } };
        raw.jobs = { ids: [] };
      },
    });
    const harness = h;
    const cluster = harness.sim.clusters[0]?.id as string;
    const step = (ms: number) => clock.advance(ms, () => harness.settle());
    await harness.exporter.scheduler.firstCycle();
    await step(30_000);
    await harness.settle();

    const check = async () => {
      const text = await harness.metrics();
      const listedAt = harness.sim.stats.lastRequest[LIST]?.atMs as number;
      asOf = listedAt;
      const jobs = listedBySimulator(harness, cluster);
      asOf = undefined;
      expect(jobs.length).toBeGreaterThanOrEqual(125);
      const want = new Map<string, number>();
      for (const j of jobs) want.set(j.status.toLowerCase(), (want.get(j.status.toLowerCase()) ?? 0) + 1);
      for (const status of [
        "pending",
        "preparing",
        "running",
        "succeeded",
        "failed",
        "timeout",
        "cancelling",
        "canceled",
      ]) {
        expect(value(text, "vdbcloud_spark_jobs", { cluster_id: cluster, status }), status).toBe(
          want.get(status) ?? 0,
        );
      }
      const exposed = new Set(
        parseSamples(text)
          .filter((s) => s.name === "vdbcloud_spark_job_info" && s.labels.cluster_id === cluster)
          .map((s) => s.labels.job_id),
      );
      const within = jobs.filter(
        (j) =>
          !TERMINAL.has(j.status) || (j.finishedAt !== null && listedAt - Date.parse(j.finishedAt) < HOUR),
      );
      expect([...exposed].sort()).toEqual(within.map((j) => j.jobId).sort());
      return { jobs, within, text };
    };

    const first = await check();
    // The three kinds of the busy cluster are all there: long finished, recently finished, running.
    expect(first.within.length).toBeLessThan(first.jobs.length);
    expect(first.within.some((j) => TERMINAL.has(j.status))).toBe(true);
    expect(first.within.some((j) => !TERMINAL.has(j.status))).toBe(true);
    // Two pages per listing of the busy cluster (pageSize 100).
    const lists = harness.sim.stats.byEndpointCluster[LIST]?.[cluster] ?? 0;
    expect(lists % 2).toBe(0);
    expect(harness.sim.stats.lastRequest[LIST]?.query).toMatchObject({ type: "SPARK", pageSize: "100" });

    // An hour on, the recently finished ones have left the window; finished jobs were described once.
    const described = harness.sim.stats.byEndpoint[DESCRIBE_SPARK] ?? 0;
    expect(described).toBeGreaterThan(0);
    await step(60 * 60_000);
    await harness.settle();
    const later = await check();
    expect(later.within.length).toBeLessThan(first.within.length);
    const perCycle = ((harness.sim.stats.byEndpoint[DESCRIBE_SPARK] ?? 0) - described) / 60;
    // Only jobs whose status moved are described again: far fewer than the jobs exposed.
    expect(perCycle).toBeLessThan(first.within.length / 4);
    expect(harness.sim.stats.mutatingCalls).toEqual([]);
  });
});

describe("jobs by ID against the simulator", () => {
  it("follows a migration's status and progress to successful, then stops asking; a failed restore is logged once", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    const logs: string[] = [];
    h = await startHarness({
      clock,
      logs,
      sim: { now: () => clock.now(), clusters: 1 },
      config: (raw) => {
        raw.jobs = { ids: (raw.jobs as { ids: string[] }).ids, interval: "PT30S", retention: "PT1H" };
        raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
      },
    });
    const harness = h;
    const refs = harness.sim.state.cloudJobRefs;
    const migration = refs.find((j) => j.type === "MIGRATION")?.jobId as string;
    const restore = refs.find((j) => j.type === "RESTORE")?.jobId as string;
    const labels = { job_id: migration, type: "migration" };
    await harness.exporter.scheduler.firstCycle();
    await clock.advance(15_000);
    await harness.settle();
    let text = await harness.metrics();
    expect(value(text, "vdbcloud_job_status", { ...labels, status: "pending" })).toBe(1);
    expect(value(text, "vdbcloud_job_status", { ...labels, status: "successful" })).toBe(0);

    const seen: number[] = [];
    for (let i = 0; i < 24; i++) {
      await clock.advance(30_000);
      await harness.settle();
      text = await harness.metrics();
      const progress = value(text, "vdbcloud_job_progress_ratio", labels);
      if (progress !== undefined) seen.push(progress);
      // Never ahead of the simulator.
      expect(progress ?? 0).toBeLessThanOrEqual(Number(harness.sim.state.cloudJob(migration).progress) / 100);
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen.filter((p) => p > 0 && p < 1)).size).toBeGreaterThanOrEqual(3);
    const sim = harness.sim.state.cloudJob(migration);
    expect(sim.status).toBe("SUCCESSFUL");
    expect(value(text, "vdbcloud_job_status", { ...labels, status: "successful" })).toBe(1);
    expect(value(text, "vdbcloud_job_status", { ...labels, status: "in_progress" })).toBe(0);
    expect(value(text, "vdbcloud_job_progress_ratio", labels)).toBe(1);
    expect(value(text, "vdbcloud_job_start_timestamp_seconds", labels)).toBe(
      Date.parse(sim.startTime) / 1000,
    );
    expect(value(text, "vdbcloud_job_end_timestamp_seconds", labels)).toBe(Date.parse(sim.endTime) / 1000);

    // The restore failed: shown, its reason logged once.
    expect(value(text, "vdbcloud_job_status", { job_id: restore, type: "restore", status: "failed" })).toBe(
      1,
    );
    const failedLogs = logs.filter((l) => l.includes('"msg":"job failed"'));
    expect(failedLogs).toHaveLength(1);
    expect(failedLogs[0]).toContain(harness.sim.state.cloudJob(restore).reason);

    // Settled: no more Describe Job calls, the series stay for the retention.
    const before = harness.sim.stats.byEndpoint[DESCRIBE_JOB] ?? 0;
    for (let i = 0; i < 4; i++) await clock.advance(30_000);
    await harness.settle();
    expect(harness.sim.stats.byEndpoint[DESCRIBE_JOB] ?? 0).toBe(before);
    expect(value(await harness.metrics(), "vdbcloud_job_status", { ...labels, status: "successful" })).toBe(
      1,
    );
    expect(harness.sim.stats.mutatingCalls).toEqual([]);
  });
});
