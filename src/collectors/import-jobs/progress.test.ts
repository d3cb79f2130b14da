import { describe, expect, it } from "vitest";
import type { ImportJob, ImportJobProgress } from "../../upstream/types.js";
import { mapImportJobProgress, normalizeImportState } from "./mapping.js";
import { ImportProgressMemory, pickProgressCalls } from "./progress.js";

const job = (jobId: string, state: string, collectionName = "docs"): ImportJob => ({
  jobId,
  state,
  collectionName,
});
const ids = (jobs: readonly ImportJob[]) => jobs.map((j) => j.jobId);

describe("pickProgressCalls", () => {
  const listing = [
    job("n1", "Pending"),
    job("done-new", "Completed"),
    job("n2", "InProgress"),
    job("old-done", "Failed"),
    job("n3", "Importing"),
    job("odd", "Paused"),
    job("n4", "Pending"),
  ];
  const settled = (id: string) => id !== "done-new";
  it.each<[max: number, finished: string[], unfinished: string[]]>([
    [0, [], []],
    [1, ["done-new"], []],
    [2, ["done-new"], ["n1"]],
    [3, ["done-new"], ["n1", "n2"]],
    [20, ["done-new"], ["n1", "n2", "n3", "n4"]],
  ])("max %d: finished %j first, then unfinished %j in listing order", (max, finished, unfinished) => {
    const pick = pickProgressCalls(listing, max, settled);
    expect(ids(pick.finished)).toEqual(finished);
    expect(ids(pick.unfinished)).toEqual(unfinished);
  });

  it("never picks a settled finished job, nor a job of an unknown state", () => {
    const pick = pickProgressCalls(listing, 100, () => true);
    expect(ids(pick.finished)).toEqual([]);
    expect(ids(pick.unfinished)).not.toContain("odd");
  });
});

describe("ImportProgressMemory", () => {
  it("takes the first listing as a baseline: finished jobs then need no call", () => {
    const m = new ImportProgressMemory();
    const settled = m.observe("c", [job("a", "Completed"), job("b", "Failed"), job("r", "InProgress")]);
    expect(["a", "b", "r"].map(settled)).toEqual([true, true, false]);
  });

  it("asks once for a job that finished while watched, or appeared finished later", () => {
    const m = new ImportProgressMemory();
    m.observe("c", [job("r", "InProgress")]);
    let settled = m.observe("c", [job("r", "Completed"), job("quick", "Failed")]);
    expect([settled("r"), settled("quick")]).toEqual([false, false]);
    m.settle("c", "r");
    m.settle("c", "quick");
    settled = m.observe("c", [job("r", "Completed"), job("quick", "Failed")]);
    expect([settled("r"), settled("quick")]).toEqual([true, true]);
  });

  it("watches a finished job again when it goes back to unfinished (a retried import)", () => {
    const m = new ImportProgressMemory();
    m.observe("c", [job("r", "Failed")]);
    m.observe("c", [job("r", "InProgress")]);
    expect(m.observe("c", [job("r", "Failed")])("r")).toBe(false);
  });

  it("reports a failure once per job, forgets unlisted jobs and clusters no longer polled", () => {
    const m = new ImportProgressMemory();
    m.observe("c", [job("r", "InProgress")]);
    m.observe("d", [job("x", "InProgress")]);
    expect(m.firstFailure("c", "r")).toBe(true);
    expect(m.firstFailure("c", "r")).toBe(false);
    expect(m.firstFailure("c", "unknown")).toBe(false);
    expect(m.size).toBe(2);
    m.observe("c", []);
    expect(m.size).toBe(1);
    m.retain(new Set(["c"]));
    expect(m.size).toBe(0);
  });
});

describe("mapImportJobProgress", () => {
  const progress = (jobId: string, p: Partial<ImportJobProgress>): [string, ImportJobProgress] => [
    jobId,
    {
      jobId,
      collectionName: "docs",
      state: "Importing",
      progressPercent: null,
      totalRows: null,
      reason: null,
      ...p,
    },
  ];

  it("gives ratio and rows of unfinished jobs with an answer, nothing for others or for nulls", () => {
    const r = mapImportJobProgress({
      clusterId: "in01-a",
      jobs: [
        job("run", "InProgress", "images"),
        job("wait", "Pending"),
        job("done", "Completed"),
        job("unasked", "InProgress"),
        job("partial", "InProgress"),
      ],
      progress: new Map([
        progress("run", { progressPercent: 37, totalRows: 370 }),
        progress("wait", { progressPercent: 0, totalRows: 0 }),
        progress("done", { progressPercent: 100, totalRows: 1000, state: "Completed" }),
        progress("partial", { progressPercent: 5 }),
      ]),
    });
    expect(r.samples.map((s) => [s.family, s.labels.job_id, s.value])).toEqual([
      ["vdbcloud_import_job_progress_ratio", "run", 0.37],
      ["vdbcloud_import_job_imported_rows", "run", 370],
      ["vdbcloud_import_job_progress_ratio", "wait", 0],
      ["vdbcloud_import_job_imported_rows", "wait", 0],
      ["vdbcloud_import_job_progress_ratio", "partial", 0.05],
    ]);
    expect(r.samples[0]?.labels).toEqual({ cluster_id: "in01-a", collection_name: "images", job_id: "run" });
  });

  it.each([
    ["Importing", "running"],
    ["InProgress", "running"],
    ["Pending", "pending"],
    ["Completed", "completed"],
    ["Failed", "failed"],
  ])("maps the V2 state %s to %s", (raw, state) => {
    expect(normalizeImportState(raw)).toBe(state);
  });
});
