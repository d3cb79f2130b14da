import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "./index.js";
import { type SparkJobSpec, type SparkScenario, sparkJobView } from "./spark-jobs.js";
import { oddSparkJobView } from "./spark-odd.js";
import { sparkJobSpec } from "./testkit.js";

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);

function spec(scenario: SparkScenario): SparkJobSpec {
  return sparkJobSpec(scenario, T0, { description: "nightly" });
}

/** The odd view of `scenario` `seconds` after creation. */
const odd = (scenario: SparkScenario, seconds: number) =>
  oddSparkJobView(sparkJobView(spec(scenario), T0 + seconds * 1000, 1));

describe("oddSparkJobView", () => {
  it("gives unused fields other JSON types and adds unknown ones", () => {
    const v = odd("succeeded", 400);
    expect(v.description).toEqual({ text: "nightly", lang: "en" });
    expect(v.artifact).toBe("volume://vol-1/artifacts/backfill-1.4.2.jar");
    expect(v.details).toMatchObject({
      input: "volume://vol-1/backfill/job-1/",
      fields: "id,title,price,embedding",
      mode: 1,
      resourceSize: { cu: 2 },
    });
    expect(Array.isArray((v.details as { columnMapping: unknown }).columnMapping)).toBe(true);
    expect((v.precheckReport as { input: unknown }).input).toEqual({
      type: "VOLUME",
      volumeName: "vol-1",
      path: "backfill/job-1/",
    });
    expect(v.progress).toEqual({ percent: 100 });
    expect(v.labels).toEqual(["backfill", 7, null]);
  });

  it.each([
    { scenario: "succeeded", seconds: 10, want: { submittedAt: "", startedAt: "", finishedAt: "" } },
    { scenario: "succeeded", seconds: 60, want: { finishedAt: "" } },
  ] as const)("sends null timestamps as empty strings ($seconds s)", ({ scenario, seconds, want }) => {
    const v = odd(scenario, seconds);
    expect(v).toMatchObject(want);
    expect(v.createdAt).toBe("2025-05-01T12:00:00Z");
  });

  it.each([
    { scenario: "canceled", seconds: 130, status: "CANCELING" },
    { scenario: "canceled", seconds: 150, status: "CANCELED" },
    { scenario: "succeeded", seconds: 60, status: "RUNNING" },
  ] as const)("spells $status at $seconds s of $scenario", ({ scenario, seconds, status }) => {
    expect(odd(scenario, seconds).status).toBe(status);
  });

  it("leaves retryable out of a failure reason", () => {
    expect(odd("failed", 250).failureReason).toEqual({
      code: "EXECUTOR_LOST",
      message: "Spark executor lost: container killed on exceeding memory limits",
    });
  });

  it("drops the errors list of a passed precheck and keeps a failed one's", () => {
    expect(odd("succeeded", 400).precheckReport).not.toHaveProperty("errors");
    const failed = odd("precheck_failed", 60).precheckReport as { errors: unknown[] };
    expect(failed.errors).toHaveLength(2);
  });

  it("does not change the view it was given", () => {
    const view = sparkJobView(spec("canceled"), T0 + 130_000, 1);
    const copy = structuredClone(view);
    oddSparkJobView(view);
    expect(view).toEqual(copy);
  });
});

async function getData(url: string): Promise<Record<string, unknown>> {
  const res = await request(url, { headers: { authorization: "Bearer k" } });
  const body = (await res.body.json()) as { code: number; data: Record<string, unknown> };
  expect(body.code === 0 || body.code === 200).toBe(true);
  return body.data;
}

describe("job quirks over HTTP", () => {
  let sim: Simulator;
  let plain: Simulator;

  beforeAll(async () => {
    const base = { now: () => T0, rateLimitPerSecond: 0, importJobsPerCluster: 23 };
    sim = await startSimulator({ ...base, quirks: { importPageCap: 7, oddSparkFields: true } });
    plain = await startSimulator(base);
  });
  afterAll(async () => {
    await Promise.all([sim.close(), plain.close()]);
  });

  function listUrl(s: Simulator, pageSize: number, currentPage: number): string {
    const c = s.clusters[0];
    if (!c) throw new Error("no cluster");
    const ctl = s.controllerUrlTemplate.replace("{region}", c.regionId);
    return `${ctl}/v1/vector/collections/import/list?clusterId=${c.id}&pageSize=${pageSize}&currentPage=${currentPage}`;
  }

  const jobsOf = (d: Record<string, unknown>) => (d.records ?? d.tasks) as Array<{ jobId: string }>;

  it("importPageCap serves at most the cap per page and reports the capped pageSize", async () => {
    const c = sim.clusters[0];
    const all = sim.state.importJobs(c?.id ?? "").map((j) => j.jobId);
    expect(all).toHaveLength(23);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const d = await getData(listUrl(sim, 100, page));
      expect(d).toMatchObject({ count: 23, currentPage: page, pageSize: 7 });
      seen.push(...jobsOf(d).map((j) => j.jobId));
    }
    expect(seen).toEqual(all);
    // A page size under the cap is served as asked.
    expect(await getData(listUrl(sim, 5, 1))).toMatchObject({ pageSize: 5 });
  });

  it("without the quirk, serves the page size asked for", async () => {
    const d = await getData(listUrl(plain, 100, 1));
    expect(d).toMatchObject({ count: 23, pageSize: 100 });
    expect(jobsOf(d)).toHaveLength(23);
  });

  it("oddSparkFields answers Describe Spark Job with the odd view; without it, the documented one", async () => {
    const ref = sim.state.sparkJobRefs[0];
    if (!ref) throw new Error("no Spark job");
    const path = `/v2/projects/${ref.projectId}/jobs/${ref.jobId}`;
    const oddData = await getData(`${sim.baseUrl}${path}`);
    expect(oddData).toEqual(
      JSON.parse(JSON.stringify(oddSparkJobView(sim.state.sparkJob(ref.projectId, ref.jobId)))),
    );
    expect(typeof oddData.description).toBe("object");
    const plainRef = plain.state.sparkJobRefs[0];
    const plainData = await getData(
      `${plain.baseUrl}/v2/projects/${plainRef?.projectId}/jobs/${plainRef?.jobId}`,
    );
    expect(typeof plainData.description).toBe("string");
  });
});

describe("quirks validation", () => {
  it.each([1, 4, 101, -1, 2.5])("refuses an import page cap of %d", async (cap) => {
    await expect(startSimulator({ quirks: { importPageCap: cap } })).rejects.toThrow(/importPageCap/);
  });
});
