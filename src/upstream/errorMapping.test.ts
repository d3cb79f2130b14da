import { describe, expect, it } from "vitest";
import {
  errorForApiCode,
  errorForDatalessSuccess,
  errorForHttpStatus,
  isAuthMessage,
  isRateLimitMessage,
} from "./errorMapping.js";
import { isRetryable } from "./retry.js";

const ctx = { endpoint: "GET /v2/clusters/{id}" } as const;

describe("errorForApiCode", () => {
  it.each([
    { apiCode: 80001, message: "Invalid token", code: "auth_error" },
    { apiCode: 80002, message: "Invalid token", code: "auth_error" },
    { apiCode: 21119, message: "The apikey is illegal.", code: "auth_error" },
    // The newer reference pages' auth failure, on the control plane and the data plane.
    { apiCode: 1800, message: "User hasn't authenticated", code: "auth_error" },
    { apiCode: 1800, message: "rate limit of the unauthenticated", code: "auth_error" },
    { apiCode: 80020, message: "Cluster not exist or you don't have permission.", code: "not_found" },
    { apiCode: 96018, message: "cluster not found", code: "not_found" },
    { apiCode: 80003, message: "pageSize should be between 5 and 100", code: "invalid_request" },
    // A validation error that mentions a limit is the configuration problem it says it is.
    { apiCode: 80003, message: "pageSize must be within limit 5..100", code: "invalid_request" },
    { apiCode: 80003, message: "rate limit of pageSize exceeded", code: "invalid_request" },
    { apiCode: 90000, message: "Rate limit exceeded", code: "rate_limited" },
    { apiCode: 90002, message: "Too many requests, try later", code: "rate_limited" },
    { apiCode: 90003, message: "request throttled", code: "rate_limited" },
    // The engine's rate-limit code, whatever the wording.
    { apiCode: 8, message: "service busy", code: "rate_limited" },
    // "limit" alone is not rate limiting.
    { apiCode: 90001, message: "request limit reached", code: "api_error" },
    { apiCode: 65535, message: "collection count exceeds the limit of 64", code: "api_error" },
    { apiCode: 65535, message: "QPS limit", code: "api_error" },
    // Specific codes win over wording.
    { apiCode: 80001, message: "token rate limit", code: "auth_error" },
    // Word boundaries: these are not rate limiting.
    { apiCode: 65535, message: "failed to generate metrics", code: "api_error" },
    { apiCode: 65535, message: "unlimited plan required", code: "api_error" },
  ])("code $apiCode '$message' -> $code", ({ apiCode, message, code }) => {
    const err = errorForApiCode(apiCode, message, ctx);
    expect(err.code).toBe(code);
    expect(err.apiCode).toBe(apiCode);
    expect(err.message).toContain(`upstream code ${apiCode}`);
  });

  it("says that an invalid request is a configuration problem and is not retried", () => {
    const err = errorForApiCode(80003, "pageSize must be within limit 5..100", ctx);
    expect(err.code).toBe("invalid_request");
    expect(err.permanent).toBe(true);
    expect(isRetryable(err)).toBe(false);
    expect(err.message).toBe(
      "GET /v2/clusters/{id}: upstream code 80003: pageSize must be within limit 5..100 " +
        "(the request was rejected as invalid: check the configuration; not retried)",
    );
  });

  it("redacts and truncates the upstream message", () => {
    const err = errorForApiCode(1, `bad key sk-abc ${"x".repeat(1000)}`, {
      ...ctx,
      redact: (t) => t.replaceAll("sk-abc", "[REDACTED]"),
    });
    expect(err.message).not.toContain("sk-abc");
    expect(err.message).toContain("[REDACTED]");
    expect(err.message.length).toBeLessThan(400);
  });
});

describe("errorForHttpStatus", () => {
  it.each([
    { status: 401, envelope: undefined, code: "auth_error" },
    { status: 403, envelope: undefined, code: "auth_error" },
    { status: 404, envelope: undefined, code: "not_found" },
    { status: 429, envelope: undefined, code: "rate_limited" },
    { status: 500, envelope: undefined, code: "http_error" },
    { status: 503, envelope: undefined, code: "http_error" },
    { status: 400, envelope: undefined, code: "http_error" },
    { status: 400, envelope: { code: 80001, message: "invalid token" }, code: "auth_error" },
    { status: 400, envelope: { code: 80020, message: "not found" }, code: "not_found" },
    { status: 503, envelope: { code: 1, message: "too many requests" }, code: "rate_limited" },
    { status: 503, envelope: { message: "rate limited" }, code: "rate_limited" },
    { status: 503, envelope: { code: 8, message: "busy" }, code: "rate_limited" },
    {
      status: 400,
      envelope: { code: 80003, message: "pageSize must be within limit 5..100" },
      code: "invalid_request",
    },
    { status: 400, envelope: { message: "value exceeds limit" }, code: "http_error" },
    // 429 decides, whatever the body says.
    { status: 429, envelope: { code: 80003, message: "limit" }, code: "rate_limited" },
    { status: 500, envelope: { code: 65000, message: "internal" }, code: "http_error" },
  ])("HTTP $status with $envelope -> $code", ({ status, envelope, code }) => {
    const err = errorForHttpStatus(status, envelope, ctx);
    expect(err.code).toBe(code);
    expect(err.httpStatus).toBe(status);
    expect(err.message).toContain(`HTTP ${status}`);
  });

  it("keeps Retry-After on a 429", () => {
    expect(errorForHttpStatus(429, undefined, { ...ctx, retryAfterMs: 2000 }).retryAfterMs).toBe(2000);
  });
});

describe("isRateLimitMessage", () => {
  it.each([
    ["Rate limit exceeded", true],
    ["rate-limited", true],
    ["ratelimit", true],
    ["Rate_Limit", true],
    ["too many requests", true],
    ["Too Many Requests", true],
    ["request throttled", true],
    ["QPS limit", false],
    ["pageSize must be within limit 5..100", false],
    ["exceeds the limit", false],
    ["too many fields", false],
    ["generate failed", false],
    ["accurate", false],
    ["cluster not found", false],
  ])("%s -> %s", (message, expected) => {
    expect(isRateLimitMessage(message)).toBe(expected);
  });
});

describe("the refused key's codes and words", () => {
  it.each<{ status: number; envelope: { code: number; message: string }; code: string }>([
    // 1800 under any status: the status decides 401/403 first, the envelope the others.
    { status: 401, envelope: { code: 1800, message: "User hasn't authenticated" }, code: "auth_error" },
    { status: 400, envelope: { code: 1800, message: "User hasn't authenticated" }, code: "auth_error" },
    { status: 500, envelope: { code: 21119, message: "The apikey is illegal." }, code: "auth_error" },
  ])("HTTP $status with code $envelope.code -> $code", ({ status, envelope, code }) => {
    const err = errorForHttpStatus(status, envelope, ctx);
    expect(err.code).toBe(code);
    expect(err.permanent).toBe(true);
  });

  it.each<[message: string, auth: boolean]>([
    ["User hasn't authenticated", true],
    ["User hasn’t authenticated", true],
    ["user has not authenticated", true],
    ["request not authenticated", true],
    ["Unauthenticated", true],
    ["The apikey is illegal.", true],
    ["The token is illegal.", true],
    // Words about something else.
    ["authenticated users only may list backups", false],
    ["Org owner or project owner is needed", false],
    ["cluster not found", false],
  ])("isAuthMessage(%j) is %s", (message, auth) => {
    expect(isAuthMessage(message)).toBe(auth);
  });

  it("reads 1800's words in a success envelope without data as a refused key", () => {
    expect(errorForDatalessSuccess(0, "User hasn't authenticated", ctx).code).toBe("auth_error");
  });
});
