import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { normalizeRegions, regionsDataSchema } from "./regions.js";
import { closeTestClients, TEST_API_KEY, TEST_BASE_URL, testClient } from "./testkit.js";

const regions = [
  { cloudId: "aws", regionId: "aws-us-west-2", domain: "api.aws-us-west-2.example" },
  { cloudId: "gcp", regionId: "gcp-us-west1", domain: "api.gcp-us-west1.example" },
];

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  nock.cleanAll();
  await closeTestClients();
});
afterAll(() => nock.enableNetConnect());

describe("List Cloud Regions over HTTP", () => {
  it("sends cloudId when given", async () => {
    const scope = nock(TEST_BASE_URL, {
      reqheaders: { authorization: `Bearer ${TEST_API_KEY}`, accept: "application/json" },
    })
      .get("/v2/regions")
      .query({ cloudId: "aws" })
      .reply(200, { code: 0, data: [regions[0]] });
    const { client } = testClient();
    await expect(client.listRegions({ cloudId: "aws" })).resolves.toStrictEqual([regions[0]]);
    expect(scope.isDone()).toBe(true);
  });

  it("sends no query without cloudId", async () => {
    const scope = nock(TEST_BASE_URL)
      .get("/v2/regions")
      .query((q) => Object.keys(q).length === 0)
      .reply(200, { code: 0, data: regions });
    const { client } = testClient();
    await expect(client.listRegions({})).resolves.toHaveLength(2);
    expect(scope.isDone()).toBe(true);
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
