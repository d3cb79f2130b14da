import { describe, expect, it } from "vitest";
import type { SparkJob } from "../../upstream/types.js";
import {
  type DescribedJob,
  mapSparkListing,
  needsDescribe,
  selectListedJobs,
  withDetail,
} from "./listing.js";
import { SPARK_JOB_STATUSES } from "./mapping.js";

const NOW = 1_750_000_000_000;
const MIN = 60_000;
const HOUR = 60 * MIN;

function job(jobId: string, status: string, fields: Partial<SparkJob> = {}): SparkJob {
  return {
    jobId,
    projectId: "proj-1",
    type: "BACKFILL",
    status,
    regionId: "aws-us-west-2",
    clusterId: "in01-a",
    description: null,
    createdAtMs: NOW - 2 * HOUR,
    submittedAtMs: null,
    startedAtMs: NOW - HOUR,
    finishedAtMs: null,
    durationSeconds: null,
    failureReason: null,
    precheck: null,
    ...fields,
  };
}

const select = (jobs: SparkJob[], over: Partial<Parameters<typeof selectListedJobs>[0]> = {}) =>
  selectListedJobs({
    jobs,
    nowMs: NOW,
    retentionMs: HOUR,
    maxJobs: 500,
    configured: new Set(),
    terminalSince: new Map(),
    ...over,
  });

describe("selectListedJobs", () => {
  it.each([
    { name: "a running job", j: job("a", "RUNNING"), exposed: true },
    { name: "a pending job", j: job("a", "PENDING"), exposed: true },
    { name: "an unknown status (never final)", j: job("a", "QUEUED"), exposed: true },
    {
      name: "a job finished a minute ago",
      j: job("a", "SUCCEEDED", { finishedAtMs: NOW - MIN }),
      exposed: true,
    },
    {
      name: "a job finished just inside retention",
      j: job("a", "FAILED", { finishedAtMs: NOW - HOUR + 1 }),
      exposed: true,
    },
    {
      name: "a job finished exactly at retention",
      j: job("a", "FAILED", { finishedAtMs: NOW - HOUR }),
      exposed: false,
    },
    {
      name: "a job finished a day ago",
      j: job("a", "CANCELED", { finishedAtMs: NOW - 24 * HOUR }),
      exposed: false,
    },
    { name: "a finished job without finishedAt, first seen now", j: job("a", "TIMEOUT"), exposed: true },
  ])("$name: exposed $exposed", ({ j, exposed }) => {
    expect(select([j]).exposed.map((x) => x.jobId)).toEqual(exposed ? ["a"] : []);
  });

  it("ends a finished job without finishedAt a retention after it was first seen finished", () => {
    const j = job("a", "TIMEOUT");
    expect(select([j], { terminalSince: new Map([["a", NOW - HOUR - 1]]) }).exposed).toEqual([]);
    expect(select([j], { terminalSince: new Map([["a", NOW - HOUR + 1]]) }).exposed).toHaveLength(1);
  });

  it("leaves configured jobs to their own task", () => {
    const got = select([job("a", "RUNNING"), job("b", "RUNNING")], { configured: new Set(["proj-1/a"]) });
    expect(got.exposed.map((j) => j.jobId)).toEqual(["b"]);
  });

  it("caps per-job series: unfinished first in listing order, then finished newest first", () => {
    const jobs = [
      job("old", "SUCCEEDED", { finishedAtMs: NOW - 30 * MIN }),
      job("r1", "RUNNING"),
      job("new", "FAILED", { finishedAtMs: NOW - MIN }),
      job("r2", "PENDING"),
      job("mid", "SUCCEEDED", { finishedAtMs: NOW - 10 * MIN }),
    ];
    expect(select(jobs, { maxJobs: 4 })).toEqual({
      exposed: [jobs[1], jobs[3], jobs[2], jobs[4]],
      overCap: 1,
    });
    expect(select(jobs, { maxJobs: 1 }).overCap).toBe(4);
  });
});

describe("needsDescribe", () => {
  const described = (
    status: string,
    listedStatus: string,
    precheck: SparkJob["precheck"] = null,
  ): DescribedJob => ({
    job: job("a", status, { precheck }),
    listedStatus,
  });
  const report = { passed: true, checkedRows: 10, errors: [] };
  it.each([
    { name: "never described", listed: "RUNNING", known: undefined, want: true },
    {
      name: "described finished (final state seen)",
      listed: "FAILED",
      known: described("FAILED", "failed"),
      want: false,
    },
    {
      name: "described finished, listing moved on anyway",
      listed: "RUNNING",
      known: described("SUCCEEDED", "succeeded"),
      want: false,
    },
    {
      name: "status moved to finished",
      listed: "FAILED",
      known: described("RUNNING", "running", report),
      want: true,
    },
    {
      name: "status moved while running",
      listed: "RUNNING",
      known: described("PREPARING", "preparing"),
      want: true,
    },
    {
      name: "running, no precheck report yet",
      listed: "RUNNING",
      known: described("RUNNING", "running"),
      want: true,
    },
    {
      name: "running with its precheck report",
      listed: "RUNNING",
      known: described("RUNNING", "running", report),
      want: false,
    },
    {
      name: "listed finished, described earlier in the same status but not final",
      listed: "SUCCEEDED",
      known: described("RUNNING", "succeeded"),
      want: false,
    },
  ])("$name: $want", ({ listed, known, want }) => {
    expect(needsDescribe(job("a", listed), known)).toBe(want);
  });
});

describe("withDetail", () => {
  const detail = job("a", "FAILED", {
    projectId: "proj-1",
    submittedAtMs: NOW - 90 * MIN,
    finishedAtMs: NOW - 5 * MIN,
    failureReason: { code: "EXECUTOR_LOST", message: "m", retryable: true },
    precheck: { passed: true, checkedRows: 10, errors: [] },
  });

  it("keeps the listing's status and times, adds submittedAt, precheck and the failure", () => {
    const listed = job("a", "FAILED", { finishedAtMs: NOW - 4 * MIN, durationSeconds: 60 });
    expect(withDetail(listed, detail)).toEqual({
      ...listed,
      submittedAtMs: detail.submittedAtMs,
      failureReason: detail.failureReason,
      precheck: detail.precheck,
    });
  });

  it("drops a failure reason while the listing says the job is not failed", () => {
    expect(withDetail(job("a", "RUNNING"), detail).failureReason).toBeNull();
    expect(withDetail(job("a", "RUNNING"), detail).finishedAtMs).toBeNull();
  });

  it("is the listed job itself without a detail", () => {
    const listed = job("a", "RUNNING");
    expect(withDetail(listed, undefined)).toBe(listed);
  });
});

describe("mapSparkListing", () => {
  it("counts every listed job per status (each known one present), per-job series for the exposed only", () => {
    const listed = [
      job("a", "RUNNING"),
      job("b", "SUCCEEDED"),
      job("c", "SUCCEEDED"),
      job("d", "CANCELING"),
      job("e", "QUEUED"),
    ];
    const r = mapSparkListing({ clusterId: "in01-a", listed, exposed: [listed[0] as SparkJob], overCap: 2 });
    const counts = Object.fromEntries(
      r.samples.filter((s) => s.family === "vdbcloud_spark_jobs").map((s) => [s.labels.status, s.value]),
    );
    expect(counts).toEqual({
      ...Object.fromEntries(SPARK_JOB_STATUSES.map((s) => [s, 0])),
      running: 1,
      succeeded: 2,
      cancelling: 1,
      queued: 1,
    });
    expect(r.samples.find((s) => s.family === "vdbcloud_spark_jobs")?.labels).toEqual({
      cluster_id: "in01-a",
      status: "pending",
    });
    const perJob = new Set(
      r.samples.filter((s) => s.family !== "vdbcloud_spark_jobs").map((s) => s.labels.job_id),
    );
    expect([...perJob]).toEqual(["a"]);
    expect(r.dropped).toEqual({ job_cap: 2 });
  });

  it("gives zero counts for an empty listing", () => {
    const r = mapSparkListing({ clusterId: "in01-a", listed: [], exposed: [], overCap: 0 });
    expect(r.samples.map((s) => s.value)).toEqual(SPARK_JOB_STATUSES.map(() => 0));
    expect(r.dropped).toEqual({});
  });
});
