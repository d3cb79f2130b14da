import { describe, expect, it } from "vitest";
import { CloudError } from "../errors.js";
import {
  OLDEST_PIPELINE,
  REFERENCE_PIPELINES,
  SAMPLE_INGESTION_PIPELINE,
  SCHEMA_PIPELINE,
} from "../pipelinesTestkit.js";
import type { Pipeline } from "../pipelineTypes.js";
import { refusalOf } from "../refusals.js";
import { failure, TEST_AUTH_HEADERS, testClient, useMockUpstream } from "../testkit.js";
import { notOfferedError } from "../unknownEndpoint.js";
import {
  listPipelinesEndpoint,
  needsDescribe,
  normalizePipelines,
  pipelinesDataSchema,
} from "./pipelines.js";

const CONTROLLER = "https://controller.api.aws-us-west-2.vdbcloud.test";
const ARGS = { projectId: "proj-1", regionId: "aws-us-west-2" };
const upstream = useMockUpstream();

const read = (data: unknown) => normalizePipelines(pipelinesDataSchema.parse(data));
/** The one pipeline `fields` make, beside an ID. */
const one = (fields: Record<string, unknown>): Pipeline | undefined =>
  read([{ pipelineId: "pipe-1", ...fields }])[0];

describe("List Pipelines over HTTP", () => {
  it("GETs the region's controller with the project, and reads the samples' array (code 200)", async () => {
    upstream
      .get(CONTROLLER)
      .intercept({
        method: "GET",
        path: "/v1/pipelines",
        query: { projectId: "proj-1" },
        headers: TEST_AUTH_HEADERS,
      })
      .reply(200, { code: 200, data: REFERENCE_PIPELINES });
    const { client } = testClient();
    expect(await client.listPipelines(ARGS)).toStrictEqual([
      {
        pipelineId: "pipe-6ca5dd1b4672659d3c3487",
        name: "my_ingestion_pipeline",
        type: "INGESTION",
        status: "SERVING",
        clusterId: "in03-0123456789abcdef",
        collectionName: "my_collection",
        usage: { embedding: 0, rerank: null },
        functionActions: ["INDEX_DOC", "PRESERVE"],
      },
      {
        pipelineId: "pipe-26a18a66ffc8c0edfdb874",
        name: "my_search_pipeline",
        type: "SEARCH",
        status: "SERVING",
        clusterId: "in03-0123456789abcdef",
        collectionName: "my_collection",
        usage: { embedding: 0, rerank: 0 },
        functionActions: ["SEARCH_DOC_CHUNKS"],
      },
    ]);
    upstream.assertNoPendingInterceptors();
  });

  it("Describe Pipeline GETs the pipeline's path at the region's controller; an answer without an ID is the one asked", async () => {
    upstream
      .get(CONTROLLER)
      .intercept({ method: "GET", path: "/v1/pipelines/pipe%2Fodd", headers: TEST_AUTH_HEADERS })
      .reply(200, { code: 200, data: { ...OLDEST_PIPELINE, pipelineId: undefined } });
    const { client } = testClient();
    const p = await client.describePipeline({ pipelineId: "pipe/odd", regionId: "aws-us-west-2" });
    expect(p).toMatchObject({ pipelineId: "pipe/odd", usage: { embedding: 0, rerank: null } });
    upstream.assertNoPendingInterceptors();
  });

  it.each([
    ["HTTP 404 (the path removed)", 404, { code: 404, message: "Not Found: GET /v1/pipelines" }, true],
    [
      "80002 Token not found or unauthorized (the failure sample)",
      200,
      { code: 80002, message: "Token not found or unauthorized: x" },
      true,
    ],
    ["80001 invalid token", 200, { code: 80001, message: "invalid token" }, true],
    // The reference's current failure sample: its own words for a refused token, which the refusal
    // rule reads as such (a failure of the target), not as a controller without pipelines.
    [
      "code 200 'The token is illegal.' (the current failure sample)",
      200,
      { code: 200, message: "The token is illegal." },
      false,
    ],
    ["a server error", 500, { code: 500, message: "Internal Server Error" }, false],
    [
      "a plan refusal",
      200,
      { code: 96028, message: "Feature only supported for enterprise plan clusters." },
      false,
    ],
  ] as const)("%s: the client says not offered: %s", async (_name, status, body, want) => {
    upstream
      .get(CONTROLLER)
      .intercept({ method: "GET", path: (p) => p.startsWith("/v1/pipelines?") })
      .reply(status, body);
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.listPipelines(ARGS));
    expect(err.endpoint).toBe("GET /v1/pipelines");
    expect(err.code === "not_offered").toBe(want);
    expect(refusalOf(err) === "not_offered").toBe(want);
    // The answer that said so stays the cause, its code the one the attempt was counted under.
    if (want) expect(err.cause).toMatchObject({ code: status === 404 ? "not_found" : "auth_error" });
    if (body.code === 200) expect(refusalOf(err)).toBe("key_refused");
  });

  it("a rate limit or a timeout is never 'not offered'", () => {
    const endpoint = "GET /v1/pipelines";
    const { absent } = listPipelinesEndpoint;
    for (const err of [
      new CloudError("rate_limited", "HTTP 429", { endpoint, httpStatus: 429 }),
      new CloudError("timeout", "timed out", { endpoint }),
    ]) {
      expect(notOfferedError(err, absent)).toBe(err);
    }
  });

  it("Describe Pipeline's HTTP 404 says the pipeline is gone, not the endpoint: not 'not offered'", async () => {
    upstream
      .get(CONTROLLER)
      .intercept({ method: "GET", path: "/v1/pipelines/pipe-gone" })
      .reply(404, { code: 404, message: "Not Found" });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(
      client.describePipeline({ pipelineId: "pipe-gone", regionId: "aws-us-west-2" }),
    );
    expect(err.code).not.toBe("not_offered");
    expect(refusalOf(err)).toBeUndefined();
  });
});

describe("normalizePipelines", () => {
  it.each<{ name: string; data: unknown; want: Partial<Pipeline>[] }>([
    // The list's data: an array (samples) or one object (schema).
    { name: "the schema's one object", data: SCHEMA_PIPELINE, want: [{ pipelineId: "42" }] },
    { name: "an empty array", data: [], want: [] },
    // pipelineId: an integer (schema) or "pipe-..." (samples).
    { name: "an integer ID", data: [{ pipelineId: 7 }], want: [{ pipelineId: "7" }] },
    { name: "a pipe- ID, padded", data: [{ pipelineId: " pipe-1 " }], want: [{ pipelineId: "pipe-1" }] },
    // An item without a usable ID costs itself only; an ID listed twice is kept once.
    {
      name: "items without an ID, or not objects",
      data: [{ name: "x" }, { pipelineId: "" }, 3, null, { pipelineId: "pipe-2" }],
      want: [{ pipelineId: "pipe-2" }],
    },
    {
      name: "an ID listed twice",
      data: [
        { pipelineId: "pipe-1", status: "SERVING" },
        { pipelineId: "pipe-1", status: "STOPPED" },
      ],
      want: [{ pipelineId: "pipe-1", status: "SERVING" }],
    },
    // totalUsage: an array of {embedding, rerank} strings (schema), summed.
    {
      name: "totalUsage as the schema's array of strings",
      data: SCHEMA_PIPELINE,
      want: [{ usage: { embedding: 150, rerank: 5 } }],
    },
    {
      name: "totalUsage as an array without rerank",
      data: [{ pipelineId: "p", totalUsage: [{ embedding: "10" }, { embedding: 5 }, "odd"] }],
      want: [{ usage: { embedding: 15, rerank: null } }],
    },
    {
      name: "totalUsage as an empty array",
      data: [{ pipelineId: "p", totalUsage: [] }],
      want: [{ usage: { embedding: 0, rerank: null } }],
    },
    // totalUsage as an object (the current sample: {embedding: 0}; rerank where given).
    {
      name: "totalUsage {embedding: 0}",
      data: [SAMPLE_INGESTION_PIPELINE],
      want: [{ usage: { embedding: 0, rerank: null } }],
    },
    {
      name: "totalUsage {embedding, rerank} as numbers",
      data: [{ pipelineId: "p", totalUsage: { embedding: 1234, rerank: 56 } }],
      want: [{ usage: { embedding: 1234, rerank: 56 } }],
    },
    // The oldest sample: totalTokenUsage, read as embedding tokens.
    {
      name: "totalTokenUsage: 0",
      data: [OLDEST_PIPELINE],
      want: [{ usage: { embedding: 0, rerank: null } }],
    },
    {
      name: "totalTokenUsage as a string",
      data: [{ pipelineId: "p", totalTokenUsage: "77" }],
      want: [{ usage: { embedding: 77, rerank: null } }],
    },
    { name: "no usage at all", data: [{ pipelineId: "p" }], want: [{ usage: null }] },
    {
      name: "totalUsage of another type",
      data: [{ pipelineId: "p", totalUsage: "lots" }],
      want: [{ usage: null }],
    },
    // The target cluster: CLUSTER_ID (schema), clusterId (samples), clusterID (the seed's table).
    {
      name: "CLUSTER_ID",
      data: [{ pipelineId: "p", CLUSTER_ID: "in01-a" }],
      want: [{ clusterId: "in01-a" }],
    },
    { name: "clusterId", data: [{ pipelineId: "p", clusterId: "in01-b" }], want: [{ clusterId: "in01-b" }] },
    { name: "clusterID", data: [{ pipelineId: "p", clusterID: "in01-c" }], want: [{ clusterId: "in01-c" }] },
    // ... or only inside each search function: their one cluster, or "" when several.
    {
      name: "one cluster inside every function",
      data: [
        {
          pipelineId: "p",
          functions: [
            { action: "SEARCH_TEXT", clusterId: "in01-a", collectionName: "c1" },
            { action: "SEARCH_TEXT", clusterID: "in01-a", collectionName: "c2" },
          ],
        },
      ],
      want: [{ clusterId: "in01-a", collectionName: "", functionActions: ["SEARCH_TEXT", "SEARCH_TEXT"] }],
    },
    {
      name: "several clusters inside the functions",
      data: [
        {
          pipelineId: "p",
          functions: [
            { action: "SEARCH_TEXT", clusterId: "in01-a", collectionName: "c1" },
            { action: "SEARCH_IMAGE_BY_TEXT", CLUSTER_ID: "in01-b", collectionName: "c1" },
          ],
        },
      ],
      want: [{ clusterId: "", collectionName: "c1" }],
    },
    {
      name: "no target anywhere",
      data: [{ pipelineId: "p" }],
      want: [{ clusterId: "", collectionName: "" }],
    },
    // collectionName or newCollectionName.
    {
      name: "newCollectionName",
      data: [{ pipelineId: "p", newCollectionName: "fresh" }],
      want: [{ collectionName: "fresh" }],
    },
    // Functions: any action; one that is not an object is left out; no list is "not known".
    {
      name: "any action, a non-object function left out",
      data: [{ pipelineId: "p", functions: [{ action: "INDEX_IMAGE" }, "odd", { action: "NEW_THING" }, {}] }],
      want: [{ functionActions: ["INDEX_IMAGE", "NEW_THING", ""] }],
    },
    {
      name: "one function as an object (the schema's deletion variant)",
      data: [
        { pipelineId: "p", functions: { action: "PURGE_DOC_INDEX ", name: "purge", inputField: "doc_name" } },
      ],
      want: [{ functionActions: ["PURGE_DOC_INDEX"] }],
    },
    {
      name: "functions neither a list nor an object",
      data: [{ pipelineId: "p", functions: "x" }],
      want: [{ functionActions: null }],
    },
    { name: "no functions", data: [{ pipelineId: "p" }], want: [{ functionActions: null }] },
    {
      name: "an empty function list",
      data: [{ pipelineId: "p", functions: [] }],
      want: [{ functionActions: [] }],
    },
    // Descriptive fields: "" or null when absent or unreadable, never a failure.
    {
      name: "no name, type or status",
      data: [{ pipelineId: "p", name: 3, status: " " }],
      want: [{ name: "3", type: "", status: null }],
    },
  ])("$name", ({ data, want }) => {
    const got = read(data);
    expect(got).toHaveLength(want.length);
    for (const [i, w] of want.entries()) expect(got[i]).toMatchObject(w);
  });

  it.each<{ name: string; fields: Record<string, unknown>; want: boolean }>([
    {
      name: "a sample's item (usage, functions, status)",
      fields: { ...SAMPLE_INGESTION_PIPELINE },
      want: false,
    },
    // The reference's search and deletion items carry no usage; Describe answers the same object.
    { name: "no usage", fields: { status: "SERVING", functions: [] }, want: false },
    { name: "no functions", fields: { status: "SERVING", totalUsage: { embedding: 1 } }, want: true },
    { name: "no status", fields: { totalUsage: { embedding: 1 }, functions: [] }, want: false },
    {
      name: "one function as an object (the schema's deletion variant)",
      fields: { status: "SERVING", functions: { action: "PURGE_DOC_INDEX", name: "purge" } },
      want: false,
    },
  ])("needs Describe Pipeline, $name: $want", ({ fields, want }) => {
    const p = one(fields);
    if (!p) throw new Error("no pipeline");
    expect(needsDescribe(p)).toBe(want);
  });
});
