import { describe, expect, it } from "vitest";
import { CloudError } from "./errors.js";
import { isRetryable, retryDelayMs } from "./retry.js";

const endpoint = "GET /v2/regions" as const;
const opts = { baseMs: 100, maxMs: 1_000, maxRetries: 5 };
const network = new CloudError("network_error", "n", { endpoint });

describe("retryDelayMs backoff", () => {
  it("grows exponentially and is capped at maxMs (random just below 1)", () => {
    const top = () => 0.999_999;
    const delays = [0, 1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, network, opts, top));
    expect(delays).toEqual([99, 199, 399, 799, 999]);
  });

  it.each([
    { attempt: 0, random: 0, expected: 0 },
    { attempt: 0, random: 0.5, expected: 50 },
    { attempt: 2, random: 0.25, expected: 100 },
    { attempt: 4, random: 0.5, expected: 500 },
  ])("full jitter: attempt $attempt, random $random -> $expected", ({ attempt, random, expected }) => {
    expect(retryDelayMs(attempt, network, opts, () => random)).toBe(expected);
  });

  it("stays within [0, ceiling) for any random value, even an out-of-range one", () => {
    for (const r of [0, 0.1, 0.5, 0.9, 0.999999, 1, 1.5, -0.5]) {
      const delay = retryDelayMs(3, network, opts, () => r);
      expect(delay).not.toBeNull();
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(800);
    }
  });

  it("gives up once maxRetries retries were made", () => {
    expect(retryDelayMs(4, network, opts, () => 0.5)).not.toBeNull();
    expect(retryDelayMs(5, network, opts, () => 0.5)).toBeNull();
    expect(retryDelayMs(0, network, { ...opts, maxRetries: 0 }, () => 0.5)).toBeNull();
  });
});

describe("retryDelayMs Retry-After", () => {
  it.each([
    { retryAfterMs: 700, random: 0.1, expected: 700 },
    { retryAfterMs: 10, random: 0.5, expected: 50 },
    { retryAfterMs: 1_000, random: 0, expected: 1_000 },
  ])(
    "is a minimum: Retry-After $retryAfterMs, random $random -> $expected",
    ({ retryAfterMs, random, expected }) => {
      const err = new CloudError("rate_limited", "r", { endpoint, retryAfterMs });
      expect(retryDelayMs(0, err, opts, () => random)).toBe(expected);
    },
  );

  it("gives up when Retry-After is longer than maxMs", () => {
    const err = new CloudError("rate_limited", "r", { endpoint, retryAfterMs: 1_001 });
    expect(retryDelayMs(0, err, opts, () => 0.5)).toBeNull();
  });
});

describe("isRetryable", () => {
  it.each<{ err: CloudError; retry: boolean }>([
    { err: network, retry: true },
    { err: new CloudError("timeout", "t", { endpoint }), retry: true },
    { err: new CloudError("rate_limited", "r", { endpoint, httpStatus: 429 }), retry: true },
    { err: new CloudError("http_error", "h", { endpoint, httpStatus: 500 }), retry: true },
    { err: new CloudError("http_error", "h", { endpoint, httpStatus: 503 }), retry: true },
    { err: new CloudError("http_error", "h", { endpoint, httpStatus: 400 }), retry: false },
    { err: new CloudError("http_error", "h", { endpoint, httpStatus: 409 }), retry: false },
    { err: new CloudError("auth_error", "a", { endpoint }), retry: false },
    { err: new CloudError("not_found", "n", { endpoint }), retry: false },
    { err: new CloudError("api_error", "a", { endpoint, apiCode: 80003 }), retry: false },
    { err: new CloudError("schema_error", "s", { endpoint }), retry: false },
    { err: new CloudError("body_too_large", "b", { endpoint }), retry: false },
    { err: new CloudError("aborted", "a", { endpoint }), retry: false },
  ])("$err.name (HTTP $err.httpStatus) -> $retry", ({ err, retry }) => {
    expect(isRetryable(err)).toBe(retry);
    expect(retryDelayMs(0, err, opts, () => 0.5) !== null).toBe(retry);
  });
});
