import { describe, expect, it } from "vitest";
import { TEST_AUTH_HEADERS, testClient, useMockUpstream } from "../testkit.js";
import { type ImportJobsData, importJobsDataSchema, normalizeImportJobs } from "./importJobs.js";

const CONTROLLER = "https://controller.api.aws-us-west-2.vdbcloud.test";
const LIST = "/v1/vector/collections/import/list";
const args = { clusterId: "in01-abc", region: "aws-us-west-2", pageSize: 100, currentPage: 1 };
const job = { jobId: "job-1", collectionName: "docs", state: "ImportRunning" };

const upstream = useMockUpstream();

describe("List Import Jobs over HTTP", () => {
  it("GETs the region's controller with string query parameters and auth", async () => {
    let sent: Record<string, string> = {};
    upstream
      .get(CONTROLLER)
      .intercept({
        method: "GET",
        path: LIST,
        query: { clusterId: "in01-abc", pageSize: "100", currentPage: "1" },
        headers: TEST_AUTH_HEADERS,
      })
      .reply(({ headers }) => {
        sent = headers as Record<string, string>;
        return {
          statusCode: 200,
          data: { code: 200, data: { count: 1, currentPage: 1, pageSize: 100, records: [job] } },
        };
      });
    const { client } = testClient();
    // v1's count is "the records listed in this response": never read as the listing's total.
    await expect(client.listImportJobs(args)).resolves.toStrictEqual({
      total: null,
      currentPage: 1,
      pageSize: 100,
      listed: 1,
      jobs: [{ jobId: "job-1", collectionName: "docs", state: "ImportRunning" }],
    });
    upstream.assertNoPendingInterceptors();
    // A GET carries no body, so no Content-Type either.
    const names = Object.keys(sent).map((h) => h.toLowerCase());
    expect(names).toContain("authorization");
    expect(names).not.toContain("content-type");
  });

  it("honours a path prefix in the controller URL template", async () => {
    upstream
      .get("http://127.0.0.1:1234")
      .intercept({ method: "GET", path: (p) => p.split("?")[0] === `/ctl/aws-us-west-2${LIST}` })
      .reply(200, { code: 0, data: { count: 0, currentPage: 1, pageSize: 100, records: [] } });
    const { client } = testClient({ controllerUrl: "http://127.0.0.1:1234/ctl/{region}" });
    await client.listImportJobs(args);
    upstream.assertNoPendingInterceptors();
  });

  it("refuses an empty region without sending anything", async () => {
    const { client, observer } = testClient();
    await expect(client.listImportJobs({ ...args, region: "" })).rejects.toMatchObject({ code: "api_error" });
    expect(observer.events).toEqual([]);
  });
});

describe("normalizeImportJobs variants", () => {
  it.each([
    {
      name: "`records` (schema), numbers",
      data: { count: 2, currentPage: 1, pageSize: 100, records: [job, { ...job, jobId: "job-2" }] },
      expected: { total: 2, currentPage: 1, pageSize: 100, listed: 2, jobIds: ["job-1", "job-2"] },
    },
    {
      name: "`tasks` (sample), strings",
      data: { count: "1", currentPage: "2", pageSize: "5", tasks: [job] },
      expected: { total: 1, currentPage: 2, pageSize: 5, listed: 1, jobIds: ["job-1"] },
    },
    {
      name: "empty page without a list",
      data: { count: 0 },
      expected: { total: 0, currentPage: null, pageSize: null, listed: 0, jobIds: [] },
    },
    {
      name: "an empty `records` does not hide a non-empty `tasks`",
      data: { count: 2, currentPage: 1, pageSize: 10, records: [], tasks: [job, { ...job, jobId: "job-2" }] },
      expected: { total: 2, currentPage: 1, pageSize: 10, listed: 2, jobIds: ["job-1", "job-2"] },
    },
    {
      name: "both lists: each job once, listed as the longer list",
      data: { records: [job], tasks: [job, { ...job, jobId: "job-2" }] },
      expected: { total: null, currentPage: null, pageSize: null, listed: 2, jobIds: ["job-1", "job-2"] },
    },
    {
      name: "no counters: null, for the pager to read on to a short page",
      data: { tasks: [job], extra: true },
      expected: { total: null, currentPage: null, pageSize: null, listed: 1, jobIds: ["job-1"] },
    },
  ])("$name", ({ data, expected }) => {
    const page = normalizeImportJobs(importJobsDataSchema.parse(data));
    expect({
      total: page.total,
      currentPage: page.currentPage,
      pageSize: page.pageSize,
      listed: page.listed,
      jobIds: page.jobs.map((j) => j.jobId),
    }).toStrictEqual(expected);
  });

  it("keeps the raw state and defaults a missing collection name", () => {
    const page = normalizeImportJobs(
      importJobsDataSchema.parse({ tasks: [{ jobId: 7, state: "Completed" }] }),
    );
    expect(page.jobs).toStrictEqual([{ jobId: "7", collectionName: "", state: "Completed" }]);
  });

  // One odd job or field costs that job or field, never the page (and so never every job).
  it.each([
    {
      name: "a non-numeric count (no total: the pager reads on to a short page)",
      data: { count: "many", records: [{ jobId: "a", state: "Completed" }] },
      want: { total: null, ids: ["a"] },
    },
    {
      name: "a job without state (listed as unknown)",
      data: { records: [{ jobId: "j" }, { jobId: "k", state: "Failed" }] },
      want: { total: null, ids: ["j", "k"], states: ["", "Failed"] },
    },
    {
      name: "a job without an ID (left out)",
      data: { count: 2, records: [{ state: "Completed" }, { jobId: "k", state: "Failed" }] },
      want: { total: 2, ids: ["k"] },
    },
    {
      name: "a job that is not an object, and a numeric collection name",
      data: { tasks: ["job-x", { jobId: "k", collectionName: 42, state: "Pending" }] },
      want: { total: null, ids: ["k"], collections: ["42"], listed: 2 },
    },
  ])("keeps the page with $name", ({ data, want }) => {
    const parsed = importJobsDataSchema.safeParse(data);
    expect(parsed.success).toBe(true);
    const page = normalizeImportJobs(parsed.data as ImportJobsData);
    expect(page.total).toBe(want.total);
    if (want.listed !== undefined) expect(page.listed).toBe(want.listed);
    expect(page.jobs.map((j) => j.jobId)).toEqual(want.ids);
    if (want.states) expect(page.jobs.map((j) => j.state)).toEqual(want.states);
    if (want.collections) expect(page.jobs.map((j) => j.collectionName)).toEqual(want.collections);
  });

  it.each([{ records: "x" }, "x"])("rejects data of the wrong shape %j", (data) => {
    expect(importJobsDataSchema.safeParse(data).success).toBe(false);
  });
});
