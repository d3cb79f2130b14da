import { describe, expect, it } from "vitest";
import {
  SPARK_JOB_UNSET,
  TEST_AUTH_HEADERS,
  TEST_BASE_URL,
  testClient,
  useMockUpstream,
} from "../testkit.js";
import { normalizeSparkJob, sparkJobDataSchema } from "./sparkJobs.js";

const args = { projectId: "proj-0123", jobId: "job-abc" };
const T = (iso: string) => Date.parse(iso);

const failureReason = { code: "E_SCHEMA", message: "column mismatch", retryable: false };
const precheckReport = {
  passed: false,
  dbName: "default",
  collectionName: "docs",
  input: "s3://bucket/x",
  fields: ["id", "vec"],
  columnMapping: { id: "id" },
  requiredSourceColumns: ["id"],
  errors: [
    {
      code: "TYPE",
      sourceColumn: "vec",
      targetField: "vec",
      expectedType: "FloatVector",
      actualType: "String",
      message: "bad type",
    },
  ],
  checkedRows: 1000,
};
const fullJob = {
  jobId: "job-abc",
  projectId: "proj-0123",
  type: "BACKFILL",
  description: "nightly",
  status: "FAILED",
  regionId: "aws-us-west-2",
  clusterId: "in01-abc",
  artifact: { volumeName: "vol", path: "a/b.jar", artifactUri: "s3://x" },
  details: {
    dbName: "default",
    collectionName: "docs",
    input: { type: "S3", volumeName: "vol", path: "in/", format: "parquet" },
    fields: ["id"],
    columnMapping: { a: "b" },
    mode: "APPEND",
    resourceSize: "SMALL",
  },
  failureReason,
  precheckReport,
  createdAt: "2024-05-01T12:00:00Z",
  submittedAt: "2024-05-01T12:00:05Z",
  startedAt: "2024-05-01T12:01:00Z",
  finishedAt: "2024-05-01T12:11:00Z",
  durationSeconds: 600,
};
const expectedFull = {
  jobId: "job-abc",
  projectId: "proj-0123",
  type: "BACKFILL",
  status: "FAILED",
  regionId: "aws-us-west-2",
  clusterId: "in01-abc",
  description: "nightly",
  createdAtMs: T("2024-05-01T12:00:00Z"),
  submittedAtMs: T("2024-05-01T12:00:05Z"),
  startedAtMs: T("2024-05-01T12:01:00Z"),
  finishedAtMs: T("2024-05-01T12:11:00Z"),
  durationSeconds: 600,
  failureReason: { code: "E_SCHEMA", message: "column mismatch", retryable: false },
  precheck: {
    passed: false,
    checkedRows: 1000,
    errors: [{ code: "TYPE", sourceColumn: "vec", targetField: "vec", message: "bad type" }],
  },
};

const upstream = useMockUpstream();

describe("Describe Spark Job over HTTP", () => {
  it("GETs the job with auth and normalizes every field", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "GET",
        path: "/v2/projects/proj-0123/jobs/job-abc",
        headers: TEST_AUTH_HEADERS,
      })
      .reply(200, { code: 0, data: fullJob });
    const { client } = testClient();
    await expect(client.describeSparkJob(args)).resolves.toStrictEqual(expectedFull);
    upstream.assertNoPendingInterceptors();
  });
});

describe("normalizeSparkJob variants", () => {
  it("reads failureReason and precheckReport nested under details", () => {
    const { failureReason: f, precheckReport: p, details, ...rest } = fullJob;
    const nested = { ...rest, details: { ...details, failureReason: f, precheckReport: p } };
    expect(normalizeSparkJob(sparkJobDataSchema.parse(nested), args)).toStrictEqual(expectedFull);
  });

  it("prefers the top-level copy when both are present", () => {
    const both = {
      ...fullJob,
      details: { ...fullJob.details, failureReason: { code: "OTHER", message: "x", retryable: true } },
    };
    expect(normalizeSparkJob(sparkJobDataSchema.parse(both), args).failureReason?.code).toBe("E_SCHEMA");
  });

  it.each([
    { name: "an empty object", reason: {} },
    { name: "every field null", reason: { code: null, message: null, retryable: null } },
    { name: "empty strings", reason: { code: "", message: "" } },
  ])("reads a failure reason of $name as no failure", ({ reason }) => {
    const running = { ...fullJob, status: "RUNNING", failureReason: reason, details: { ...fullJob.details } };
    expect(normalizeSparkJob(sparkJobDataSchema.parse(running), args).failureReason).toBeNull();
  });

  it("falls back to the nested failure reason when the top-level one is empty", () => {
    const both = {
      ...fullJob,
      failureReason: {},
      details: { ...fullJob.details, failureReason: fullJob.failureReason },
    };
    expect(normalizeSparkJob(sparkJobDataSchema.parse(both), args).failureReason?.code).toBe("E_SCHEMA");
  });

  it.each([null, ""])("takes the requested project ID for %j", (projectId) => {
    const job = { ...fullJob, projectId };
    expect(normalizeSparkJob(sparkJobDataSchema.parse(job), args).projectId).toBe(args.projectId);
  });

  it("fills a running job's absent fields with null", () => {
    const running = {
      jobId: "job-abc",
      projectId: "proj-0123",
      type: "BACKFILL",
      status: "RUNNING",
      regionId: "aws-us-west-2",
      createdAt: "2024-05-01T12:00:00Z",
      finishedAt: null,
    };
    expect(normalizeSparkJob(sparkJobDataSchema.parse(running), args)).toStrictEqual({
      jobId: "job-abc",
      projectId: "proj-0123",
      type: "BACKFILL",
      status: "RUNNING",
      regionId: "aws-us-west-2",
      description: null,
      createdAtMs: T("2024-05-01T12:00:00Z"),
      ...SPARK_JOB_UNSET,
    });
  });

  it.each([
    {
      name: "epoch seconds and a numeric-string duration",
      patch: { createdAt: 1714564800, durationSeconds: "42" },
    },
    { name: "epoch milliseconds", patch: { createdAt: 1714564800000, durationSeconds: 42 } },
  ])("tolerates $name", ({ patch }) => {
    const job = normalizeSparkJob(sparkJobDataSchema.parse({ ...fullJob, ...patch }), args);
    expect(job.createdAtMs).toBe(T("2024-05-01T12:00:00Z"));
    expect(job.durationSeconds).toBe(42);
  });

  it("leaves unsaid what a sparse failureReason and precheck report do not say", () => {
    const job = normalizeSparkJob(
      sparkJobDataSchema.parse({ status: "FAILED", failureReason: { message: "oom" }, precheckReport: {} }),
      args,
    );
    expect(job.jobId).toBe("job-abc");
    expect(job.failureReason).toStrictEqual({ code: "", message: "oom", retryable: null });
    expect(job.precheck).toStrictEqual({ passed: null, checkedRows: null, errors: null });
  });

  // Fields no gauge uses accept any JSON type; fields a gauge uses read an odd value as unknown.
  it.each([
    { name: "description as an object", patch: { description: { text: "x" } }, want: { description: null } },
    { name: "description as a number", patch: { description: 7 }, want: { description: null } },
    { name: "details as a string", patch: { details: "n/a" }, want: {} },
    {
      name: "details fields of other types",
      patch: { details: { input: "volume://v/in/", fields: "id,vec", columnMapping: [["a", "b"]], mode: 1 } },
      want: {},
    },
    { name: "artifact as a string", patch: { artifact: "volume://v/a.jar" }, want: {} },
    { name: "artifact fields of other types", patch: { artifact: { volumeName: 1, path: ["a"] } }, want: {} },
    {
      name: "precheckReport.input as an object, columnMapping as a list",
      patch: {
        precheckReport: { ...precheckReport, input: { type: "VOLUME", path: "in/" }, columnMapping: ["a"] },
      },
      want: {},
    },
    { name: "unknown extra fields", patch: { progress: { pct: 40 }, tags: ["a"], owner: null }, want: {} },
    {
      name: "empty-string timestamps",
      patch: { submittedAt: "", startedAt: "", finishedAt: "" },
      want: { submittedAtMs: null, startedAtMs: null, finishedAtMs: null },
    },
    { name: "an unreadable timestamp", patch: { finishedAt: "later" }, want: { finishedAtMs: null } },
    { name: "a non-numeric duration", patch: { durationSeconds: "ten" }, want: { durationSeconds: null } },
    { name: "numeric IDs and type", patch: { projectId: 42, type: 3 }, want: { projectId: "42", type: "3" } },
    { name: "a type of another kind", patch: { type: { k: 1 } }, want: { type: "" } },
    { name: "a cluster ID of another kind", patch: { clusterId: false }, want: { clusterId: null } },
    {
      name: "retryable as a string",
      patch: { failureReason: { ...failureReason, retryable: "TRUE" } },
      want: { failureReason: { ...failureReason, retryable: true } },
    },
    {
      name: "retryable of another kind",
      patch: { failureReason: { ...failureReason, retryable: "yes" } },
      want: { failureReason: { ...failureReason, retryable: null } },
    },
    {
      name: "a failureReason given as a bare message",
      patch: { failureReason: "executor lost" },
      want: { failureReason: { code: "", message: "executor lost", retryable: null } },
    },
    { name: "a failureReason of another kind", patch: { failureReason: 12 }, want: { failureReason: null } },
    {
      name: "a precheck report without an errors list",
      patch: { precheckReport: { passed: true, checkedRows: "250000" } },
      want: { precheck: { passed: true, checkedRows: 250_000, errors: null } },
    },
    {
      name: "precheck errors of odd shapes (each still counted)",
      patch: { precheckReport: { passed: false, errors: ["bad", { code: 5, message: null }] } },
      want: { precheck: { passed: false, checkedRows: null, errors: [{}, { code: "5" }] } },
    },
    {
      name: "a precheck report of another kind",
      patch: { precheckReport: "passed" },
      want: { precheck: null },
    },
  ])("tolerates $name", ({ patch, want }) => {
    const job = normalizeSparkJob(sparkJobDataSchema.parse({ ...fullJob, ...patch }), args);
    expect(job).toStrictEqual({ ...expectedFull, ...want });
  });

  it.each([
    { name: "an absent job ID", data: { status: "RUNNING" } },
    { name: "an empty job ID", data: { jobId: "", status: "RUNNING" } },
  ])("takes the requested ID for $name", ({ data }) => {
    expect(normalizeSparkJob(sparkJobDataSchema.parse(data), args).jobId).toBe("job-abc");
  });

  it.each([
    { name: "no status", data: { jobId: "j" } },
    { name: "an empty status", data: { jobId: "j", status: "  " } },
    { name: "a numeric status", data: { jobId: "j", status: 3 } },
    { name: "an object status", data: { jobId: "j", status: { name: "RUNNING" } } },
    { name: "an object job ID", data: { jobId: { id: "j" }, status: "RUNNING" } },
    { name: "a list job ID", data: { jobId: ["j"], status: "RUNNING" } },
  ])("rejects $name (the only unusable jobs)", ({ data }) => {
    expect(sparkJobDataSchema.safeParse(data).success).toBe(false);
  });
});
