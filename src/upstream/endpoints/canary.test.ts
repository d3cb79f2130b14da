import { describe, expect, it } from "vitest";
import {
  REFERENCE_DESCRIBE_COLLECTION,
  REFERENCE_QUERY_ANSWER,
  REFERENCE_SEARCH_ANSWER,
  SCHEMA_DESCRIBE_COLLECTION,
} from "../canaryTestkit.js";
import { describeCollectionEndpoint, queryEndpoint, searchEndpoint } from "./canary.js";

const REF = { dbName: "default", collectionName: "test_collection" };

/** Describe Collection's `data` through the declaration's schema and normalizer. */
function describeOf(data: unknown) {
  return describeCollectionEndpoint.normalize(describeCollectionEndpoint.schema.parse(data), REF);
}

describe("Describe Collection", () => {
  it.each([
    ["the reference's sample: params a key/value list", REFERENCE_DESCRIBE_COLLECTION],
    ["the reference's schema: params an object", SCHEMA_DESCRIBE_COLLECTION],
  ])("%s gives the vector field and its dimension", (_shape, data) => {
    expect(describeOf(data)).toEqual({ vectorFields: [{ name: "vector", type: "FloatVector", dim: 5 }] });
  });

  it.each([
    ["a numeric value in the list", [{ key: "dim", value: 8 }], 8],
    ["a string in the object", { dim: "768" }, 768],
    [
      "other keys around it",
      [
        { key: "mmap.enabled", value: "true" },
        { key: "dim", value: "4" },
      ],
      4,
    ],
    ["no dim (a sparse field)", [], null],
    ["an unreadable dim", { dim: "many" }, null],
    ["a dim of 0", { dim: 0 }, null],
    ["params of another JSON type", "dim=5", null],
  ])("reads %s", (_case, params, dim) => {
    const data = { fields: [{ name: "v", type: "Float16Vector", params }] };
    expect(describeOf(data).vectorFields).toEqual([{ name: "v", type: "Float16Vector", dim }]);
  });

  it("keeps every vector field in schema order, whatever its type, and leaves scalars out", () => {
    const data = {
      fields: [
        { name: "id", type: "Int64" },
        { name: "sparse", type: "SparseFloatVector", params: [] },
        { name: "bits", type: "BinaryVector", params: [{ key: "dim", value: "64" }] },
        { name: "dense", type: "FloatVector", elementTypeParams: { dim: "16" } },
        { name: "tags", type: "Array", params: { max_capacity: 8 } },
      ],
    };
    expect(describeOf(data).vectorFields).toEqual([
      { name: "sparse", type: "SparseFloatVector", dim: null },
      { name: "bits", type: "BinaryVector", dim: 64 },
      { name: "dense", type: "FloatVector", dim: 16 },
    ]);
  });

  it.each([
    [
      "isFunctionOutput",
      { fields: [{ name: "sparse", type: "SparseFloatVector", isFunctionOutput: true }] },
      true,
    ],
    [
      "a function's outputFieldNames",
      {
        fields: [{ name: "sparse", type: "SparseFloatVector" }],
        functions: [{ name: "bm25", type: "BM25", inputFieldNames: ["text"], outputFieldNames: ["sparse"] }],
      },
      true,
    ],
    ["neither", { fields: [{ name: "sparse", type: "SparseFloatVector", isFunctionOutput: false }] }, false],
    [
      "an unreadable flag and functions",
      { fields: [{ name: "sparse", type: "SparseFloatVector", isFunctionOutput: "yes" }], functions: "x" },
      false,
    ],
  ])("a field derived by a function (BM25), by %s: %s", (_name, data, derived) => {
    expect(describeOf(data).vectorFields[0]?.functionOutput === true).toBe(derived);
  });

  it("reads an answer without fields as a collection without vector fields", () => {
    expect(describeOf({ collectionName: "c" })).toEqual({ vectorFields: [] });
    expect(describeOf({ fields: null })).toEqual({ vectorFields: [] });
  });

  it("asks for the collection of its database", () => {
    expect(describeCollectionEndpoint.build(REF)).toMatchObject({
      method: "POST",
      path: "/v2/vectordb/collections/describe",
      target: { plane: "data" },
      body: REF,
    });
  });
});

describe("Search and Query", () => {
  it("search asks for one vector, the nearest entity only, no output field", () => {
    const spec = searchEndpoint.build({ ...REF, annsField: "vector", vector: [1, 0, 0] });
    expect(spec).toMatchObject({
      method: "POST",
      path: "/v2/vectordb/entities/search",
      target: { plane: "data" },
    });
    expect(spec.body).toEqual({
      ...REF,
      data: [[1, 0, 0]],
      annsField: "vector",
      limit: 1,
      outputFields: [],
    });
    expect(searchEndpoint.build({ ...REF, annsField: "s", vector: { "0": 1 } }).body).toMatchObject({
      data: [{ "0": 1 }],
    });
  });

  it("query asks for one entity, with its filter or an empty one", () => {
    expect(queryEndpoint.build(REF).body).toEqual({ ...REF, filter: "", limit: 1, outputFields: [] });
    expect(queryEndpoint.build({ ...REF, filter: "id >= 0" }).body).toMatchObject({ filter: "id >= 0" });
  });

  it.each([
    ["the guide's search answer (cost 0)", REFERENCE_SEARCH_ANSWER, { cost: 0, hits: 1 }],
    ["the reference's query answer (no cost)", REFERENCE_QUERY_ANSWER, { cost: null, hits: 1 }],
    ["a serverless cost as a string", { code: 0, cost: "3", data: [], topks: [0] }, { cost: 3, hits: 0 }],
    ["an unreadable cost", { code: 0, cost: "n/a", data: [{}] }, { cost: null, hits: 1 }],
    ["a negative cost", { code: 0, cost: -1, data: [{}] }, { cost: null, hits: 1 }],
  ])("reads %s from the whole envelope", (_case, body, expected) => {
    expect(searchEndpoint.envelope).toBe("whole");
    expect(queryEndpoint.envelope).toBe("whole");
    expect(
      searchEndpoint.normalize(searchEndpoint.schema.parse(body), { ...REF, annsField: "v", vector: [1] }),
    ).toEqual(expected);
  });
});
