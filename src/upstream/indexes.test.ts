/**
 * List Indexes and Describe Index over HTTP (MockAgent), with the reference's own answers: the
 * List Indexes sample, the Describe Index sample (a one-item array), the object the schema
 * documents, and both failure samples the page has shown.
 */
import type { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { normalizeDescribeIndex } from "./endpoints/indexes.js";
import {
  testDataPlaneClient as client,
  closeTestClients,
  TEST_DATA_PLANE_ENDPOINT as ENDPOINT,
  failure,
  mockUpstream,
  REFERENCE_DESCRIBE_INDEX_SAMPLE,
  SAMPLE_INDEX_DESCRIPTION,
  SAMPLE_INDEX_ITEM,
  TEST_DATA_PLANE_TOKEN as TOKEN,
} from "./testkit.js";

let upstream: MockAgent;

/** Answers `path` once with `body` (as the service sends it: HTTP 200), recording the request body. */
function answer(path: string, body: object, seen: unknown[] = []): unknown[] {
  upstream
    .get(ENDPOINT)
    .intercept({ method: "POST", path, headers: { authorization: `Bearer ${TOKEN}` } })
    .reply(({ body: sent }) => {
      seen.push(JSON.parse(String(sent)));
      return { statusCode: 200, data: body };
    });
  return seen;
}

beforeEach(() => {
  upstream = mockUpstream();
});
afterEach(async () => {
  await closeTestClients();
});

const REF = { dbName: "default", collectionName: "quick_setup", indexName: "vector" };

describe("List Indexes", () => {
  it("sends the collection and reads the reference's sample", async () => {
    const seen = answer("/v2/vectordb/indexes/list", { code: 0, data: ["my_vector_index"] });
    expect(await client().listIndexes({ dbName: "analytics", collectionName: "test_collection" })).toEqual([
      "my_vector_index",
    ]);
    expect(seen).toEqual([{ dbName: "analytics", collectionName: "test_collection" }]);
  });

  it.each([
    ["a name listed twice is kept once", ["a", "b", "a"], ["a", "b"]],
    ["no index", [], []],
  ])("%s", async (_name, data, want) => {
    answer("/v2/vectordb/indexes/list", { code: 0, data });
    expect(await client().listIndexes({ dbName: "default", collectionName: "c" })).toEqual(want);
  });
});

describe("Describe Index", () => {
  it("reads the reference's sample verbatim (data a one-item array) and sends the documented body", async () => {
    const seen = answer("/v2/vectordb/indexes/describe", REFERENCE_DESCRIBE_INDEX_SAMPLE);
    expect(await client().describeIndex(REF)).toEqual({
      indexName: "vector",
      fieldName: "vector",
      indexType: "",
      metricType: "COSINE",
      state: "Finished",
      totalRows: 0,
      indexedRows: 0,
      pendingRows: 0,
      failReason: "",
    });
    expect(seen).toEqual([REF]);
  });

  it.each([
    ["the samples' one-item array", [SAMPLE_INDEX_ITEM]],
    ["the schema's object", SAMPLE_INDEX_ITEM],
  ])("reads %s", async (_name, data) => {
    answer("/v2/vectordb/indexes/describe", { code: 0, data });
    expect(await client().describeIndex({ ...REF, indexName: "embedding_idx" })).toEqual(
      SAMPLE_INDEX_DESCRIPTION,
    );
  });

  it.each([
    ["User hasn't authenticated (1800)", { code: 1800, message: "User hasn't authenticated" }, "auth_error"],
    ["an older page's sample: code 0, no data", { code: 0, message: "The token is illegal." }, "auth_error"],
    ["collection not found (100)", { code: 100, message: "collection not found[collection=x]" }, "not_found"],
  ])("a failure sample, %s, is %s without the token in it", async (_name, body, code) => {
    answer("/v2/vectordb/indexes/describe", body);
    const err = await failure(client().describeIndex(REF));
    expect(err.code).toBe(code);
    expect(err.endpoint).toBe("POST /v2/vectordb/indexes/describe");
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain("s3cret");
  });

  it("a refused List Indexes is an auth error too", async () => {
    answer("/v2/vectordb/indexes/list", { code: 1800, message: "User hasn't authenticated" });
    expect((await failure(client().listIndexes({ dbName: "default", collectionName: "c" }))).code).toBe(
      "auth_error",
    );
  });
});

describe("normalizeDescribeIndex", () => {
  const item = (over: Record<string, unknown>) =>
    ({
      indexName: "",
      fieldName: "",
      indexType: "",
      metricType: "",
      indexState: "",
      totalRows: null,
      indexedRows: null,
      pendingRows: null,
      failReason: "",
      ...over,
    }) as Exclude<Parameters<typeof normalizeDescribeIndex>[0], readonly unknown[]>;

  it.each([
    {
      name: "the asked item of several",
      data: [
        item({ indexName: "other", indexState: "Failed" }),
        item({ indexName: "vector", indexState: "InProgress" }),
      ],
      state: "InProgress",
    },
    {
      name: "the first item when none has the asked name",
      data: [item({ indexName: "x", indexState: "Retry" })],
      state: "Retry",
    },
    {
      name: "an item without a name is the asked index",
      data: [item({ indexState: "Unissued" })],
      state: "Unissued",
    },
  ])("$name", ({ data, state }) => {
    const got = normalizeDescribeIndex(data, REF);
    expect(got?.state).toBe(state);
    if (data.length === 1 && data[0]?.indexName === "") expect(got?.indexName).toBe("vector");
  });

  it("an empty array is no index (dropped since it was listed)", () => {
    expect(normalizeDescribeIndex([], REF)).toBeNull();
  });
});

describe("Describe Index's tolerant reader", () => {
  it.each([
    [
      "rows as numeric strings",
      { totalRows: "300", indexedRows: "120", pendingRows: "180" },
      [300, 120, 180],
    ],
    ["rows absent", {}, [null, null, null]],
    ["rows of another type", { totalRows: true, indexedRows: {}, pendingRows: "many" }, [null, null, null]],
  ])("%s", async (_name, rows, want) => {
    answer("/v2/vectordb/indexes/describe", {
      code: 0,
      data: [{ indexName: "vector", fieldName: "vector", indexState: "InProgress", ...rows }],
    });
    const got = await client().describeIndex(REF);
    expect([got?.totalRows, got?.indexedRows, got?.pendingRows]).toEqual(want);
    expect(got?.indexType).toBe("");
  });
});
