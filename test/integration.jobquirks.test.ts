/**
 * The exporter against a simulator that caps import job pages and sends Spark jobs with odd
 * field types (both quirks on at once): every import job is listed in exactly the pages that
 * exist, and every Spark job is read with exact values.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import {
  matching as find,
  type Harness,
  parseSamples,
  type Samples,
  startHarness,
} from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const IMPORT_ENDPOINT = "GET /v1/vector/collections/import/list";
const JOBS_PER_CLUSTER = 23;
const PAGE_CAP = 5;

let h: Harness | undefined;
let sim: Simulator | undefined;

afterEach(async () => {
  await h?.close();
  await sim?.close();
  h = undefined;
  sim = undefined;
});

function value(samples: Samples, name: string, labels: Record<string, string>): number | undefined {
  return find(samples, name, labels)[0]?.value;
}

describe("jobs against a simulator with the page cap and odd Spark fields", () => {
  it("lists every import job in the pages that exist and reads every Spark job exactly", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    sim = await startSimulator({
      host: "127.0.0.1",
      clusters: 2,
      seed: 3,
      now: () => clock.now(),
      importJobsPerCluster: JOBS_PER_CLUSTER,
      // Slow enough that no import job rolls over during the test: the listing checked below is
      // the one the exporter polled.
      timeScale: 0.001,
      quirks: { importPageCap: PAGE_CAP, oddSparkFields: true },
    });
    const s = sim;
    const project = s.projects[0]?.id as string;
    const clusterId = s.clusters.find((c) => c.projectId === project)?.id ?? (s.clusters[0]?.id as string);
    const add = (
      jobId: string,
      scenario: "succeeded" | "failed" | "precheck_failed" | "canceled",
      status?: string,
    ) =>
      s.state.addSparkJob({
        projectId: project,
        jobId,
        scenario,
        clusterId,
        ...(status === undefined ? {} : { status: status as "RUNNING" }),
      });
    const jobs = [
      add("job-cancelling", "canceled", "CANCELLING"),
      add("job-failed", "failed", "FAILED"),
      add("job-succeeded", "succeeded", "SUCCEEDED"),
      add("job-precheck", "precheck_failed", "FAILED"),
      add("job-pending", "succeeded", "PENDING"),
    ];
    const createdS = Math.floor(clock.now() / 1000);

    h = await startHarness({
      clock,
      simulator: s,
      config: (raw) => {
        // The v1 listing, as the service's regional controller pages it (V2: integration.importsV2).
        raw.import_jobs = { interval: "PT30S", page_size: 100, api: "v1" };
        raw.spark_jobs = {
          interval: "PT30S",
          jobs: jobs.map((j) => ({ project_id: j.projectId, job_id: j.jobId })),
        };
      },
    });
    await h.exporter.scheduler.firstCycle();
    // First slots fall 0.5 to 1.5 intervals after start: from here, one step polls each target once.
    await clock.advance(15_000);
    await h.settle();
    const before = { ...s.stats.byEndpointCluster[IMPORT_ENDPOINT] };
    await clock.advance(30_000);
    await h.settle();
    const after = s.stats.byEndpointCluster[IMPORT_ENDPOINT] ?? {};
    const samples = parseSamples(await h.metrics());

    const pages = Math.ceil(JOBS_PER_CLUSTER / PAGE_CAP);
    for (const c of s.clusters) {
      // One cycle: exactly the pages that exist, the first asked at 100, the rest at the cap.
      expect((after[c.id] ?? 0) - (before[c.id] ?? 0)).toBe(pages);
      const listed = s.state.importJobs(c.id);
      expect(listed).toHaveLength(JOBS_PER_CLUSTER);
      for (const job of listed) {
        const set = find(samples, "vdbcloud_import_job_state", { cluster_id: c.id, job_id: job.jobId });
        expect(
          set.filter((x) => x.value === 1),
          job.jobId,
        ).toHaveLength(1);
      }
      const counted = find(samples, "vdbcloud_import_jobs", { cluster_id: c.id }).reduce(
        (n, x) => n + x.value,
        0,
      );
      expect(counted).toBe(JOBS_PER_CLUSTER);
    }
    expect(s.stats.lastRequest[IMPORT_ENDPOINT]?.query).toMatchObject({ pageSize: String(PAGE_CAP) });

    const id = (jobId: string) => ({ project_id: project, job_id: jobId });
    const statusOf = (jobId: string) =>
      find(samples, "vdbcloud_spark_job_status", id(jobId))
        .filter((x) => x.value === 1)
        .map((x) => x.labels.status);

    // CANCELING on the wire is the one cancelling state.
    expect(statusOf("job-cancelling")).toEqual(["cancelling"]);
    expect(
      find(samples, "vdbcloud_spark_job_status", { ...id("job-cancelling"), status: "canceling" }),
    ).toEqual([]);

    // A failure reason without retryable says "unknown", never "false".
    expect(statusOf("job-failed")).toEqual(["failed"]);
    expect(find(samples, "vdbcloud_spark_job_failure_info", id("job-failed")).map((x) => x.labels)).toEqual([
      { ...id("job-failed"), code: "EXECUTOR_LOST", retryable: "unknown" },
    ]);

    // A passed precheck without an errors list: no error count; the rest exact.
    expect(statusOf("job-succeeded")).toEqual(["succeeded"]);
    expect(value(samples, "vdbcloud_spark_job_precheck_passed", id("job-succeeded"))).toBe(1);
    expect(value(samples, "vdbcloud_spark_job_precheck_checked_rows", id("job-succeeded"))).toBe(250_000);
    expect(value(samples, "vdbcloud_spark_job_precheck_errors", id("job-succeeded"))).toBeUndefined();
    expect(value(samples, "vdbcloud_spark_job_finished_timestamp_seconds", id("job-succeeded"))).toBe(
      createdS,
    );
    expect(value(samples, "vdbcloud_spark_job_duration_seconds", id("job-succeeded"))).toBe(0);

    // A failed precheck keeps its errors list: two errors.
    expect(value(samples, "vdbcloud_spark_job_precheck_errors", id("job-precheck"))).toBe(2);
    expect(value(samples, "vdbcloud_spark_job_precheck_passed", id("job-precheck"))).toBe(0);
    expect(find(samples, "vdbcloud_spark_job_failure_info", id("job-precheck"))[0]?.labels).toMatchObject({
      code: "PRECHECK_FAILED",
      retryable: "unknown",
    });

    // Empty-string timestamps read as not yet reached.
    expect(statusOf("job-pending")).toEqual(["pending"]);
    expect(value(samples, "vdbcloud_spark_job_created_timestamp_seconds", id("job-pending"))).toBe(createdS);
    for (const name of ["submitted", "started", "finished"]) {
      expect(
        value(samples, `vdbcloud_spark_job_${name}_timestamp_seconds`, id("job-pending")),
        name,
      ).toBeUndefined();
    }

    // Odd unused fields cost no job: every one is up, with its info series.
    for (const j of jobs) {
      expect(
        value(samples, "vdbcloud_collector_up", { collector: "spark_jobs", target: `${project}/${j.jobId}` }),
      ).toBe(1);
      expect(find(samples, "vdbcloud_spark_job_info", id(j.jobId))[0]?.labels).toMatchObject({
        type: "BACKFILL",
        cluster_id: clusterId,
      });
    }
  });
});
