import { describe, expect, it } from "vitest";
import { TEST_API_KEY, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import { normalizeRegions, regionsDataSchema } from "./regions.js";

const regions = [
  { cloudId: "aws", regionId: "aws-us-west-2", domain: "api.aws-us-west-2.example" },
  { cloudId: "gcp", regionId: "gcp-us-west1", domain: "api.gcp-us-west1.example" },
];

const upstream = useMockUpstream();

describe("List Cloud Regions over HTTP", () => {
  it("sends cloudId when given", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "GET",
        path: "/v2/regions",
        query: { cloudId: "aws" },
        headers: { authorization: `Bearer ${TEST_API_KEY}`, accept: "application/json" },
      })
      .reply(200, { code: 0, data: [regions[0]] });
    const { client } = testClient();
    await expect(client.listRegions({ cloudId: "aws" })).resolves.toStrictEqual([regions[0]]);
    upstream.assertNoPendingInterceptors();
  });

  it("sends no query without cloudId", async () => {
    // Without `query`, the path must match the request's whole path, query string included.
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: "/v2/regions" })
      .reply(200, { code: 0, data: regions });
    const { client } = testClient();
    await expect(client.listRegions({})).resolves.toHaveLength(2);
    upstream.assertNoPendingInterceptors();
  });
});

describe("normalizeRegions", () => {
  it("defaults a missing domain and rejects a missing regionId", () => {
    expect(
      normalizeRegions(regionsDataSchema.parse([{ cloudId: "az", regionId: "az-eastus" }])),
    ).toStrictEqual([{ cloudId: "az", regionId: "az-eastus", domain: "" }]);
    expect(regionsDataSchema.safeParse([{ cloudId: "az" }]).success).toBe(false);
  });
});
