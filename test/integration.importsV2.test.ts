/**
 * Import jobs through List Import Jobs V2 and Get Import Job Progress, and projects through List
 * Projects V2, against the simulator: with the v1 endpoints retired the exporter needs none of
 * them; with the V2 import list removed, v1 serves.
 */
import { afterEach, describe, expect, it } from "vitest";
import { normalizeImportState } from "../src/collectors/import-jobs/mapping.js";
import {
  matching as find,
  type Harness,
  parseSamples,
  type Samples,
  startHarness,
  TEST_API_KEY,
} from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const V2_LIST = "POST /v2/vectordb/jobs/import/list";
const DESCRIBE = "POST /v2/vectordb/jobs/import/describe";
const V1_LIST = "GET /v1/vector/collections/import/list";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function value(samples: Samples, name: string, labels: Record<string, string>): number | undefined {
  return find(samples, name, labels)[0]?.value;
}

/** job_id -> current state from vdbcloud_import_job_state, for one cluster. */
function exposedStates(samples: Samples, clusterId: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of find(samples, "vdbcloud_import_job_state", { cluster_id: clusterId })) {
    if (s.value === 1) out[s.labels.job_id ?? ""] = s.labels.state ?? "";
  }
  return out;
}

/** Adds one job per state to every cluster, each running one with its own progress. */
function addJobs(harness: Harness): void {
  harness.sim.clusters.forEach((c, i) => {
    for (const state of ["ImportPending", "ImportCompleted", "ImportFailed"])
      harness.sim.state.addImportJob(c.id, { collectionName: `col-${i}`, state });
    const running = harness.sim.state.addImportJob(c.id, {
      collectionName: `col-${i}`,
      state: "ImportRunning",
    });
    harness.sim.state.setImportJobProgress(c.id, running, { progress: 10 + i, totalRows: 1000 * (i + 1) });
  });
}

/** Starts the simulator and exporter on a manual clock and polls everything once. */
async function start(sim: { retireV1?: boolean; removeV2ImportList?: boolean }, logs: string[]) {
  const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
  h = await startHarness({
    clock,
    logs,
    // The simulator's own limiter would count every request in one frozen manual second.
    // Only the jobs each test adds, whose states and progress it sets: the generated ones move
    // between a poll and the test's reading of the simulator.
    sim: { now: () => clock.now(), clusters: 3, importJobsPerCluster: 0, rateLimitPerSecond: 0, ...sim },
    config: (raw) => {
      raw.import_jobs = { interval: "PT30S", retention: "PT1H" };
      raw.inventory = { interval: "PT30S" };
    },
  });
  const step = async (ms: number) => {
    await clock.advance(ms);
    await (h as Harness).settle();
    return parseSamples(await (h as Harness).metrics());
  };
  await h.exporter.scheduler.firstCycle();
  // First slots fall 0.5 to 1.5 intervals after start: from here, one step polls each target once.
  await step(15_000);
  return { harness: h, step };
}

const lines = (logs: string[], msg: string) =>
  logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg);

describe("import jobs and projects through V2", () => {
  it("with the v1 endpoints retired: states and progress exact, a failure's reason logged once, no v1 call but a region's first List Pipelines", async () => {
    const logs: string[] = [];
    const { harness, step } = await start({ retireV1: true }, logs);
    const { sim } = harness;
    addJobs(harness);
    const c0 = sim.clusters[0]?.id as string;
    const pinned = sim.state.addImportJob(c0, { collectionName: "docs", state: "ImportRunning" });
    sim.state.setImportJobProgress(c0, pinned, { progress: 42, totalRows: 4200 });
    const waiting = sim.state.addImportJob(c0, { collectionName: "docs", state: "ImportPending" });

    let samples = await step(30_000);
    const labels = { cluster_id: c0, collection_name: "docs", job_id: pinned };
    expect(value(samples, "vdbcloud_import_job_progress_ratio", labels)).toBe(0.42);
    expect(value(samples, "vdbcloud_import_job_imported_rows", labels)).toBe(4200);
    expect(value(samples, "vdbcloud_import_job_progress_ratio", { job_id: waiting })).toBe(0);

    for (const c of sim.clusters) {
      // Every listed job in exactly its state (the V2 names: Pending, InProgress, Completed, Failed).
      const details = sim.state.importJobDetails(c.id);
      expect(exposedStates(samples, c.id)).toEqual(
        Object.fromEntries(details.map((d) => [d.jobId, normalizeImportState(d.state)])),
      );
      // Every unfinished job's progress and rows, exactly as Get Import Job Progress gave them.
      const unfinished = details.filter((d) =>
        ["pending", "running"].includes(normalizeImportState(d.state)),
      );
      const progress = find(samples, "vdbcloud_import_job_progress_ratio", { cluster_id: c.id });
      expect(Object.fromEntries(progress.map((s) => [s.labels.job_id, s.value]))).toEqual(
        Object.fromEntries(unfinished.map((d) => [d.jobId, d.progress / 100])),
      );
      const rows = find(samples, "vdbcloud_import_job_imported_rows", { cluster_id: c.id });
      expect(Object.fromEntries(rows.map((s) => [s.labels.job_id, s.value]))).toEqual(
        Object.fromEntries(unfinished.map((d) => [d.jobId, d.totalRows])),
      );
    }

    // Progress moves: the series follows the next answer.
    sim.state.setImportJobProgress(c0, pinned, { progress: 57, totalRows: 5700 });
    samples = await step(30_000);
    expect(value(samples, "vdbcloud_import_job_progress_ratio", labels)).toBe(0.57);
    expect(value(samples, "vdbcloud_import_job_imported_rows", labels)).toBe(5700);

    // The pinned job fails: its state turns, its progress series goes, its reason is logged once.
    sim.state.setImportJobState(c0, pinned, "ImportFailed");
    sim.state.setImportJobProgress(c0, pinned, { reason: "row 7: the primary key is duplicated" });
    samples = await step(30_000);
    expect(value(samples, "vdbcloud_import_job_state", { ...labels, state: "failed" })).toBe(1);
    expect(value(samples, "vdbcloud_import_job_progress_ratio", labels)).toBeUndefined();
    const describedBefore = sim.stats.byEndpointCluster[DESCRIBE]?.[c0] ?? 0;
    await step(30_000);
    await step(30_000);
    const failed = lines(logs, "import job failed").filter((l) => l.job_id === pinned);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      cluster_id: c0,
      collection_name: "docs",
      reason: "row 7: the primary key is duplicated",
    });
    // Asked once after it finished, never again: the later calls are for unfinished jobs only.
    const unfinishedNow = sim.state
      .importJobDetails(c0)
      .filter((d) => ["pending", "running"].includes(normalizeImportState(d.state))).length;
    expect((sim.stats.byEndpointCluster[DESCRIBE]?.[c0] ?? 0) - describedBefore).toBeLessThanOrEqual(
      2 * unfinishedNow + 2,
    );

    // Projects: plan and org type from List Projects V2, cluster counts too.
    for (const p of sim.projects) {
      expect(
        value(samples, "vdbcloud_project_info", {
          project_id: p.id,
          project_name: p.name,
          plan: p.plan,
          org_type: p.orgType,
        }),
      ).toBe(1);
      expect(value(samples, "vdbcloud_project_clusters", { project_id: p.id })).toBe(p.clusterIds.length);
    }
    expect(find(samples, "vdbcloud_project_info", {})).toHaveLength(sim.projects.length);

    // No v1 call but List Pipelines, which has no V2: refused (retired) on its first call in each
    // region, then held a day as not offered. Every import and project call on V2, nothing
    // written, the key never logged.
    const v1Calls = Object.keys(sim.stats.byEndpoint).filter((t) => / \/v1\//.test(t));
    expect(v1Calls).toEqual(["GET /v1/pipelines"]);
    const regions = new Set(sim.clusters.map((c) => c.regionId)).size;
    expect(sim.stats.byEndpoint["GET /v1/pipelines"]).toBeLessThanOrEqual(regions);
    expect(sim.stats.byEndpoint[V2_LIST]).toBeGreaterThanOrEqual(3 * sim.clusters.length);
    expect(sim.stats.byEndpoint["GET /v2/projects"]).toBeGreaterThan(0);
    expect(sim.stats.mutatingCalls).toEqual([]);
    expect(
      lines(
        logs,
        "List Import Jobs V2 refused as an unknown endpoint: using v1 for this cluster, V2 tried again every hour",
      ),
    ).toEqual([]);
    expect(logs.join("\n")).not.toContain(TEST_API_KEY);
    const up = find(samples, "vdbcloud_collector_up", {});
    expect(up.filter((s) => s.value !== 1).map((s) => s.labels)).toEqual([]);
  });

  it("with the V2 import list removed: v1 serves every cluster, chosen once and kept, logged once", async () => {
    const logs: string[] = [];
    const { harness, step } = await start({ removeV2ImportList: true }, logs);
    const { sim } = harness;
    addJobs(harness);
    let samples = await step(30_000);
    const v2AfterFirst = sim.stats.byEndpoint[V2_LIST] ?? 0;
    // One refused V2 call per cluster, then v1 for the hour.
    expect(v2AfterFirst).toBe(sim.clusters.length);
    samples = await step(30_000);
    samples = await step(30_000);
    expect(sim.stats.byEndpoint[V2_LIST] ?? 0).toBe(v2AfterFirst);
    for (const c of sim.clusters) {
      expect(sim.stats.byEndpointCluster[V1_LIST]?.[c.id] ?? 0).toBeGreaterThanOrEqual(3);
      const listed = sim.state.importJobs(c.id);
      expect(exposedStates(samples, c.id)).toEqual(
        Object.fromEntries(listed.map((j) => [j.jobId, normalizeImportState(j.state)])),
      );
    }
    // v1 gives no progress; Get Import Job Progress is not asked for a v1 listing.
    expect(find(samples, "vdbcloud_import_job_progress_ratio", {})).toEqual([]);
    expect(sim.stats.byEndpoint[DESCRIBE] ?? 0).toBe(0);
    const fellBack = lines(
      logs,
      "List Import Jobs V2 refused as an unknown endpoint: using v1 for this cluster, V2 tried again every hour",
    );
    expect(fellBack.map((l) => l.cluster_id).sort()).toEqual(sim.clusters.map((c) => c.id).sort());
    const up = find(samples, "vdbcloud_collector_up", { collector: "import_jobs" });
    expect(up.map((s) => s.value)).toEqual(sim.clusters.map(() => 1));
    expect(sim.stats.mutatingCalls).toEqual([]);
  });
});
