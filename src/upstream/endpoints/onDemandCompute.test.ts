import { describe, expect, it } from "vitest";
import { REFERENCE_ON_DEMAND_COMPUTE } from "../consoleTestkit.js";
import { refusalOf } from "../refusals.js";
import { failure, TEST_AUTH_HEADERS, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import type { OnDemandCompute } from "../types.js";
import { normalizeOnDemandCompute, onDemandComputeDataSchema } from "./onDemandCompute.js";

const upstream = useMockUpstream();
const ARGS = { projectId: "proj-asked", regionId: "aws-us-west-2" };
const PATH = "/v2/on-demand-compute";

const read = (data: unknown) => normalizeOnDemandCompute(onDemandComputeDataSchema.parse(data), ARGS);

describe("Describe On-Demand Compute over HTTP", () => {
  it("GETs /v2/on-demand-compute with both parameters and reads the reference's sample", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "GET",
        path: PATH,
        query: { projectId: "proj-xxx", regionId: "aws-us-west-2" },
        headers: TEST_AUTH_HEADERS,
      })
      .reply(200, { code: 0, data: REFERENCE_ON_DEMAND_COMPUTE });
    const { client, observer } = testClient();
    const compute = await client.describeOnDemandCompute({
      projectId: "proj-xxx",
      regionId: "aws-us-west-2",
    });
    expect(compute).toStrictEqual({ projectId: "proj-xxx", regionId: "aws-us-west-2", status: "enabled" });
    expect(observer.events).toEqual([
      { kind: "attempt", endpoint: "GET /v2/on-demand-compute", outcome: "success" },
    ]);
    upstream.assertNoPendingInterceptors();
  });

  it.each([
    // The reference's failure sample: the key itself is refused.
    [401, { code: 1800, message: "User hasn't authenticated" }, "key_refused"],
    [403, { code: 96027, message: "Please check your Apikey scope" }, "not_permitted"],
    [200, { code: 96028, message: "Feature only supported for enterprise plan clusters." }, "plan_refused"],
  ] as const)("HTTP %s %j is refused as %s", async (status, body, refusal) => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith(`${PATH}?`) })
      .reply(status, body);
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.describeOnDemandCompute(ARGS));
    expect(err.endpoint).toBe("GET /v2/on-demand-compute");
    expect(refusalOf(err)).toBe(refusal);
  });

  it("an answer without data is a schema error, never a status", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith(`${PATH}?`) })
      .reply(200, { code: 0 });
    const { client } = testClient({ maxRetries: 0 });
    expect((await failure(client.describeOnDemandCompute(ARGS))).code).toBe("schema_error");
  });
});

describe("normalizeOnDemandCompute", () => {
  it.each<{ name: string; data: Record<string, unknown>; want: OnDemandCompute }>([
    {
      name: "the reference's sample",
      data: { ...REFERENCE_ON_DEMAND_COMPUTE },
      want: { projectId: "proj-xxx", regionId: "aws-us-west-2", status: "enabled" },
    },
    ...["disabled", "enabling", "enabled", "abnormal"].map((status) => ({
      name: `the documented status ${status}`,
      data: { ...ARGS, status },
      want: { ...ARGS, status },
    })),
    {
      name: "a status in another case, as sent",
      data: { ...ARGS, status: "ABNORMAL" },
      want: { ...ARGS, status: "ABNORMAL" },
    },
    {
      name: "a status padded with blanks, trimmed",
      data: { ...ARGS, status: " enabling " },
      want: { ...ARGS, status: "enabling" },
    },
    {
      name: "no project or region: the asked ones",
      data: { status: "enabled" },
      want: { ...ARGS, status: "enabled" },
    },
    {
      name: "an empty project and region: the asked ones",
      data: { projectId: "", regionId: "", status: "enabled" },
      want: { ...ARGS, status: "enabled" },
    },
    { name: "no status", data: { ...ARGS }, want: { ...ARGS, status: null } },
    { name: "an empty status", data: { ...ARGS, status: "" }, want: { ...ARGS, status: null } },
    {
      name: "a status of another type",
      data: { ...ARGS, status: { value: 1 } },
      want: { ...ARGS, status: null },
    },
    {
      name: "another project and region, as named",
      data: { projectId: "proj-other", regionId: "az-eastus", status: "enabled" },
      want: { projectId: "proj-other", regionId: "az-eastus", status: "enabled" },
    },
  ])("reads $name", ({ data, want }) => {
    expect(read(data)).toStrictEqual(want);
  });

  it("refuses a list where one object is documented", () => {
    expect(onDemandComputeDataSchema.safeParse([REFERENCE_ON_DEMAND_COMPUTE]).success).toBe(false);
  });
});
