import { request } from "undici";
import { describe, expect, it } from "vitest";
import { DOCUMENTED_SPARK_LIST_ITEM } from "../upstream/testkit.js";
import { type CloudJobSpec, cloudJobView, generateCloudJobs } from "./cloud-jobs.js";
import { type Simulator, startSimulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);
const MIGRATION: CloudJobSpec = {
  jobId: "job-m",
  type: "MIGRATION",
  createdAtMs: T0,
  pendingS: 20,
  runS: 600,
};
const FAILING: CloudJobSpec = {
  ...MIGRATION,
  jobId: "job-r",
  type: "RESTORE",
  failure: { reason: "no capacity", atPercent: 60 },
};
const at = (spec: CloudJobSpec, s: number, scale = 1) => cloudJobView(spec, T0 + s * 1000, scale);

describe("Describe Job timelines", () => {
  it.each([
    [0, "PENDING", "0", "", ""],
    [19, "PENDING", "0", "", ""],
    [20, "IN_PROGRESS", "0", "2025-05-01T12:00:20Z", ""],
    [320, "IN_PROGRESS", "50", "2025-05-01T12:00:20Z", ""],
    [619, "IN_PROGRESS", "99", "2025-05-01T12:00:20Z", ""],
    [620, "SUCCESSFUL", "100", "2025-05-01T12:00:20Z", "2025-05-01T12:10:20Z"],
    [9999, "SUCCESSFUL", "100", "2025-05-01T12:00:20Z", "2025-05-01T12:10:20Z"],
  ] as const)("a migration %i s after creation: %s %s", (s, status, progress, startTime, endTime) => {
    expect(at(MIGRATION, s)).toEqual({
      jobId: "job-m",
      type: "MIGRATION",
      status,
      progress,
      startTime,
      endTime,
      reason: "",
    });
  });

  it("fails at its percent with a reason", () => {
    expect(at(FAILING, 379).status).toBe("IN_PROGRESS");
    expect(at(FAILING, 380)).toMatchObject({ status: "FAILED", progress: "60", reason: "no capacity" });
  });

  it("runs timeScale times faster", () => {
    expect(at(MIGRATION, 62, 10).status).toBe("SUCCESSFUL");
  });

  it("generates a migration, a backup and a failing restore with seeded IDs", () => {
    const jobs = generateCloudJobs(1, T0);
    expect(jobs.map((j) => [j.type, j.failure !== undefined])).toEqual([
      ["MIGRATION", false],
      ["BACKUP", false],
      ["RESTORE", true],
    ]);
    expect(generateCloudJobs(1, T0).map((j) => j.jobId)).toEqual(jobs.map((j) => j.jobId));
    for (const j of jobs) expect(j.jobId).toMatch(/^job-[0-9a-f]{22}$/);
  });
});

async function get(url: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await request(url, { headers: { authorization: "Bearer k" } });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

describe("the simulator's List Spark Jobs and Describe Job", () => {
  let clock = T0;
  let sim: Simulator;
  simulatorPerSuite({ now: () => clock, rateLimitPerSecond: 0, busyClusterSparkJobs: 125 }, (s) => {
    sim = s;
  });

  it("lists a cluster's Spark jobs by page, with `total` and the list's fields only", async () => {
    const cluster = sim.clusters[0]?.id as string;
    const first = await get(
      `${sim.baseUrl}/v2/jobs?type=SPARK&clusterId=${cluster}&pageSize=100&currentPage=1`,
    );
    const data = first.json.data as { total: number; items: Record<string, unknown>[] };
    expect(first.json.code).toBe(0);
    expect(data.total).toBeGreaterThanOrEqual(125);
    expect(data.items).toHaveLength(100);
    expect(Object.keys(data.items[0] ?? {}).sort()).toEqual(Object.keys(DOCUMENTED_SPARK_LIST_ITEM).sort());
    const second = await get(
      `${sim.baseUrl}/v2/jobs?type=SPARK&clusterId=${cluster}&pageSize=100&currentPage=2`,
    );
    const rest = (second.json.data as { items: { jobId: string }[] }).items;
    expect(rest).toHaveLength(data.total - 100);
    const ids = new Set([...data.items.map((i) => i.jobId), ...rest.map((i) => i.jobId)]);
    expect(ids.size).toBe(data.total);
    // Default page size 20; statuses old, recent and in flight.
    const page = await get(`${sim.baseUrl}/v2/jobs?type=SPARK&clusterId=${cluster}`);
    expect((page.json.data as { items: unknown[] }).items).toHaveLength(20);
    const statuses = new Set(data.items.map((i) => i.status));
    expect(statuses.has("SUCCEEDED")).toBe(true);
    expect([...statuses].some((s) => s === "PENDING" || s === "PREPARING" || s === "RUNNING")).toBe(true);
  });

  it("refuses a listing without clusterId, or with a page size over 100", async () => {
    expect((await get(`${sim.baseUrl}/v2/jobs?type=SPARK`)).json.code).not.toBe(0);
    const cluster = sim.clusters[0]?.id as string;
    expect((await get(`${sim.baseUrl}/v2/jobs?clusterId=${cluster}&pageSize=101`)).json.code).not.toBe(0);
  });

  it("describes a job by ID as its status moves, and refuses an unknown one", async () => {
    const migration = sim.state.cloudJobRefs.find((j) => j.type === "MIGRATION");
    if (!migration) throw new Error("no migration");
    const pending = await get(`${sim.baseUrl}/v2/jobs/${migration.jobId}`);
    expect(pending.json).toEqual({ code: 0, data: sim.state.cloudJob(migration.jobId) });
    expect((pending.json.data as { status: string }).status).toBe("PENDING");
    clock = T0 + 3600_000;
    const done = await get(`${sim.baseUrl}/v2/jobs/${migration.jobId}`);
    expect(done.json.data).toMatchObject({ status: "SUCCESSFUL", progress: "100" });
    expect((await get(`${sim.baseUrl}/v2/jobs/job-nope`)).json.code).not.toBe(0);
    clock = T0;
  });

  it("adds and pins jobs through its state", async () => {
    const added = sim.state.addCloudJob({ type: "CLONE_COLLECTION" });
    expect(sim.state.cloudJob(added.jobId).status).toBe("PENDING");
    sim.state.setCloudJobStatus(added.jobId, "FAILED");
    expect(sim.state.cloudJob(added.jobId)).toMatchObject({
      status: "FAILED",
      reason: "the job was stopped",
    });
    const again = await startSimulator({ now: () => T0 });
    try {
      expect(again.state.cloudJobRefs.map((j) => j.jobId)).toEqual(
        sim.state.cloudJobRefs.slice(0, 3).map((j) => j.jobId),
      );
    } finally {
      await again.close();
    }
  });
});
