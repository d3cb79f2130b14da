import { describe, expect, it } from "vitest";
import { errorForApiCode, errorForHttpStatus, isRateLimitMessage } from "./errorMapping.js";

const ctx = { endpoint: "GET /v2/clusters/{id}" } as const;

describe("errorForApiCode", () => {
  it.each([
    { apiCode: 80001, message: "Invalid token", code: "auth_error" },
    { apiCode: 80002, message: "Invalid token", code: "auth_error" },
    { apiCode: 21119, message: "The apikey is illegal.", code: "auth_error" },
    { apiCode: 80020, message: "Cluster not exist or you don't have permission.", code: "not_found" },
    { apiCode: 96018, message: "cluster not found", code: "not_found" },
    { apiCode: 80003, message: "pageSize should be between 5 and 100", code: "api_error" },
    { apiCode: 90000, message: "Rate limit exceeded", code: "rate_limited" },
    { apiCode: 90001, message: "request limit reached", code: "rate_limited" },
    { apiCode: 90002, message: "Too many requests, try later", code: "rate_limited" },
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
    ["QPS limit", true],
    ["too many requests", true],
    ["generate failed", false],
    ["accurate", false],
    ["cluster not found", false],
  ])("%s -> %s", (message, expected) => {
    expect(isRateLimitMessage(message)).toBe(expected);
  });
});
