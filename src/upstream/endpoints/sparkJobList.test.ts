import { describe, expect, it } from "vitest";
import {
  DOCUMENTED_SPARK_LIST_ITEM,
  failure,
  TEST_AUTH_HEADERS,
  TEST_BASE_URL,
  testClient,
  useMockUpstream,
} from "../testkit.js";
import { normalizeSparkJobList, sparkJobListDataSchema } from "./sparkJobList.js";

const args = { clusterId: "in01-abc", pageSize: 100, currentPage: 1 };

const documented = DOCUMENTED_SPARK_LIST_ITEM;
const expected = {
  jobId: "job-0a1b2c",
  projectId: "proj-0123",
  type: "BACKFILL",
  status: "RUNNING",
  regionId: "aws-us-west-2",
  clusterId: "in01-abc",
  description: "nightly backfill",
  createdAtMs: Date.parse("2025-06-01T10:00:00Z"),
  submittedAtMs: null,
  startedAtMs: Date.parse("2025-06-01T10:00:45Z"),
  finishedAtMs: null,
  durationSeconds: 120,
  failureReason: null,
  precheck: null,
};

const parse = (data: unknown) => normalizeSparkJobList(sparkJobListDataSchema.parse(data), args);

const upstream = useMockUpstream();

describe("List Spark Jobs over HTTP", () => {
  it("GETs /v2/jobs with type=SPARK, the cluster and the page, and reads the documented answer", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "GET",
        path: "/v2/jobs",
        query: { type: "SPARK", clusterId: "in01-abc", currentPage: "2", pageSize: "100" },
        headers: TEST_AUTH_HEADERS,
      })
      .reply(200, { code: 0, data: { total: 101, items: [documented] } });
    const { client } = testClient();
    // The documented answer holds no page position: null, not the one asked (the pager tells them apart).
    await expect(client.listSparkJobs({ ...args, currentPage: 2 })).resolves.toStrictEqual({
      total: 101,
      currentPage: null,
      pageSize: null,
      listed: 1,
      jobs: [expected],
    });
    upstream.assertNoPendingInterceptors();
  });

  it("fails with the service's error code and message (no envelope-less reading here)", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: /^\/v2\/jobs\?/ })
      .reply(200, { code: 21119, message: "The apikey is illegal." });
    const { client } = testClient();
    const err = await failure(client.listSparkJobs(args));
    expect(err.code).toBe("auth_error");
  });
});

describe("normalizeSparkJobList variants", () => {
  it.each([
    { name: "the documented total and items", data: { total: 3, items: [documented] }, total: 3 },
    { name: "count instead of total", data: { count: 3, items: [documented] }, total: 3 },
    { name: "a numeric-string total", data: { total: "3", items: [documented] }, total: 3 },
    { name: "jobs instead of items", data: { total: 3, jobs: [documented] }, total: 3 },
    { name: "records instead of items", data: { total: 3, records: [documented] }, total: 3 },
    { name: "no total at all", data: { items: [documented] }, total: null },
  ])("reads $name", ({ data, total }) => {
    const page = parse(data);
    expect(page.total).toBe(total);
    expect(page.jobs).toStrictEqual([expected]);
  });

  it("reads an empty or absent list as no jobs", () => {
    expect(parse({ total: 0, items: [] }).jobs).toEqual([]);
    expect(parse({ total: 0, items: null }).jobs).toEqual([]);
    expect(parse({}).jobs).toEqual([]);
  });

  it("skips an item without a usable status or job ID, keeps the others", () => {
    const page = parse({
      total: 4,
      items: [documented, { ...documented, jobId: "j2", status: "" }, { status: "RUNNING" }, "junk"],
    });
    expect(page.jobs.map((j) => j.jobId)).toEqual(["job-0a1b2c"]);
  });

  it("takes the asked cluster for an item without clusterId, and numbers as strings", () => {
    const { clusterId: _, ...noCluster } = documented;
    const page = parse({ total: 1, items: [{ ...noCluster, durationSeconds: "120", jobId: 77 }] });
    expect(page.jobs[0]).toStrictEqual({ ...expected, jobId: "77", clusterId: "in01-abc" });
  });

  it("reads a finished job's finishedAt and the page position the server reports", () => {
    const page = parse({
      total: 1,
      currentPage: 3,
      pageSize: 50,
      items: [{ ...documented, status: "SUCCEEDED", finishedAt: "2025-06-01T10:05:00Z" }],
    });
    expect(page.currentPage).toBe(3);
    expect(page.pageSize).toBe(50);
    expect(page.jobs[0]?.finishedAtMs).toBe(Date.parse("2025-06-01T10:05:00Z"));
  });
});
