import { describe, expect, it } from "vitest";
import {
  AbortedError,
  ApiError,
  AuthError,
  BodyTooLargeError,
  CloudError,
  HttpError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  redactSecret,
  SchemaError,
  TimeoutError,
} from "./errors.js";

const endpoint = "GET /v2/clusters/{id}" as const;

describe("CloudError classes", () => {
  it.each([
    { Cls: ApiError, code: "api_error", permanent: false },
    { Cls: InvalidRequestError, code: "invalid_request", permanent: true },
    { Cls: AuthError, code: "auth_error", permanent: true },
    { Cls: NotFoundError, code: "not_found", permanent: true },
    { Cls: RateLimitError, code: "rate_limited", permanent: false },
    { Cls: HttpError, code: "http_error", permanent: false },
    { Cls: TimeoutError, code: "timeout", permanent: false },
    { Cls: NetworkError, code: "network_error", permanent: false },
    { Cls: SchemaError, code: "schema_error", permanent: false },
    { Cls: BodyTooLargeError, code: "body_too_large", permanent: false },
    { Cls: AbortedError, code: "aborted", permanent: false },
  ])("$Cls.name has code $code and permanent=$permanent", ({ Cls, code, permanent }) => {
    const cause = new Error("root");
    const err = new Cls("boom", { endpoint, cause });
    expect(err).toBeInstanceOf(CloudError);
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe(code);
    expect(err.permanent).toBe(permanent);
    expect(err.name).toBe(Cls.name);
    expect(err.cause).toBe(cause);
    expect(err.endpoint).toBe(endpoint);
  });

  it("serializes to JSON without the cause and with only the details it has", () => {
    const err = new RateLimitError("slow", {
      endpoint,
      cause: { secret: "do-not-log" },
      httpStatus: 429,
      retryAfterMs: 1500,
    });
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: "RateLimitError",
      code: "rate_limited",
      message: "slow",
      endpoint,
      permanent: false,
      httpStatus: 429,
      retryAfterMs: 1500,
    });
  });

  it("leaves optional details undefined when not given", () => {
    const err = new ApiError("x", { endpoint });
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
