import { describe, expect, it } from "vitest";
import { readEnvelope, unwrapEnvelope } from "./envelope.js";
import { CloudError } from "./errors.js";

const v2 = { endpoint: "GET /v2/regions" } as const;
const v1 = { endpoint: "GET /v1/projects" } as const;

function thrown(fn: () => unknown): CloudError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CloudError) return error;
    throw error;
  }
  throw new Error("expected a throw");
}

describe("unwrapEnvelope success codes (tolerant reader)", () => {
  // The spec says 0; v1 samples show 200 and v2 samples show 0. Both work on both planes.
  it.each([
    { plane: "v2", ctx: v2, code: 0 },
    { plane: "v2", ctx: v2, code: 200 },
    { plane: "v1", ctx: v1, code: 0 },
    { plane: "v1", ctx: v1, code: 200 },
    { plane: "v2", ctx: v2, code: "0" },
  ])("code $code on $plane returns data", ({ ctx, code }) => {
    expect(unwrapEnvelope({ code, data: [{ a: 1 }] }, ctx)).toEqual([{ a: 1 }]);
  });
});

describe("unwrapEnvelope error table", () => {
  it.each([
    { code: 80001, message: "Invalid token", outcome: "auth_error", permanent: true },
    { code: 80002, message: "Invalid token", outcome: "auth_error", permanent: true },
    { code: 21119, message: "The apikey is illegal.", outcome: "auth_error", permanent: true },
    { code: 80020, message: "Cluster not exist", outcome: "not_found", permanent: true },
    { code: 96018, message: "cluster not found", outcome: "not_found", permanent: true },
    {
      code: 80003,
      message: "pageSize should be between 5 and 100",
      outcome: "invalid_request",
      permanent: true,
    },
    { code: 42, message: "Rate limit exceeded", outcome: "rate_limited", permanent: false },
    { code: 43, message: "Too Many Requests", outcome: "rate_limited", permanent: false },
    { code: 201, message: "something else", outcome: "api_error", permanent: false },
  ])("code $code -> $outcome", ({ code, message, outcome, permanent }) => {
    const err = thrown(() => unwrapEnvelope({ code, message }, v2));
    expect(err.code).toBe(outcome);
    expect(err.permanent).toBe(permanent);
    expect(err.apiCode).toBe(code);
    expect(err.message).toContain(message);
  });

  it.each([
    { name: "an array", body: [1, 2] },
    { name: "null", body: null },
    { name: "an object without code", body: { data: {} } },
    { name: "a non-integer code", body: { code: "ok", data: {} } },
  ])("rejects $name as a schema error", ({ body }) => {
    expect(thrown(() => unwrapEnvelope(body, v2)).code).toBe("schema_error");
  });

  it("passes Retry-After through to a rate-limit error", () => {
    const err = thrown(() =>
      unwrapEnvelope({ code: 1, message: "rate limit" }, { ...v2, retryAfterMs: 4000 }),
    );
    expect(err.retryAfterMs).toBe(4000);
  });
});

describe("unwrapEnvelope: a success code without data is no success", () => {
  // The reference's own failure sample for Describe Cluster: code 0, a message, no data.
  it.each([
    { body: { code: 0, message: "The token is illegal." }, outcome: "auth_error", permanent: true },
    { body: { code: 200, message: "The token is illegal." }, outcome: "auth_error", permanent: true },
    { body: { code: 0, message: "invalid token" }, outcome: "auth_error", permanent: true },
    { body: { code: 0, message: "The apikey is illegal." }, outcome: "auth_error", permanent: true },
    { body: { code: 0, message: "API key expired" }, outcome: "auth_error", permanent: true },
    { body: { code: 0, message: "Unauthorized" }, outcome: "auth_error", permanent: true },
    {
      body: { code: 0, message: "The token is illegal.", data: null },
      outcome: "auth_error",
      permanent: true,
    },
    { body: { code: 0, message: "rate limit exceeded" }, outcome: "rate_limited", permanent: false },
    { body: { code: 0, message: "Cluster is being upgraded" }, outcome: "api_error", permanent: false },
    { body: { code: 0, message: "token count exceeds the page" }, outcome: "api_error", permanent: false },
    { body: { code: 0 }, outcome: "schema_error", permanent: false },
    { body: { code: 0, message: "  " }, outcome: "schema_error", permanent: false },
    { body: { code: 0, data: null }, outcome: "schema_error", permanent: false },
  ])("$body -> $outcome", ({ body, outcome, permanent }) => {
    const err = thrown(() => unwrapEnvelope(body, v2));
    expect(err.code).toBe(outcome);
    expect(err.permanent).toBe(permanent);
    expect(err.apiCode).toBe(body.code);
    if (body.message?.trim()) expect(err.message).toContain(body.message);
  });

  it.each([{}, [], 0, false, ""])("data %j is data", (data) => {
    expect(unwrapEnvelope({ code: 0, data }, v2)).toEqual(data);
  });
});

describe("readEnvelope", () => {
  it("reads well-typed fields and ignores the rest", () => {
    expect(readEnvelope({ code: 5, message: 7, data: null })).toEqual({ code: 5, hasData: true, data: null });
    expect(readEnvelope("text")).toBeUndefined();
  });
});
