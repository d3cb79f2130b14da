import { describe, expect, it } from "vitest";
import { failure, TEST_AUTH_HEADERS, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import { cloudJobDataSchema, normalizeCloudJob } from "./jobs.js";

/** The reference's success sample (Describe Job V2). */
const SAMPLE = {
  code: 0,
  data: {
    jobId: "job-03e1eefbd82dmo2oeb8pe2",
    type: "MIGRATION",
    status: "SUCCESSFUL",
    progress: "100",
    startTime: "2024-07-30T16:49:50Z",
    endTime: "2024-07-30T17:30:50Z",
    reason: "",
  },
};
const EXPECTED = {
  jobId: "job-03e1eefbd82dmo2oeb8pe2",
  type: "MIGRATION",
  status: "SUCCESSFUL",
  progress: 100,
  startTimeMs: Date.parse("2024-07-30T16:49:50Z"),
  endTimeMs: Date.parse("2024-07-30T17:30:50Z"),
  reason: null,
};
const ID = SAMPLE.data.jobId;
const parse = (data: unknown) => normalizeCloudJob(cloudJobDataSchema.parse(data), ID);

const upstream = useMockUpstream();

function answer(status: number, body: object): void {
  upstream
    .get(TEST_BASE_URL)
    .intercept({
      method: "GET",
      path: `/v2/jobs/${ID}`,
      headers: TEST_AUTH_HEADERS,
    })
    .reply(status, body);
}

describe("Describe Job over HTTP", () => {
  it("reads the reference's sample (with the envelope)", async () => {
    answer(200, SAMPLE);
    const { client } = testClient();
    await expect(client.describeJob(ID)).resolves.toStrictEqual(EXPECTED);
    upstream.assertNoPendingInterceptors();
  });

  it("reads the reference's schema (the job object, no envelope)", async () => {
    answer(200, SAMPLE.data);
    const { client } = testClient();
    await expect(client.describeJob(ID)).resolves.toStrictEqual(EXPECTED);
  });

  it("fails with the reference's failure sample", async () => {
    answer(200, { code: 21119, message: "The apikey is illegal." });
    const { client } = testClient();
    expect((await failure(client.describeJob(ID))).code).toBe("auth_error");
  });

  it("does not read an error answer without an envelope as a job", async () => {
    answer(404, { error: "not found" });
    const { client } = testClient();
    expect((await failure(client.describeJob(ID))).code).not.toBe("success");
  });

  it("encodes the job ID as one path segment", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: "/v2/jobs/a%2Fb" })
      .reply(200, { code: 0, data: { ...SAMPLE.data, jobId: "a/b" } });
    const { client } = testClient();
    expect((await client.describeJob("a/b")).jobId).toBe("a/b");
  });
});

describe("normalizeCloudJob variants", () => {
  it.each([
    { name: "progress as a number", patch: { progress: 40 }, want: { progress: 40 } },
    { name: "progress as a string", patch: { progress: "7" }, want: { progress: 7 } },
    { name: "an empty progress", patch: { progress: "" }, want: { progress: null } },
    { name: "no progress", patch: { progress: undefined }, want: { progress: null } },
    { name: "an empty endTime (running)", patch: { endTime: "" }, want: { endTimeMs: null } },
    { name: "a null startTime", patch: { startTime: null }, want: { startTimeMs: null } },
    {
      name: "an epoch startTime",
      patch: { startTime: 1_722_358_190 },
      want: { startTimeMs: 1_722_358_190_000 },
    },
    {
      name: "a failure reason",
      patch: { status: "FAILED", reason: " disk full " },
      want: { status: "FAILED", reason: "disk full" },
    },
    { name: "no job ID", patch: { jobId: undefined }, want: {} },
    { name: "a type of another kind", patch: { type: { k: 1 } }, want: { type: "" } },
    { name: "an unknown status", patch: { status: "PAUSED" }, want: { status: "PAUSED" } },
  ])("tolerates $name", ({ patch, want }) => {
    expect(parse({ ...SAMPLE.data, ...patch })).toStrictEqual({ ...EXPECTED, ...want });
  });

  it.each([
    { name: "no status", data: { jobId: ID } },
    { name: "an empty status", data: { jobId: ID, status: " " } },
    { name: "a numeric status", data: { jobId: ID, status: 2 } },
  ])("rejects $name", ({ data }) => {
    expect(cloudJobDataSchema.safeParse(data).success).toBe(false);
  });
});
