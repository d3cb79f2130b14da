import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { normalizeSparkJob, sparkJobDataSchema } from "./sparkJobs.js";
import { closeTestClients, TEST_API_KEY, TEST_BASE_URL, testClient } from "./testkit.js";

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

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  nock.cleanAll();
  await closeTestClients();
});
afterAll(() => nock.enableNetConnect());

describe("Describe Spark Job over HTTP", () => {
  it("GETs the job with auth and normalizes every field", async () => {
    const scope = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
      .get("/v2/projects/proj-0123/jobs/job-abc")
      .reply(200, { code: 0, data: fullJob });
    const { client } = testClient();
    await expect(client.describeSparkJob(args)).resolves.toStrictEqual(expectedFull);
    expect(scope.isDone()).toBe(true);
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
      clusterId: null,
      description: null,
      createdAtMs: T("2024-05-01T12:00:00Z"),
      submittedAtMs: null,
      startedAtMs: null,
      finishedAtMs: null,
      durationSeconds: null,
      failureReason: null,
      precheck: null,
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

  it("defaults a sparse failureReason and precheck report", () => {
    const job = normalizeSparkJob(
      sparkJobDataSchema.parse({ status: "FAILED", failureReason: { message: "oom" }, precheckReport: {} }),
      args,
    );
    expect(job.jobId).toBe("job-abc");
    expect(job.failureReason).toStrictEqual({ code: "", message: "oom", retryable: false });
    expect(job.precheck).toStrictEqual({ passed: null, checkedRows: null, errors: [] });
  });

  it.each([
    { name: "no status", data: { jobId: "j" } },
    { name: "an unreadable timestamp", data: { status: "RUNNING", startedAt: "later" } },
    { name: "a non-boolean retryable", data: { status: "FAILED", failureReason: { retryable: "yes" } } },
  ])("rejects $name", ({ data }) => {
    expect(sparkJobDataSchema.safeParse(data).success).toBe(false);
  });
});
