import { describe, expect, it } from "vitest";
import type { MappingResult } from "../../metrics/sample.js";
import { SPARK_JOB_UNSET } from "../../upstream/testkit.js";
import type { SparkJob } from "../../upstream/types.js";
import { isTerminalSparkStatus, mapSparkJob, normalizeSparkStatus, SPARK_JOB_STATUSES } from "./mapping.js";

const ID = { project_id: "proj-1", job_id: "job-abc" };

const FULL: SparkJob = {
  jobId: "job-abc",
  projectId: "proj-1",
  type: "BACKFILL",
  status: "FAILED",
  regionId: "aws-us-west-2",
  clusterId: "in01-a",
  description: "nightly",
  createdAtMs: 1_700_000_000_000,
  submittedAtMs: 1_700_000_001_000,
  startedAtMs: 1_700_000_002_500,
  finishedAtMs: 1_700_000_062_500,
  durationSeconds: 60,
  failureReason: { code: "PRECHECK_FAILED", message: "column missing", retryable: false },
  precheck: {
    passed: false,
    checkedRows: 1000,
    errors: [{ code: "TYPE_MISMATCH", message: "x" }, { code: "MISSING_COLUMN" }],
  },
};

const BARE: SparkJob = { ...FULL, status: "RUNNING", createdAtMs: null, ...SPARK_JOB_UNSET };

/** family -> value, for the families that have one series per job. */
function single(r: MappingResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of r.samples) {
    if (Object.keys(s.labels).length === 2) {
      expect(s.labels).toEqual(ID);
      out[s.family] = s.value;
    }
  }
  return out;
}

describe("normalizeSparkStatus / isTerminalSparkStatus", () => {
  it.each<[raw: string, status: string, terminal: boolean]>([
    ["PENDING", "pending", false],
    ["PREPARING", "preparing", false],
    ["RUNNING", "running", false],
    ["SUCCEEDED", "succeeded", true],
    ["FAILED", "failed", true],
    ["TIMEOUT", "timeout", true],
    ["CANCELLING", "cancelling", false],
    ["CANCELING", "cancelling", false],
    ["Canceling", "cancelling", false],
    ["CANCELED", "canceled", true],
    ["Cancelled", "canceled", true],
    [" running ", "running", false],
    ["QUEUED", "queued", false],
    ["", "unknown", false],
  ])("%j -> %s (terminal %s)", (raw, status, terminal) => {
    expect(normalizeSparkStatus(raw)).toBe(status);
    expect(isTerminalSparkStatus(raw)).toBe(terminal);
  });
});

describe("mapSparkJob", () => {
  it.each(SPARK_JOB_STATUSES)("exposes status %s as a state set", (status) => {
    const r = mapSparkJob({ ...BARE, status: status.toUpperCase() });
    const set = r.samples.filter((s) => s.family === "vdbcloud_spark_job_status");
    expect(set.map((s) => [s.labels.status, s.value])).toEqual(
      SPARK_JOB_STATUSES.map((k) => [k, k === status ? 1 : 0]),
    );
    expect(Object.keys(set[0]?.labels ?? {})).toEqual(["project_id", "job_id", "status"]);
  });

  it("adds an unknown status lowercased", () => {
    const set = mapSparkJob({ ...BARE, status: "QUEUED" }).samples.filter(
      (s) => s.family === "vdbcloud_spark_job_status",
    );
    expect(set).toHaveLength(SPARK_JOB_STATUSES.length + 1);
    expect(set.at(-1)).toEqual({
      family: "vdbcloud_spark_job_status",
      labels: { ...ID, status: "queued" },
      value: 1,
    });
  });

  it("maps every field of a complete job", () => {
    const r = mapSparkJob(FULL);
    expect(single(r)).toEqual({
      vdbcloud_spark_job_duration_seconds: 60,
      vdbcloud_spark_job_created_timestamp_seconds: 1_700_000_000,
      vdbcloud_spark_job_submitted_timestamp_seconds: 1_700_000_001,
      vdbcloud_spark_job_started_timestamp_seconds: 1_700_000_002.5,
      vdbcloud_spark_job_finished_timestamp_seconds: 1_700_000_062.5,
      vdbcloud_spark_job_precheck_passed: 0,
      vdbcloud_spark_job_precheck_errors: 2,
      vdbcloud_spark_job_precheck_checked_rows: 1000,
    });
    expect(r.samples.find((s) => s.family === "vdbcloud_spark_job_info")).toEqual({
      family: "vdbcloud_spark_job_info",
      labels: { ...ID, type: "BACKFILL", region_id: "aws-us-west-2", cluster_id: "in01-a" },
      value: 1,
    });
    expect(r.samples.find((s) => s.family === "vdbcloud_spark_job_failure_info")).toEqual({
      family: "vdbcloud_spark_job_failure_info",
      labels: { ...ID, code: "PRECHECK_FAILED", retryable: "false" },
      value: 1,
    });
    expect(r.families.map((f) => f.name)).toContain("vdbcloud_spark_job_failure_info");
    expect(r.dropped).toEqual({});
  });

  it("gives no sample for null fields, never 0", () => {
    const r = mapSparkJob(BARE);
    expect(single(r)).toEqual({});
    expect(r.samples.map((s) => s.family)).not.toContain("vdbcloud_spark_job_failure_info");
    expect(r.samples.find((s) => s.family === "vdbcloud_spark_job_info")?.labels.cluster_id).toBe("");
  });

  it("sets only the timestamps it has (a running job has no finish time)", () => {
    const r = mapSparkJob({ ...FULL, status: "RUNNING", finishedAtMs: null, durationSeconds: null });
    const names = Object.keys(single(r));
    expect(names).toContain("vdbcloud_spark_job_started_timestamp_seconds");
    expect(names).not.toContain("vdbcloud_spark_job_finished_timestamp_seconds");
    expect(names).not.toContain("vdbcloud_spark_job_duration_seconds");
  });

  it.each<[passed: boolean | null, expected: number | undefined]>([
    [true, 1],
    [false, 0],
    [null, undefined],
  ])("precheck passed %s -> %s", (passed, expected) => {
    const r = mapSparkJob({ ...BARE, precheck: { passed, checkedRows: null, errors: [] } });
    const values = single(r);
    expect(values.vdbcloud_spark_job_precheck_passed).toBe(expected);
    expect(values.vdbcloud_spark_job_precheck_errors).toBe(0);
    expect(values).not.toHaveProperty("vdbcloud_spark_job_precheck_checked_rows");
  });

  it.each<[retryable: boolean | null, label: string]>([
    [true, "true"],
    [false, "false"],
    [null, "unknown"],
  ])("failure info carries retryable %s as %j", (retryable, label) => {
    const r = mapSparkJob({ ...BARE, failureReason: { code: "E1", message: "m", retryable } });
    const info = r.samples.find((s) => s.family === "vdbcloud_spark_job_failure_info");
    expect(info?.labels).toEqual({ ...ID, code: "E1", retryable: label });
  });

  it("exposes no precheck error count when the report carries no errors list", () => {
    const r = mapSparkJob({ ...BARE, precheck: { passed: true, checkedRows: 10, errors: null } });
    expect(single(r)).toEqual({
      vdbcloud_spark_job_precheck_passed: 1,
      vdbcloud_spark_job_precheck_checked_rows: 10,
    });
  });

  it("shows CANCELING as the one cancelling state, not a second one", () => {
    const set = mapSparkJob({ ...BARE, status: "CANCELING" }).samples.filter(
      (s) => s.family === "vdbcloud_spark_job_status",
    );
    expect(set).toHaveLength(SPARK_JOB_STATUSES.length);
    expect(set.filter((s) => s.value === 1).map((s) => s.labels.status)).toEqual(["cancelling"]);
  });
});
