import { describe, expect, it } from "vitest";
import { CloudError, type CloudErrorCode, redactSecret } from "./errors.js";

const endpoint = "GET /v2/clusters/{id}" as const;

describe("CloudError", () => {
  it.each<{ code: CloudErrorCode; permanent: boolean }>([
    { code: "api_error", permanent: false },
    { code: "invalid_request", permanent: true },
    { code: "auth_error", permanent: true },
    { code: "not_found", permanent: true },
    { code: "rate_limited", permanent: false },
    { code: "http_error", permanent: false },
    { code: "timeout", permanent: false },
    { code: "network_error", permanent: false },
    { code: "schema_error", permanent: false },
    { code: "body_too_large", permanent: false },
    { code: "aborted", permanent: false },
  ])("$code has permanent=$permanent", ({ code, permanent }) => {
    const cause = new Error("root");
    const err = new CloudError(code, "boom", { endpoint, cause });
    expect(err).toBeInstanceOf(CloudError);
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe(code);
    expect(err.permanent).toBe(permanent);
    expect(err.name).toBe("CloudError");
    expect(err.message).toBe("boom");
    expect(err.cause).toBe(cause);
    expect(err.endpoint).toBe(endpoint);
  });

  it("serializes to JSON without the cause and with only the details it has", () => {
    const err = new CloudError("rate_limited", "slow", {
      endpoint,
      cause: { secret: "do-not-log" },
      httpStatus: 429,
      retryAfterMs: 1500,
    });
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: "CloudError",
      code: "rate_limited",
      message: "slow",
      endpoint,
      permanent: false,
      httpStatus: 429,
      retryAfterMs: 1500,
    });
  });

  it("leaves optional details undefined when not given", () => {
    const err = new CloudError("api_error", "x", { endpoint });
    expect(err.httpStatus).toBeUndefined();
    expect(err.apiCode).toBeUndefined();
    expect(err.retryAfterMs).toBeUndefined();
    expect("cause" in err).toBe(false);
  });
});

describe("redactSecret", () => {
  it.each([
    {
      text: "key sk-1 is illegal, sk-1!",
      secret: "sk-1",
      expected: "key [REDACTED] is illegal, [REDACTED]!",
    },
    { text: "nothing here", secret: "sk-1", expected: "nothing here" },
    { text: "empty secret keeps text", secret: "", expected: "empty secret keeps text" },
  ])("redacts $secret in '$text'", ({ text, secret, expected }) => {
    expect(redactSecret(text, secret)).toBe(expected);
  });
});
