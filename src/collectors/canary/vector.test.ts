import { describe, expect, it } from "vitest";
import type { CloudErrorCode } from "../../upstream/errors.js";
import { CloudError, type CloudErrorInit } from "../../upstream/errors.js";
import { failedOutcome, isRefusedSearch, probePlan } from "./vector.js";

const E = "POST /v2/vectordb/entities/search" as const;
const err = (code: CloudErrorCode, message: string, init: Partial<CloudErrorInit> = {}) =>
  new CloudError(code, `${E}: ${message}`, { endpoint: E, ...init });

describe("probePlan", () => {
  const field = (type: string, dim: number | null, name = "v") => ({ name, type, dim });

  it.each([
    ["FloatVector", 4, [1, 0, 0, 0]],
    ["Float16Vector", 2, [1, 0]],
    ["BFloat16Vector", 3, [1, 0, 0]],
    ["Int8Vector", 1, [1]],
  ])("searches a %s of dimension %i with a unit vector", (type, dim, vector) => {
    expect(probePlan({ vectorFields: [field(type, dim)] })).toEqual({ kind: "search", field: "v", vector });
  });

  it("searches a sparse field with one non-zero index, as the sparse-vector guide sends it", () => {
    expect(probePlan({ vectorFields: [field("SparseFloatVector", null)] })).toEqual({
      kind: "search",
      field: "v",
      vector: { "0": 1 },
    });
  });

  it.each([
    ["a binary field (no REST body documented)", [field("BinaryVector", 64)], "is a BinaryVector"],
    ["a dense field without a dimension", [field("FloatVector", null)], "no dimension"],
    ["a dimension beyond the documented maximum", [field("FloatVector", 100_000)], "no dimension"],
    ["no vector field at all", [], "no vector field"],
    ["a vector type the canary does not know", [field("Float8Vector", 8)], "is a Float8Vector"],
  ])("queries instead for %s, and says why", (_case, vectorFields, reason) => {
    const plan = probePlan({ vectorFields });
    expect(plan.kind).toBe("query");
    expect(plan.kind === "query" ? plan.reason : "").toContain(reason);
  });

  it("queries a collection whose only vector field a function derives (full text: its search takes text)", () => {
    expect(
      probePlan({
        vectorFields: [{ ...field("SparseFloatVector", null), name: "bm25", functionOutput: true }],
      }),
    ).toEqual({
      kind: "query",
      reason: "vector field bm25 is a function's output, whose search takes text the canary does not send",
    });
  });

  it("searches a dense field beside a function's sparse output", () => {
    const plan = probePlan({
      vectorFields: [
        { ...field("SparseFloatVector", null), name: "bm25", functionOutput: true },
        field("FloatVector", 2),
      ],
    });
    expect(plan).toEqual({ kind: "search", field: "v", vector: [1, 0] });
  });

  it("takes the first dense field it can build for, before a sparse one, past one it cannot", () => {
    const plan = probePlan({
      vectorFields: [
        field("SparseFloatVector", null, "s"),
        field("BinaryVector", 8, "b"),
        field("FloatVector", 2, "d"),
      ],
    });
    expect(plan).toEqual({ kind: "search", field: "d", vector: [1, 0] });
    expect(
      probePlan({ vectorFields: [field("BinaryVector", 8, "b"), field("SparseFloatVector", null, "s")] }),
    ).toMatchObject({
      kind: "search",
      field: "s",
    });
  });
});

describe("isRefusedSearch", () => {
  it.each([
    [
      "the engine's invalid parameter (1100)",
      err("api_error", "upstream code 1100: dim mismatch", { apiCode: 1100 }),
      true,
    ],
    [
      "the reference's failure sample (1802)",
      err("invalid_request", "upstream code 1802: reason for failure", { apiCode: 1802 }),
      true,
    ],
    ["an invalid request", err("invalid_request", "upstream code 80003: bad", { apiCode: 80003 }), true],
    ["HTTP 400", err("http_error", "HTTP 400", { httpStatus: 400 }), true],
    [
      "a message about the dimension",
      err("api_error", "upstream code 65535: vector dimension mismatch", { apiCode: 65535 }),
      true,
    ],
    [
      "a field that does not exist",
      err("api_error", "upstream code 65535: field vec not exist", { apiCode: 65535 }),
      true,
    ],
    [
      "a refused key (1800)",
      err("auth_error", "upstream code 1800: User hasn't authenticated", { apiCode: 1800 }),
      false,
    ],
    ["HTTP 401", err("auth_error", "HTTP 401", { httpStatus: 401 }), false],
    ["a timeout", err("timeout", "no complete answer within 100 ms"), false],
    ["a server error", err("http_error", "HTTP 503", { httpStatus: 503 }), false],
    [
      "a collection not found",
      err("not_found", "upstream code 100: collection not found", { apiCode: 100 }),
      false,
    ],
    ["anything but a CloudError", new Error("dim"), false],
  ])("%s: %s", (_case, error, refused) => {
    expect(isRefusedSearch(error)).toBe(refused);
  });
});

describe("failedOutcome", () => {
  it.each([
    ["a timeout", err("timeout", "no complete answer within 5000 ms"), "timeout"],
    [
      "a refused key (1800)",
      err("auth_error", "upstream code 1800: User hasn't authenticated", { apiCode: 1800 }),
      "refused",
    ],
    ["HTTP 403", err("auth_error", "HTTP 403", { httpStatus: 403 }), "refused"],
    [
      "a refused vector",
      err("api_error", "upstream code 1100: invalid parameter", { apiCode: 1100 }),
      "error",
    ],
    ["a connection refused", err("network_error", "network error ECONNREFUSED"), "error"],
    ["a server error", err("http_error", "HTTP 500", { httpStatus: 500 }), "error"],
    [
      "a collection not found",
      err("not_found", "upstream code 100: collection not found", { apiCode: 100 }),
      "error",
    ],
  ])("%s is %s", (_case, error, outcome) => {
    expect(failedOutcome(error)).toBe(outcome);
  });
});
