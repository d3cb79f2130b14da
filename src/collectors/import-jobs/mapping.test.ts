import { describe, expect, it } from "vitest";
import type { MappingResult } from "../../metrics/sample.js";
import type { CloudApi, ImportJob, ImportJobPage } from "../../upstream/types.js";
import { isTerminalImportState, mapImportJobs, normalizeImportState } from "./mapping.js";
import { listAllImportJobs } from "./tasks.js";
import { ImportJobTracker } from "./tracker.js";

const CLUSTER = "in01-a";
const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 0, 1);

function job(jobId: string, state: string, collectionName = "docs"): ImportJob {
  return { jobId, collectionName, state };
}

/** job_id -> current state, from the per-job state sets. */
function currentStates(r: MappingResult): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of r.samples) {
    if (s.family === "vdbcloud_import_job_state" && s.value === 1)
      out[s.labels.job_id ?? ""] = s.labels.state ?? "";
  }
  return out;
}

/** "collection/state" -> count, from vdbcloud_import_jobs. */
function counts(r: MappingResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of r.samples) {
    if (s.family === "vdbcloud_import_jobs") out[`${s.labels.collection_name}/${s.labels.state}`] = s.value;
  }
  return out;
}

/** As the task does: the tracker observes the listing, then the pure mapping runs. */
function run(
  jobs: ImportJob[],
  opts: { nowMs?: number; retentionMs?: number; maxJobs?: number; tracker?: ImportJobTracker } = {},
) {
  const nowMs = opts.nowMs ?? T0;
  const tracker = opts.tracker ?? new ImportJobTracker();
  return mapImportJobs({
    clusterId: CLUSTER,
    jobs,
    nowMs,
    retentionMs: opts.retentionMs ?? HOUR,
    maxJobs: opts.maxJobs ?? 100,
    terminalSince: tracker.observe(CLUSTER, jobs, nowMs),
  });
}

/** `pages` (two jobs a page, no total) listed as the task lists them: through the pager. */
function throughPager(pages: readonly ImportJob[][]): Promise<ImportJob[]> {
  const client = {
    listImportJobs: async (args: { currentPage: number }): Promise<ImportJobPage> => {
      const jobs = pages[args.currentPage - 1] ?? [];
      return { total: null, currentPage: args.currentPage, pageSize: 2, listed: jobs.length, jobs };
    },
  } as unknown as CloudApi;
  return listAllImportJobs(client, CLUSTER, "aws-us-west-2", 100);
}

describe("normalizeImportState", () => {
  it.each<[raw: string, expected: string, terminal: boolean]>([
    // v1 names (the spec) and the sampled ImportPending
    ["ImportPending", "pending", false],
    ["ImportRunning", "running", false],
    ["ImportCompleted", "completed", true],
    ["ImportFailed", "failed", true],
    // v2 names (public facts)
    ["Pending", "pending", false],
    ["InProgress", "running", false],
    ["Completed", "completed", true],
    ["Failed", "failed", true],
    // other spellings
    ["Running", "running", false],
    ["IN_PROGRESS", "running", false],
    [" completed ", "completed", true],
    ["Cancelled", "cancelled", false],
    ["ImportPaused", "importpaused", false],
    ["", "unknown", false],
  ])("%j -> %s (terminal %s)", (raw, expected, terminal) => {
    expect(normalizeImportState(raw)).toBe(expected);
    expect(isTerminalImportState(raw)).toBe(terminal);
    expect(isTerminalImportState(expected)).toBe(terminal);
  });
});

describe("ImportJobTracker", () => {
  it("remembers when each job was first seen terminal", () => {
    const t = new ImportJobTracker();
    expect([...t.observe(CLUSTER, [job("a", "ImportRunning"), job("b", "ImportFailed")], T0)]).toEqual([
      ["b", T0],
    ]);
    const later = t.observe(CLUSTER, [job("a", "ImportCompleted"), job("b", "ImportFailed")], T0 + 5);
    expect([...later]).toEqual([
      ["a", T0 + 5],
      ["b", T0],
    ]);
  });

  it("forgets jobs no longer listed, and clusters with nothing left", () => {
    const t = new ImportJobTracker();
    t.observe(CLUSTER, [job("a", "Completed"), job("b", "Failed")], T0);
    t.observe("other", [job("c", "Completed")], T0);
    expect(t.size).toBe(3);
    t.observe(CLUSTER, [job("b", "Failed")], T0 + 1);
    expect(t.size).toBe(2);
    t.observe(CLUSTER, [], T0 + 2);
    expect(t.size).toBe(1);
    t.forgetCluster("other");
    expect(t.size).toBe(0);
  });

  it("restarts the retention of a job that left and re-entered a terminal state", () => {
    const t = new ImportJobTracker();
    t.observe(CLUSTER, [job("a", "Failed")], T0);
    t.observe(CLUSTER, [job("a", "Running")], T0 + 1);
    expect(t.observe(CLUSTER, [job("a", "Failed")], T0 + 2).get("a")).toBe(T0 + 2);
  });

  it("keeps clusters apart", () => {
    const t = new ImportJobTracker();
    t.observe("c1", [job("a", "Completed")], T0);
    expect(t.observe("c2", [job("a", "Completed")], T0 + 9).get("a")).toBe(T0 + 9);
    expect(t.observe("c1", [job("a", "Completed")], T0 + 10).get("a")).toBe(T0);
  });
});

describe("mapImportJobs", () => {
  it.each<[raw: string, state: string]>([
    ["ImportPending", "pending"],
    ["ImportRunning", "running"],
    ["ImportCompleted", "completed"],
    ["ImportFailed", "failed"],
    ["Pending", "pending"],
    ["InProgress", "running"],
    ["Completed", "completed"],
    ["Failed", "failed"],
  ])("exposes a %s job as a state set with %s current", (raw, state) => {
    const r = run([job("j1", raw)]);
    const set = r.samples.filter((s) => s.family === "vdbcloud_import_job_state");
    expect(set.map((s) => [s.labels.state, s.value])).toEqual(
      ["pending", "running", "completed", "failed"].map((k) => [k, k === state ? 1 : 0]),
    );
    expect(Object.keys(set[0]?.labels ?? {})).toEqual(["cluster_id", "collection_name", "job_id", "state"]);
    expect(set[0]?.labels).toMatchObject({ cluster_id: CLUSTER, collection_name: "docs", job_id: "j1" });
  });

  it("adds an unknown state lowercased to the state set and to the counts", () => {
    const r = run([job("j1", "ImportPaused")]);
    expect(currentStates(r)).toEqual({ j1: "importpaused" });
    expect(counts(r)["docs/importpaused"]).toBe(1);
  });

  it("counts every listed job per collection and state, each known state present", () => {
    const r = run([
      job("a", "ImportRunning", "docs"),
      job("b", "ImportRunning", "docs"),
      job("c", "ImportFailed", "docs"),
      job("d", "Completed", "images"),
    ]);
    expect(counts(r)).toEqual({
      "docs/pending": 0,
      "docs/running": 2,
      "docs/completed": 0,
      "docs/failed": 1,
      "images/pending": 0,
      "images/running": 0,
      "images/completed": 1,
      "images/failed": 0,
    });
    expect(r.families.map((f) => f.name)).toEqual(["vdbcloud_import_job_state", "vdbcloud_import_jobs"]);
  });

  it("counts a job listed twice once", async () => {
    // Listed through the pager, two a page, the listing moving by one between pages: "a" is
    // listed twice and kept once. "z" finished, and a retention of 0 shows it in the counts only.
    const pages = [[job("z", "ImportCompleted"), job("a", "ImportRunning")], [job("a", "ImportRunning")]];
    const listed = await throughPager(pages);
    const r = run(listed, { retentionMs: 0 });
    expect(counts(r)["docs/running"]).toBe(1);
    expect(r.samples.filter((s) => s.family === "vdbcloud_import_job_state")).toHaveLength(4);
  });

  it("keeps terminal jobs for the retention, then only in the counts", () => {
    const tracker = new ImportJobTracker();
    const jobs = [job("done", "ImportCompleted"), job("busy", "ImportRunning")];
    const at = (nowMs: number) => run(jobs, { nowMs, retentionMs: HOUR, tracker });

    expect(currentStates(at(T0))).toEqual({ done: "completed", busy: "running" });
    expect(currentStates(at(T0 + HOUR - 1))).toEqual({ done: "completed", busy: "running" });
    const expired = at(T0 + HOUR);
    expect(currentStates(expired)).toEqual({ busy: "running" });
    expect(counts(expired)["docs/completed"]).toBe(1);
    expect(expired.dropped).toEqual({});
  });

  it("starts the retention when a job is first seen terminal, not when first listed", () => {
    const tracker = new ImportJobTracker();
    run([job("a", "ImportRunning")], { nowMs: T0, tracker });
    run([job("a", "ImportCompleted")], { nowMs: T0 + HOUR, tracker });
    expect(currentStates(run([job("a", "ImportCompleted")], { nowMs: T0 + 2 * HOUR - 1, tracker }))).toEqual({
      a: "completed",
    });
    expect(currentStates(run([job("a", "ImportCompleted")], { nowMs: T0 + 2 * HOUR, tracker }))).toEqual({});
  });

  it("caps per-job series: non-terminal first, then the newest terminal; the rest is counted", () => {
    const tracker = new ImportJobTracker();
    run([job("old", "ImportFailed")], { nowMs: T0, tracker });
    const r = run(
      [
        job("old", "ImportFailed"),
        job("new", "ImportCompleted"),
        job("r1", "ImportRunning"),
        job("p1", "ImportPending"),
      ],
      {
        nowMs: T0 + 10,
        maxJobs: 3,
        tracker,
      },
    );
    expect(currentStates(r)).toEqual({ r1: "running", p1: "pending", new: "completed" });
    expect(r.dropped).toEqual({ job_cap: 1 });
    // The counts still cover every listed job.
    expect(counts(r)).toEqual({
      "docs/pending": 1,
      "docs/running": 1,
      "docs/completed": 1,
      "docs/failed": 1,
    });
  });

  it.each([0, -1])("exposes no per-job series with maxJobs %d", (maxJobs) => {
    const r = run([job("a", "ImportRunning"), job("b", "ImportFailed")], { maxJobs });
    expect(currentStates(r)).toEqual({});
    expect(r.dropped).toEqual({ job_cap: 2 });
    expect(counts(r)["docs/running"]).toBe(1);
  });

  it("gives no samples for an empty listing, and forgets the cluster", () => {
    const tracker = new ImportJobTracker();
    run([job("a", "ImportFailed")], { tracker });
    const r = run([], { tracker });
    expect(r.samples).toEqual([]);
    expect(tracker.size).toBe(0);
  });
});

describe("mapImportJobs is pure", () => {
  it("takes when jobs turned terminal from its input, and gives the same result every time", () => {
    const input = {
      clusterId: CLUSTER,
      jobs: [job("a", "ImportFailed"), job("b", "ImportCompleted")],
      nowMs: T0 + HOUR,
      retentionMs: HOUR,
      maxJobs: 100,
      // "a" turned terminal an hour ago (expired), "b" just now.
      terminalSince: new Map([
        ["a", T0],
        ["b", T0 + HOUR],
      ]),
    };
    const first = mapImportJobs(input);
    expect(currentStates(first)).toEqual({ b: "completed" });
    expect(mapImportJobs(input)).toEqual(first);
  });

  it("the tracker counts a job listed twice as its first listing", async () => {
    // The pager keeps a job listed twice (the listing moved between pages, two a page) as first
    // listed, so the tracker sees "a" running only.
    const pages = [[job("z", "ImportRunning"), job("a", "ImportRunning")], [job("a", "ImportFailed")]];
    const tracker = new ImportJobTracker();
    const since = tracker.observe(CLUSTER, await throughPager(pages), T0);
    expect([...since]).toEqual([]);
  });
});
