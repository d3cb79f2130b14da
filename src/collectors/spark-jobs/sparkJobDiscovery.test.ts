import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { MAX_PAGES, PagingError } from "../../polling/pager.js";
import { spyContext } from "../../polling/testkit.js";
import { SPARK_JOB_UNSET } from "../../upstream/testkit.js";
import type { CloudApi, SparkJob, SparkJobPage } from "../../upstream/types.js";
import { listAllSparkJobs, SPARK_PAGE_SIZE, sparkJobDiscoveryTasks } from "./sparkJobDiscovery.js";

const NOW = 1_750_000_000_000;
const MIN = 60_000;

function job(i: number, status = "RUNNING", fields: Partial<SparkJob> = {}): SparkJob {
  return {
    jobId: `j${i}`,
    projectId: "p",
    type: "BACKFILL",
    status,
    regionId: "r",
    description: null,
    createdAtMs: NOW - 60 * MIN,
    ...SPARK_JOB_UNSET,
    clusterId: "in01-a",
    ...fields,
  };
}

type TotalMode = "total" | "none" | "high";

/** A server holding `jobs`, capping pages at `cap`, saying `total` as `mode` says. */
function server(jobs: SparkJob[], cap: number, mode: TotalMode) {
  const asked: { page: number; size: number }[] = [];
  const listSparkJobs = async (args: { currentPage: number; pageSize: number }): Promise<SparkJobPage> => {
    asked.push({ page: args.currentPage, size: args.pageSize });
    const used = Math.min(cap, args.pageSize);
    const list = jobs.slice((args.currentPage - 1) * used, args.currentPage * used);
    const total = { total: jobs.length, none: null, high: jobs.length + 40 }[mode];
    return { total, currentPage: args.currentPage, pageSize: used, listed: list.length, jobs: list };
  };
  return { listSparkJobs, asked };
}

const many = (n: number) => Array.from({ length: n }, (_, i) => job(i));

describe("listAllSparkJobs", () => {
  it.each([
    { n: 125, cap: 100, mode: "total", pages: 2 },
    { n: 100, cap: 100, mode: "total", pages: 1 },
    { n: 0, cap: 100, mode: "total", pages: 1 },
    { n: 125, cap: 100, mode: "none", pages: 2 },
    // Without a total, a full last page costs one more (empty) call.
    { n: 200, cap: 100, mode: "none", pages: 3 },
    // A server that serves its default 20 per page is followed at its size.
    { n: 45, cap: 20, mode: "none", pages: 3 },
    { n: 45, cap: 20, mode: "total", pages: 3 },
  ] as const)("$n jobs, pages of $cap, total $mode: $pages calls", async ({ n, cap, mode, pages }) => {
    const s = server(many(n), cap, mode);
    const got = await listAllSparkJobs(s as unknown as CloudApi, "in01-a");
    expect(got.map((j) => j.jobId)).toEqual(many(n).map((j) => j.jobId));
    expect(s.asked).toHaveLength(pages);
    expect(s.asked[0]).toEqual({ page: 1, size: SPARK_PAGE_SIZE });
  });

  it("fails a listing whose total lies high at its short page, not showing part of it", async () => {
    const s = server(many(125), 100, "high");
    const err = await listAllSparkJobs(s as unknown as CloudApi, "in01-a").catch((e: unknown) => e);
    expect((err as PagingError).reason).toBe("short_of_total");
    expect(s.asked).toHaveLength(2);
  });

  it("fails at a server that repeats page 1, and at the page cap", async () => {
    let calls = 0;
    const repeating = {
      listSparkJobs: async () => {
        calls++;
        return { total: 1000, currentPage: 1, pageSize: 100, listed: 100, jobs: many(100) };
      },
    } as unknown as CloudApi;
    const repeated = await listAllSparkJobs(repeating, "c").catch((e: unknown) => e);
    expect(repeated).toBeInstanceOf(PagingError);
    expect((repeated as PagingError).reason).toBe("repeated_page");
    expect((repeated as PagingError).endpoint).toBe("GET /v2/jobs");
    expect(calls).toBe(2);
    let n = 0;
    const inventing = {
      listSparkJobs: async (args: { currentPage: number }) => ({
        total: null,
        currentPage: args.currentPage,
        pageSize: 100,
        listed: 100,
        jobs: Array.from({ length: 100 }, () => job(n++)),
      }),
    } as unknown as CloudApi;
    const capped = await listAllSparkJobs(inventing, "c").catch((e: unknown) => e);
    expect((capped as PagingError).reason).toBe("page_cap");
    expect(n).toBe(MAX_PAGES * 100);
  });
});

/** A fake service for the Spark job discovery task: a listing that tests change, Describe counted per job. */
function service(listing: SparkJob[]) {
  const described: string[] = [];
  const state = { listing };
  const api = {
    listSparkJobs: async (args: { currentPage: number; pageSize: number }): Promise<SparkJobPage> => {
      const list = state.listing.slice(
        (args.currentPage - 1) * args.pageSize,
        args.currentPage * args.pageSize,
      );
      return {
        total: state.listing.length,
        currentPage: args.currentPage,
        pageSize: args.pageSize,
        listed: list.length,
        jobs: list,
      };
    },
    describeSparkJob: async (args: { jobId: string }) => {
      described.push(args.jobId);
      const listed = state.listing.find((j) => j.jobId === args.jobId) ?? job(0);
      const failed = listed.status === "FAILED";
      return {
        ...listed,
        submittedAtMs: NOW - 59 * MIN,
        precheck: listed.status === "PENDING" ? null : { passed: true, checkedRows: 5, errors: [] },
        failureReason: failed ? { code: "EXECUTOR_LOST", message: "m", retryable: true } : null,
      };
    },
  } as unknown as CloudApi;
  return { api, described, state };
}

async function discovery(api: CloudApi, raw: Record<string, unknown> = {}) {
  const spy = spyContext(NOW);
  const env = await collectorEnv({
    ctx: spy.ctx,
    client: api,
    raw: { clusters: [{ id: "in01-a" }], spark_jobs: { retention: "PT1H" }, ...raw },
  });
  const [task] = sparkJobDiscoveryTasks(env);
  if (task === undefined) throw new Error("no task");
  const run = () => task.run(new AbortController().signal);
  const samples = () => spy.data.get("in01-a")?.samples ?? [];
  const value = (family: string, labels: Record<string, string>) =>
    samples().find((s) => s.family === family && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      ?.value;
  return { spy, run, samples, value, task };
}

describe("Spark job discovery task", () => {
  it("counts every job per status; per-job series only for running and recently finished jobs", async () => {
    const listing = [
      job(1, "RUNNING"),
      job(2, "SUCCEEDED", { finishedAtMs: NOW - 5 * MIN }),
      job(3, "SUCCEEDED", { finishedAtMs: NOW - 5 * 60 * MIN }),
      job(4, "FAILED", { finishedAtMs: NOW - 2 * MIN }),
    ];
    const { api } = service(listing);
    const d = await discovery(api);
    await d.run();
    expect(d.value("vdbcloud_spark_jobs", { status: "succeeded" })).toBe(2);
    expect(d.value("vdbcloud_spark_jobs", { status: "failed" })).toBe(1);
    expect(d.value("vdbcloud_spark_jobs", { status: "running" })).toBe(1);
    expect(d.value("vdbcloud_spark_jobs", { status: "timeout" })).toBe(0);
    const perJob = new Set(
      d
        .samples()
        .filter((s) => s.family === "vdbcloud_spark_job_status")
        .map((s) => s.labels.job_id),
    );
    expect([...perJob].sort()).toEqual(["j1", "j2", "j4"]);
    // What only Describe gives: submittedAt, the precheck report, a failure reason.
    expect(d.value("vdbcloud_spark_job_submitted_timestamp_seconds", { job_id: "j1" })).toBe(
      (NOW - 59 * MIN) / 1000,
    );
    expect(d.value("vdbcloud_spark_job_precheck_passed", { job_id: "j1" })).toBe(1);
    expect(d.value("vdbcloud_spark_job_failure_info", { job_id: "j4", code: "EXECUTOR_LOST" })).toBe(1);
    expect(d.task.calls.map((c) => c.endpoint)).toEqual([
      "GET /v2/jobs",
      "GET /v2/projects/{projectId}/jobs/{jobId}",
    ]);
  });

  it("describes a finished job once, a running one until its precheck report is in, and again when it moves", async () => {
    const { api, described, state } = service([
      job(1, "PENDING"),
      job(2, "FAILED", { finishedAtMs: NOW - MIN }),
    ]);
    const d = await discovery(api);
    await d.run();
    expect(described).toEqual(["j1", "j2"]);
    await d.run(); // j1 still pending (no precheck report): asked again; j2 is final.
    expect(described).toEqual(["j1", "j2", "j1"]);
    state.listing = [job(1, "RUNNING"), job(2, "FAILED", { finishedAtMs: NOW - MIN })];
    await d.run(); // moved: asked; now with its report.
    await d.run(); // nothing new: no call.
    expect(described).toEqual(["j1", "j2", "j1", "j1"]);
    state.listing = [
      job(1, "SUCCEEDED", { finishedAtMs: NOW }),
      job(2, "FAILED", { finishedAtMs: NOW - MIN }),
    ];
    await d.run();
    await d.run();
    await d.run();
    expect(described).toEqual(["j1", "j2", "j1", "j1", "j1"]);
  });

  it("never describes a job that finished before the retention window", async () => {
    const { api, described } = service([job(1, "SUCCEEDED", { finishedAtMs: NOW - 2 * 60 * MIN })]);
    const d = await discovery(api);
    await d.run();
    expect(described).toEqual([]);
    expect(d.value("vdbcloud_spark_jobs", { status: "succeeded" })).toBe(1);
  });

  it("leaves a configured job to its own task: counted, not described, no per-job series", async () => {
    const { api, described } = service([job(1, "RUNNING"), job(2, "RUNNING")]);
    const d = await discovery(api, {
      clusters: [{ id: "in01-a" }],
      spark_jobs: { jobs: [{ project_id: "p", job_id: "j1" }] },
    });
    await d.run();
    expect(described).toEqual(["j2"]);
    expect(d.value("vdbcloud_spark_jobs", { status: "running" })).toBe(2);
    expect(d.value("vdbcloud_spark_job_info", { job_id: "j1" })).toBeUndefined();
    expect(d.value("vdbcloud_spark_job_info", { job_id: "j2" })).toBe(1);
  });

  it("bounds per-job work by max_per_cluster and counts the rest", async () => {
    const { api, described } = service(many(12));
    const d = await discovery(api, { spark_jobs: { discovery: { max_per_cluster: 5 } } });
    await d.run();
    expect(described).toHaveLength(5);
    expect(d.value("vdbcloud_spark_jobs", { status: "running" })).toBe(12);
    expect(
      new Set(
        d
          .samples()
          .filter((s) => s.family === "vdbcloud_spark_job_info")
          .map((s) => s.labels.job_id),
      ).size,
    ).toBe(5);
  });

  it("keeps the listing when one Describe fails", async () => {
    const { api } = service([job(1, "RUNNING"), job(2, "RUNNING")]);
    const { CloudError } = await import("../../upstream/errors.js");
    const failing = {
      ...api,
      listSparkJobs: api.listSparkJobs,
      describeSparkJob: async (args: { jobId: string; projectId: string }) => {
        if (args.jobId === "j1")
          throw new CloudError("not_found", "gone", {
            endpoint: "GET /v2/projects/{projectId}/jobs/{jobId}",
          });
        return api.describeSparkJob(args);
      },
    } as unknown as CloudApi;
    const d = await discovery(failing);
    await d.run();
    expect(d.spy.failures).toEqual([]);
    // Not dropped: the failed Describe shows on the target's health.
    expect(d.spy.partials).toEqual([
      { target: "in01-a", failed: 1, err: expect.objectContaining({ code: "not_found" }) },
    ]);
    expect(d.value("vdbcloud_spark_job_status", { job_id: "j1", status: "running" })).toBe(1);
    expect(d.value("vdbcloud_spark_job_precheck_passed", { job_id: "j2" })).toBe(1);
  });

  it("has no task when Spark job discovery is disabled", async () => {
    const spy = spyContext(NOW);
    const env = await collectorEnv({
      ctx: spy.ctx,
      client: service([]).api,
      raw: { clusters: [{ id: "in01-a" }], spark_jobs: { discovery: { enabled: false } } },
    });
    expect(sparkJobDiscoveryTasks(env)).toEqual([]);
  });
});
