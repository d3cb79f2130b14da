import { describe, expect, it } from "vitest";
import { failure, TEST_AUTH_HEADERS, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import { isUnknownEndpoint } from "../unknownEndpoint.js";
import { importJobProgressDataSchema, normalizeImportJobProgress } from "./importJobsV2.js";
import { normalizeProjectsV2, projectsV2DataSchema } from "./projectsV2.js";

const upstream = useMockUpstream();

const LIST = "/v2/vectordb/jobs/import/list";
const DESCRIBE = "/v2/vectordb/jobs/import/describe";

/** Get Import Job Progress (V2): the reference's sample answer. */
const PROGRESS_SAMPLE = {
  jobId: "448761313698322011",
  collectionName: "medium_articles",
  fileName: "medium_articles_2020_dpr.json",
  fileSize: 3279917,
  state: "Completed",
  progress: 100,
  completeTime: "2024-04-01T06:17:55Z",
  reason: "",
  totalRows: 100000,
  details: [
    {
      fileName: "medium_articles_2020_dpr.json",
      fileSize: 3279917,
      state: "Completed",
      progress: 100,
      completeTime: "2024-04-01T06:17:53Z",
      reason: "",
    },
  ],
};

describe("List Import Jobs (V2) over HTTP", () => {
  it("POSTs {clusterId, pageSize, currentPage} to the v2 base URL, no region needed", async () => {
    let body: unknown;
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "POST", path: LIST, headers: TEST_AUTH_HEADERS })
      .reply(({ body: sent }) => {
        body = JSON.parse(String(sent));
        return {
          statusCode: 200,
          data: {
            code: 0,
            data: {
              count: 1,
              currentPage: 2,
              pageSize: 10,
              records: [{ collectionName: "docs", jobId: "job-1", state: "InProgress" }],
            },
          },
        };
      });
    const { client } = testClient();
    await expect(
      client.listImportJobsV2({ clusterId: "in01-a", pageSize: 10, currentPage: 2 }),
    ).resolves.toEqual({
      total: 1,
      currentPage: 2,
      pageSize: 10,
      listed: 1,
      jobs: [{ jobId: "job-1", collectionName: "docs", state: "InProgress" }],
    });
    expect(body).toEqual({ clusterId: "in01-a", pageSize: 10, currentPage: 2 });
    upstream.assertNoPendingInterceptors();
  });

  it.each([
    {
      name: "records (schema), numbers",
      data: {
        count: 2,
        currentPage: 1,
        pageSize: 100,
        records: [{ jobId: "a", collectionName: "c", state: "Pending" }],
      },
      want: { total: 2, currentPage: 1, pageSize: 100, ids: ["a"] },
    },
    {
      name: "tasks (the v1 sample's name), numbers as strings",
      data: {
        count: "3",
        currentPage: "1",
        pageSize: "50",
        tasks: [{ jobId: 7, collectionName: "c", state: "Failed" }],
      },
      want: { total: 3, currentPage: 1, pageSize: 50, ids: ["7"] },
    },
    {
      name: "an empty page without a list",
      data: { count: 0 },
      want: { total: 0, currentPage: null, pageSize: null, ids: [] },
    },
  ])("reads $name", async ({ data, want }) => {
    upstream.get(TEST_BASE_URL).intercept({ method: "POST", path: LIST }).reply(200, { code: 0, data });
    const { client } = testClient();
    const page = await client.listImportJobsV2({ clusterId: "in01-a", pageSize: 100, currentPage: 1 });
    expect({ total: page.total, currentPage: page.currentPage, pageSize: page.pageSize }).toEqual({
      total: want.total,
      currentPage: want.currentPage,
      pageSize: want.pageSize,
    });
    expect(page.jobs.map((j) => j.jobId)).toEqual(want.ids);
  });

  it.each([
    {
      name: "HTTP 404 of a removed endpoint",
      status: 404,
      body: { code: 404, message: "Not Found" },
      unknown: true,
    },
    { name: "HTTP 405", status: 405, body: "Method Not Allowed", unknown: true },
    {
      name: "a code whose message says the API is unknown",
      status: 200,
      body: { code: 90001, message: "unknown api path" },
      unknown: true,
    },
    {
      name: "cluster not found (80020)",
      status: 200,
      body: { code: 80020, message: "Cluster not exist" },
      unknown: false,
    },
    {
      name: "an illegal key (21119)",
      status: 200,
      body: { code: 21119, message: "The apikey is illegal." },
      unknown: false,
    },
    { name: "a server error", status: 500, body: { code: 500, message: "Internal" }, unknown: false },
  ])("$name: refused as an unknown endpoint = $unknown", async ({ status, body, unknown }) => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "POST", path: LIST })
      .reply(status, typeof body === "string" ? body : body)
      .persist();
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(
      client.listImportJobsV2({ clusterId: "in01-a", pageSize: 100, currentPage: 1 }),
    );
    expect(isUnknownEndpoint(err)).toBe(unknown);
  });
});

describe("Get Import Job Progress (V2)", () => {
  it("POSTs {clusterId, jobId} and reads the reference's sample", async () => {
    let body: unknown;
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "POST", path: DESCRIBE })
      .reply(({ body: sent }) => {
        body = JSON.parse(String(sent));
        return { statusCode: 200, data: { code: 0, data: PROGRESS_SAMPLE } };
      });
    const { client } = testClient();
    await expect(
      client.describeImportJob({ clusterId: "in01-a", jobId: "448761313698322011" }),
    ).resolves.toEqual({
      jobId: "448761313698322011",
      collectionName: "medium_articles",
      state: "Completed",
      progressPercent: 100,
      totalRows: 100000,
      reason: null,
    });
    expect(body).toEqual({ clusterId: "in01-a", jobId: "448761313698322011" });
  });

  it.each([
    {
      name: "numbers as strings, a failure reason",
      data: { jobId: 1, state: "Failed", progress: "35", totalRows: "1200", reason: " bad file " },
      want: { jobId: "1", state: "Failed", progressPercent: 35, totalRows: 1200, reason: "bad file" },
    },
    {
      name: "a running job without rows yet",
      data: { jobId: "j", collectionName: "c", state: "Importing", progress: 0 },
      want: {
        jobId: "j",
        collectionName: "c",
        state: "Importing",
        progressPercent: 0,
        totalRows: null,
        reason: null,
      },
    },
    {
      name: "odd fields read as unknown, the job ID asked for when it is missing",
      data: { state: "Pending", progress: "n/a", totalRows: { n: 1 } },
      want: {
        jobId: "asked",
        collectionName: null,
        state: "Pending",
        progressPercent: null,
        totalRows: null,
      },
    },
  ])("reads $name", ({ data, want }) => {
    const parsed = importJobProgressDataSchema.parse(data);
    expect(normalizeImportJobProgress(parsed, { clusterId: "c", jobId: "asked" })).toMatchObject(want);
  });

  it("refuses an answer without a state", () => {
    expect(importJobProgressDataSchema.safeParse({ jobId: "j", progress: 5 }).success).toBe(false);
  });
});

describe("List Projects (V2)", () => {
  it("GETs /v2/projects and reads regions, plan, org type and instanceCount as a number or a string", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: "/v2/projects" })
      .reply(200, {
        code: 0,
        data: [
          {
            projectId: "proj-1",
            projectName: "Default Project",
            description: "",
            regionIds: ["aws-us-west-2"],
            instanceCount: 2,
            createTime: "2023-08-30T08:48:58Z",
            plan: "Enterprise",
            orgType: "SAAS",
          },
          { projectId: "proj-2", projectName: "B", instanceCount: "5", plan: "Standard", orgType: "BYOC" },
        ],
      });
    const { client } = testClient();
    await expect(client.listProjectsV2()).resolves.toEqual([
      {
        projectId: "proj-1",
        projectName: "Default Project",
        instanceCount: 2,
        regionIds: ["aws-us-west-2"],
        plan: "Enterprise",
        orgType: "SAAS",
      },
      {
        projectId: "proj-2",
        projectName: "B",
        instanceCount: 5,
        regionIds: [],
        plan: "Standard",
        orgType: "BYOC",
      },
    ]);
  });

  it.each([
    {
      name: "a project without plan, org type or count",
      data: [{ projectId: "p" }],
      want: [{ projectId: "p", projectName: "", instanceCount: null, regionIds: [], plan: "", orgType: "" }],
    },
    {
      name: "regions listed twice, empty or not a list",
      data: [
        { projectId: "a", regionIds: ["aws-us-west-2", "", "aws-us-west-2", "az-eastus"] },
        { projectId: "b", regionIds: "aws-us-west-2" },
      ],
      want: [
        {
          projectId: "a",
          projectName: "",
          instanceCount: null,
          regionIds: ["aws-us-west-2", "az-eastus"],
          plan: "",
          orgType: "",
        },
        { projectId: "b", projectName: "", instanceCount: null, regionIds: [], plan: "", orgType: "" },
      ],
    },
    {
      name: "the list wrapped in {projects}",
      data: { projects: [{ projectId: 9, projectName: "n", instanceCount: "0" }] },
      want: [{ projectId: "9", projectName: "n", instanceCount: 0, regionIds: [], plan: "", orgType: "" }],
    },
  ])("reads $name", ({ data, want }) => {
    expect(normalizeProjectsV2(projectsV2DataSchema.parse(data))).toEqual(want);
  });
});
