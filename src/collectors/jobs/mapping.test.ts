import { describe, expect, it } from "vitest";
import type { CloudJob } from "../../upstream/types.js";
import {
  isTerminalJobStatus,
  JOB_STATUSES,
  mapCloudJob,
  normalizeJobStatus,
  normalizeJobType,
} from "./mapping.js";

const JOB: CloudJob = {
  jobId: "job-1",
  type: "MIGRATION",
  status: "IN_PROGRESS",
  progress: 40,
  startTimeMs: 1_722_358_190_000,
  endTimeMs: null,
  reason: null,
};

describe("normalizeJobStatus / isTerminalJobStatus", () => {
  it.each<[raw: string, status: string, terminal: boolean]>([
    ["PENDING", "pending", false],
    ["IN_PROGRESS", "in_progress", false],
    ["InProgress", "in_progress", false],
    ["SUCCESSFUL", "successful", true],
    ["FAILED", "failed", true],
    ["CANCELING", "canceling", false],
    ["CANCELLING", "canceling", false],
    ["CANCELED", "canceled", true],
    ["Cancelled", "canceled", true],
    [" failed ", "failed", true],
    ["PAUSED", "paused", false],
    ["", "unknown", false],
  ])("%j -> %s (terminal %s)", (raw, status, terminal) => {
    expect(normalizeJobStatus(raw)).toBe(status);
    expect(isTerminalJobStatus(raw)).toBe(terminal);
  });
});

describe("normalizeJobType", () => {
  it.each([
    ["IMPORT", "import"],
    ["MIGRATION", "migration"],
    ["BACKUP", "backup"],
    ["RESTORE", "restore"],
    ["CLONE_COLLECTION", "clone_collection"],
    ["", "unknown"],
  ])("%j -> %s", (raw, type) => expect(normalizeJobType(raw)).toBe(type));
});

describe("mapCloudJob", () => {
  it.each(JOB_STATUSES)("exposes status %s as a state set", (status) => {
    const set = mapCloudJob({ ...JOB, status: status.toUpperCase() }).samples.filter(
      (s) => s.family === "vdbcloud_job_status",
    );
    expect(set.map((s) => [s.labels.status, s.value])).toEqual(
      JOB_STATUSES.map((k) => [k, k === status ? 1 : 0]),
    );
    expect(set[0]?.labels).toEqual({ job_id: "job-1", type: "migration", status: "pending" });
  });

  it("adds an unknown status lowercased", () => {
    const set = mapCloudJob({ ...JOB, status: "PAUSED" }).samples.filter(
      (s) => s.family === "vdbcloud_job_status",
    );
    expect(set).toHaveLength(JOB_STATUSES.length + 1);
    expect(set.at(-1)).toEqual({
      family: "vdbcloud_job_status",
      labels: { job_id: "job-1", type: "migration", status: "paused" },
      value: 1,
    });
  });

  it.each([
    { name: "a running job", job: JOB, want: { progress: 0.4, start: 1_722_358_190 } },
    {
      name: "a finished job",
      job: { ...JOB, status: "SUCCESSFUL", progress: 100, endTimeMs: 1_722_360_650_000 },
      want: { progress: 1, start: 1_722_358_190, end: 1_722_360_650 },
    },
    {
      name: "a pending job without times or progress",
      job: { ...JOB, status: "PENDING", progress: null, startTimeMs: null },
      want: {},
    },
    { name: "progress 0", job: { ...JOB, progress: 0 }, want: { progress: 0, start: 1_722_358_190 } },
  ])("$name", ({ job, want }) => {
    const r = mapCloudJob(job);
    const one = (family: string) => r.samples.find((s) => s.family === family);
    expect(one("vdbcloud_job_progress_ratio")?.value).toBe(want.progress);
    expect(one("vdbcloud_job_start_timestamp_seconds")?.value).toBe(want.start);
    expect(one("vdbcloud_job_end_timestamp_seconds")?.value).toBe("end" in want ? want.end : undefined);
    for (const s of r.samples.filter((x) => x.family !== "vdbcloud_job_status")) {
      expect(s.labels).toEqual({ job_id: "job-1", type: "migration" });
    }
  });
});
