/**
 * The import job collector's choice of API per cluster (import_jobs.api auto, v2, v1), the v1
 * fallback where V2 is refused, and its Get Import Job Progress budget, over a fake service.
 */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { SelfMetrics } from "../../exposition/selfMetrics.js";
import { SampleStore } from "../../exposition/store.js";
import { HealthTracker } from "../../polling/health.js";
import type { PollContext } from "../../polling/runtime.js";
import { CloudError } from "../../upstream/errors.js";
import type { CloudApi, ImportJob, ImportJobProgress } from "../../upstream/types.js";
import { importJobTasks, progressCallsPerCluster } from "./tasks.js";

const T0 = Date.UTC(2025, 0, 1);
const HOUR = 3_600_000;

/** A fake service: V2 can be "gone" (HTTP 404); every call is recorded. */
function fakeService(jobs: ImportJob[]) {
  const calls: string[] = [];
  const state = { v2Gone: false, jobs, progress: new Map<string, Partial<ImportJobProgress>>() };
  const gone = () =>
    new CloudError("not_found", "POST /v2/vectordb/jobs/import/list: HTTP 404", {
      endpoint: "POST /v2/vectordb/jobs/import/list",
      httpStatus: 404,
    });
  const page = (list: ImportJob[]) => ({
    total: list.length,
    currentPage: 1,
    pageSize: 100,
    listed: list.length,
    jobs: list,
  });
  const api = {
    listImportJobs: async (a: { clusterId: string }) => {
      calls.push(`v1 ${a.clusterId}`);
      return page(state.jobs);
    },
    listImportJobsV2: async (a: { clusterId: string }) => {
      calls.push(`v2 ${a.clusterId}`);
      if (state.v2Gone) throw gone();
      return page(state.jobs);
    },
    describeImportJob: async (a: { clusterId: string; jobId: string }): Promise<ImportJobProgress> => {
      calls.push(`describe ${a.jobId}`);
      const j = state.jobs.find((x) => x.jobId === a.jobId);
      return {
        jobId: a.jobId,
        collectionName: j?.collectionName ?? null,
        state: j?.state ?? "Pending",
        progressPercent: 50,
        totalRows: 10,
        reason: null,
        ...state.progress.get(a.jobId),
      };
    },
  } as unknown as CloudApi;
  return { api, calls, state };
}

/** A poll context on a clock the test moves, with its warn/info lines kept. */
function context() {
  let now = T0;
  const store = new SampleStore({ now: () => now });
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const logger = {
    warn: (fields: Record<string, unknown>, msg: string) => lines.push({ level: "warn", msg, fields }),
    info: (fields: Record<string, unknown>, msg: string) => lines.push({ level: "info", msg, fields }),
  } as unknown as NonNullable<PollContext["logger"]>;
  const ctx: PollContext = {
    store,
    self: new SelfMetrics({ version: "test", defaultMetrics: false }),
    health: new HealthTracker(store, pino({ level: "silent" }), () => now),
    now: () => now,
    logger,
  };
  return {
    ctx,
    lines,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const running = (n: number, prefix = "r"): ImportJob[] =>
  Array.from({ length: n }, (_, i) => ({
    jobId: `${prefix}${i}`,
    collectionName: "docs",
    state: "InProgress",
  }));

async function setup(
  raw: Record<string, unknown>,
  clusters: { id: string; region?: string }[],
  jobs: ImportJob[],
) {
  const service = fakeService(jobs);
  const c = context();
  const env = await collectorEnv({
    ctx: c.ctx,
    client: service.api,
    raw: { import_jobs: raw },
    clusters: clusters.map((x) => ({ ...x, scopes: [] })),
  });
  const tasks = importJobTasks(env);
  const runAll = async () => Promise.all(tasks.map((t) => t.run(new AbortController().signal)));
  return { ...service, ...c, tasks, runAll };
}

const FELL_BACK =
  "List Import Jobs V2 refused as an unknown endpoint: using v1 for this cluster, V2 tried again every hour";

describe("import_jobs.api auto", () => {
  it("falls back to v1 in the same cycle, keeps it for an hour, logs it once, returns to V2", async () => {
    const s = await setup({}, [{ id: "c1", region: "aws-us-west-2" }], running(1));
    s.state.v2Gone = true;
    expect(await s.runAll()).toEqual(["ok"]);
    expect(s.calls).toEqual(["v2 c1", "v1 c1"]);
    s.calls.length = 0;
    s.advance(60_000);
    await s.runAll();
    expect(s.calls).toEqual(["v1 c1"]);
    // An hour after the refusal V2 is tried again; still refused: v1 again, not logged again.
    s.calls.length = 0;
    s.advance(HOUR);
    await s.runAll();
    expect(s.calls).toEqual(["v2 c1", "v1 c1"]);
    expect(s.lines.filter((l) => l.msg === FELL_BACK)).toHaveLength(1);
    expect(s.lines[0]?.fields).toMatchObject({ collector: "import_jobs", cluster_id: "c1" });
    // V2 is back: used (with progress) after the next hour, and said once.
    s.state.v2Gone = false;
    s.calls.length = 0;
    s.advance(HOUR);
    await s.runAll();
    expect(s.calls).toEqual(["v2 c1", "describe r0"]);
    expect(s.lines.map((l) => l.msg)).toEqual([
      FELL_BACK,
      "List Import Jobs V2 accepted again: v1 no longer used",
    ]);
  });

  it("polls a cluster without a region through V2; refused, it fails and says so once", async () => {
    const s = await setup({}, [{ id: "c1" }], running(2));
    expect(s.tasks).toHaveLength(1);
    await s.runAll();
    expect(s.calls).toEqual(["v2 c1", "describe r0", "describe r1"]);
    s.state.v2Gone = true;
    s.calls.length = 0;
    expect(await s.runAll()).toEqual(["permanent_failure"]);
    expect(await s.runAll()).toEqual(["permanent_failure"]);
    expect(s.calls).toEqual(["v2 c1", "v2 c1"]);
    const noRegion = s.lines.filter((l) => l.level === "warn" && /no region for the v1 fallback/.test(l.msg));
    expect(noRegion).toHaveLength(1);
  });
});

describe("import_jobs.api forced", () => {
  it("v2: never v1, even where V2 is refused and a region is known", async () => {
    const s = await setup({ api: "v2" }, [{ id: "c1", region: "aws-us-west-2" }], running(1));
    s.state.v2Gone = true;
    expect(await s.runAll()).toEqual(["permanent_failure"]);
    expect(s.calls).toEqual(["v2 c1"]);
  });

  it("v1: only clusters with a region, no V2 call, no progress call", async () => {
    const s = await setup({ api: "v1" }, [{ id: "c1", region: "aws-us-west-2" }, { id: "c2" }], running(3));
    expect(s.tasks.map((t) => t.id.target)).toEqual(["c1"]);
    expect(s.tasks[0]?.calls.map((c) => c.endpoint)).toEqual(["GET /v1/vector/collections/import/list"]);
    await s.runAll();
    expect(s.calls).toEqual(["v1 c1"]);
  });
});

describe("Get Import Job Progress", () => {
  it("asks at most progress_max jobs, the first (newest) unfinished ones of the listing", async () => {
    const jobs = [
      { jobId: "done", collectionName: "docs", state: "Completed" },
      ...running(8),
      { jobId: "wait", collectionName: "docs", state: "Pending" },
    ];
    const s = await setup({ progress_max: 3 }, [{ id: "c1" }], jobs);
    await s.runAll();
    expect(s.calls).toEqual(["v2 c1", "describe r0", "describe r1", "describe r2"]);
  });

  it("asks a job listed twice (the listing moved between pages) once, and counts it once", async () => {
    const s = await setup({}, [{ id: "c1" }], running(3));
    // Two a page: page 2 repeats r1, which the pager keeps once.
    const pages = [
      [s.state.jobs[0], s.state.jobs[1]],
      [s.state.jobs[1], s.state.jobs[2]],
    ];
    (s.api as unknown as { listImportJobsV2: unknown }).listImportJobsV2 = async (a: {
      clusterId: string;
      currentPage: number;
    }) => {
      s.calls.push(`v2 ${a.clusterId}`);
      const jobs = pages[a.currentPage - 1] ?? [];
      return { total: 3, currentPage: a.currentPage, pageSize: 2, listed: jobs.length, jobs };
    };
    expect(await s.runAll()).toEqual(["ok"]);
    expect(s.calls).toEqual(["v2 c1", "v2 c1", "describe r0", "describe r1", "describe r2"]);
    const text = (await s.ctx.store.publishNow()).text.toString("utf8");
    expect(text).toContain('vdbcloud_import_jobs{cluster_id="c1",collection_name="docs",state="running"} 3');
  });

  it("asks a job that finished once, logs a failure's reason once, and never asks it again", async () => {
    const s = await setup({}, [{ id: "c1" }], running(2));
    await s.runAll();
    s.state.jobs = [{ jobId: "r0", collectionName: "docs", state: "Failed" }, ...running(1, "s")];
    s.state.progress.set("r0", { state: "Failed", reason: "bad file", progressPercent: 12 });
    s.calls.length = 0;
    await s.runAll();
    expect(s.calls).toEqual(["v2 c1", "describe r0", "describe s0"]);
    s.calls.length = 0;
    await s.runAll();
    await s.runAll();
    expect(s.calls.filter((c) => c === "describe r0")).toEqual([]);
    const failed = s.lines.filter((l) => l.msg === "import job failed");
    expect(failed.map((l) => l.fields)).toEqual([
      {
        collector: "import_jobs",
        cluster_id: "c1",
        collection_name: "docs",
        job_id: "r0",
        reason: "bad file",
      },
    ]);
  });

  it("a failing progress call costs that job's progress only", async () => {
    const s = await setup({}, [{ id: "c1" }], running(2));
    s.state.progress.set("r0", { progressPercent: 5 });
    (s.api as unknown as { describeImportJob: unknown }).describeImportJob = async (a: { jobId: string }) => {
      s.calls.push(`describe ${a.jobId}`);
      if (a.jobId === "r0")
        throw new CloudError("api_error", "boom", { endpoint: "POST /v2/vectordb/jobs/import/describe" });
      return {
        jobId: a.jobId,
        collectionName: "docs",
        state: "Importing",
        progressPercent: 70,
        totalRows: 7,
        reason: null,
      };
    };
    expect(await s.runAll()).toEqual(["ok"]);
    const text = (await s.ctx.store.publishNow()).text.toString("utf8");
    expect(text).toContain(
      'vdbcloud_import_job_progress_ratio{cluster_id="c1",collection_name="docs",job_id="r1"} 0.7',
    );
    expect(text).not.toContain(
      'vdbcloud_import_job_progress_ratio{cluster_id="c1",collection_name="docs",job_id="r0"}',
    );
    expect(text).toContain(
      'vdbcloud_import_job_state{cluster_id="c1",collection_name="docs",job_id="r0",state="running"} 1',
    );
    // Not dropped: the target's health shows the failed call, with its code and message.
    expect(s.ctx.health.list()[0]?.partialError).toEqual({
      code: "api_error",
      message: "1 call(s) failed: boom",
    });
  });
});

describe("Get Import Job Progress refused as an unknown endpoint", () => {
  it("ends that cycle's progress calls; the listing still serves", async () => {
    const s = await setup({}, [{ id: "c1" }], running(5));
    (s.api as unknown as { describeImportJob: unknown }).describeImportJob = async (a: { jobId: string }) => {
      s.calls.push(`describe ${a.jobId}`);
      throw new CloudError("not_found", "HTTP 404", {
        endpoint: "POST /v2/vectordb/jobs/import/describe",
        httpStatus: 404,
      });
    };
    expect(await s.runAll()).toEqual(["ok"]);
    expect(s.calls).toEqual(["v2 c1", "describe r0"]);
    expect(s.ctx.health.list()[0]?.partialError?.code).toBe("not_found");
  });
});

describe("progressCallsPerCluster", () => {
  // Usable at the default margin: 20 / 1.1 req/s; over PT1M, 1090 calls.
  it.each([
    { max: 20, clusters: 1, interval: 60_000, want: 20 },
    { max: 20, clusters: 54, interval: 60_000, want: 20 },
    { max: 20, clusters: 55, interval: 60_000, want: 19 },
    { max: 20, clusters: 1000, interval: 60_000, want: 1 },
    { max: 20, clusters: 5000, interval: 60_000, want: 1 },
    { max: 5, clusters: 1, interval: 1_000, want: 5 },
    { max: 0, clusters: 1, interval: 60_000, want: 0 },
  ])(
    "progress_max $max, $clusters clusters on one key, interval $interval: $want",
    ({ max, clusters, interval, want }) => {
      expect(progressCallsPerCluster(max, clusters, interval, 20)).toBe(want);
    },
  );
});
