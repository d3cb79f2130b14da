import type { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  testDataPlaneClient as client,
  closeTestClients,
  TEST_DATA_PLANE_ENDPOINT as ENDPOINT,
  failure,
  mockUpstream,
  TEST_DATA_PLANE_TOKEN as TOKEN,
} from "./testkit.js";

let upstream: MockAgent;

beforeEach(() => {
  upstream = mockUpstream();
});
afterEach(async () => {
  await closeTestClients();
});

describe("data-plane client", () => {
  it("has only read methods", () => {
    expect(Object.keys(client()).sort()).toEqual([
      "close",
      "describeCollection",
      "describeIndex",
      "getLoadState",
      "getRowCount",
      "listCollections",
      "listDatabases",
      "listIndexes",
      "query",
      "search",
    ]);
  });

  it("sends the username:password token as Bearer and the documented bodies", async () => {
    const seen: unknown[] = [];
    const answer = (path: string, data: unknown): void => {
      upstream
        .get(ENDPOINT)
        .intercept({ method: "POST", path, headers: { authorization: `Bearer ${TOKEN}` } })
        .reply(({ body }) => {
          seen.push(JSON.parse(String(body)));
          return { statusCode: 200, data: { code: 0, data } };
        });
    };
    answer("/v2/vectordb/databases/list", ["default", "analytics"]);
    answer("/v2/vectordb/collections/list", ["docs", "faq"]);
    answer("/v2/vectordb/collections/get_load_state", { loadState: "LoadStateLoading", loadProgress: 42 });
    answer("/v2/vectordb/collections/get_stats", { rowCount: "1234" });
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
      const origin = upstream.get(ENDPOINT);
      origin
        .intercept({ method: "POST", path: "/v2/vectordb/collections/list" })
        .reply(status, { code: 404, message: "Not Found" });
      origin
        .intercept({ method: "GET", path: "/v1/vector/collections", query: { dbName: "default" } })
        .reply(200, { code: 200, data: expected });
      expect(await client().listCollections("default")).toEqual(expected);
    },
  );

  it("a plane without the database API has the default database only", async () => {
    upstream
      .get(ENDPOINT)
      .intercept({ method: "POST", path: "/v2/vectordb/databases/list" })
      .reply(404, "404 page not found");
    expect(await client().listDatabases()).toEqual(["default"]);
  });

  it.each([
    ["refused credential (1800)", 1800, "auth_error"],
    ["unknown database (800)", 800, "not_found"],
    ["unknown collection (100)", 100, "not_found"],
    ["unknown index (700)", 700, "not_found"],
    // The engine's request errors: the request's fault, not the credential's.
    ["a body that is not JSON (1801)", 1801, "invalid_request"],
    ["a missing required parameter (1802)", 1802, "invalid_request"],
    ["a schema that cannot be encoded (1803)", 1803, "invalid_request"],
    ["control-plane invalid token (80001)", 80001, "auth_error"],
    ["other engine code", 65535, "api_error"],
  ])("%s maps to %s, without the credential in the message", async (_n, apiCode, code) => {
    upstream
      .get(ENDPOINT)
      .intercept({ method: "POST", path: "/v2/vectordb/collections/list" })
      .reply(200, { code: apiCode, message: `denied for ${TOKEN} (password s3cret-Passw0rd)` });
    const err = await failure(client().listCollections("nope"));
    expect(err.code).toBe(code);
    expect(err.message).not.toContain("s3cret");
    expect(JSON.stringify(err)).not.toContain("s3cret");
  });

  it("a V2 refusal other than 404 does not fall back", async () => {
    upstream
      .get(ENDPOINT)
      .intercept({ method: "POST", path: "/v2/vectordb/collections/list" })
      .reply(401, { code: 1800, message: "x" });
    const err = await failure(client().listCollections("default"));
    expect(err.code).toBe("auth_error");
    upstream.assertNoPendingInterceptors();
    expect(upstream.pendingInterceptors()).toEqual([]);
  });
});
