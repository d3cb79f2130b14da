import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDataPlaneClient, type DataPlaneClient } from "./dataPlane.js";
import { failure } from "./testkit.js";

const ENDPOINT = "https://in01-abc.aws-us-west-2.vectordb.example.com:19530";
const TOKEN = "db_admin:s3cret-Passw0rd";
const clients: DataPlaneClient[] = [];

function client(): DataPlaneClient {
  const c = createDataPlaneClient({
    endpoint: ENDPOINT,
    token: TOKEN,
    rateLimit: 100,
    requestTimeoutMs: 2000,
    maxRetries: 0,
    maxResponseBytes: 1 << 20,
    maxInFlight: 4,
  });
  clients.push(c);
  return c;
}

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  nock.cleanAll();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(() => nock.enableNetConnect());

describe("data-plane client", () => {
  it("has only read methods", () => {
    expect(Object.keys(client()).sort()).toEqual([
      "close",
      "getLoadState",
      "getRowCount",
      "listCollections",
      "listDatabases",
    ]);
  });

  it("sends the username:password token as Bearer and the documented bodies", async () => {
    const seen: unknown[] = [];
    const record = (body: unknown): boolean => {
      seen.push(body);
      return true;
    };
    nock(ENDPOINT, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
      .post("/v2/vectordb/databases/list", record)
      .reply(200, { code: 0, data: ["default", "analytics"] })
      .post("/v2/vectordb/collections/list", record)
      .reply(200, { code: 0, data: ["docs", "faq"] })
      .post("/v2/vectordb/collections/get_load_state", record)
      .reply(200, { code: 0, data: { loadState: "LoadStateLoading", loadProgress: 42 } })
      .post("/v2/vectordb/collections/get_stats", record)
      .reply(200, { code: 0, data: { rowCount: "1234" } });
    const c = client();
    expect(await c.listDatabases()).toEqual(["default", "analytics"]);
    expect(await c.listCollections("analytics")).toEqual(["docs", "faq"]);
    const ref = { dbName: "analytics", collectionName: "docs" };
    expect(await c.getLoadState(ref)).toEqual({ state: "LoadStateLoading", progress: 42 });
    expect(await c.getRowCount(ref)).toBe(1234);
    expect(seen).toEqual([{}, { dbName: "analytics" }, ref, ref]);
  });

  it.each([["a V2 listing refused as unknown (HTTP 404) falls back to V1", 404, ["a", "b"]]])(
    "%s",
    async (_name, status, expected) => {
      nock(ENDPOINT)
        .post("/v2/vectordb/collections/list")
        .reply(status, { code: 404, message: "Not Found" })
        .get("/v1/vector/collections")
        .query({ dbName: "default" })
        .reply(200, { code: 200, data: expected });
      expect(await client().listCollections("default")).toEqual(expected);
    },
  );

  it("a plane without the database API has the default database only", async () => {
    nock(ENDPOINT).post("/v2/vectordb/databases/list").reply(404, "404 page not found");
    expect(await client().listDatabases()).toEqual(["default"]);
  });

  it.each([
    ["refused credential (1800)", 1800, "auth_error"],
    ["unknown database (800)", 800, "not_found"],
    ["unknown collection (100)", 100, "not_found"],
    ["control-plane invalid token (80001)", 80001, "auth_error"],
    ["other engine code", 65535, "api_error"],
  ])("%s maps to %s, without the credential in the message", async (_n, apiCode, code) => {
    nock(ENDPOINT)
      .post("/v2/vectordb/collections/list")
      .reply(200, { code: apiCode, message: `denied for ${TOKEN} (password s3cret-Passw0rd)` });
    const err = await failure(client().listCollections("nope"));
    expect(err.code).toBe(code);
    expect(err.message).not.toContain("s3cret");
    expect(JSON.stringify(err)).not.toContain("s3cret");
  });

  it("a V2 refusal other than 404 does not fall back", async () => {
    const scope = nock(ENDPOINT)
      .post("/v2/vectordb/collections/list")
      .reply(401, { code: 1800, message: "x" });
    const err = await failure(client().listCollections("default"));
    expect(err.code).toBe("auth_error");
    expect(scope.isDone()).toBe(true);
    expect(nock.pendingMocks()).toEqual([]);
  });
});
