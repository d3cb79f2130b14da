import { describe, expect, it } from "vitest";
import { CloudError } from "../upstream/errors.js";
import { describeError, isPermanent } from "./errors.js";

const endpoint = "GET /v2/clusters/{id}" as const;

describe("isPermanent", () => {
  it.each([
    { what: "an auth failure", err: new CloudError("auth_error", "x", { endpoint }), expected: true },
    { what: "an unknown cluster", err: new CloudError("not_found", "x", { endpoint }), expected: true },
    { what: "an invalid request", err: new CloudError("invalid_request", "x", { endpoint }), expected: true },
    { what: "a timeout", err: new CloudError("timeout", "x", { endpoint }), expected: false },
    { what: "rate limiting", err: new CloudError("rate_limited", "x", { endpoint }), expected: false },
    {
      what: "another error that claims to be permanent",
      err: Object.assign(new Error("x"), { permanent: true }),
      expected: false,
    },
    { what: "a thrown string", err: "permanent", expected: false },
  ])("$what: $expected", ({ err, expected }) => {
    expect(isPermanent(err)).toBe(expected);
  });
});

describe("describeError", () => {
  it.each([
    {
      err: new CloudError("timeout", "GET x: slow", { endpoint }),
      expected: { code: "timeout", message: "GET x: slow" },
    },
    { err: new TypeError("bad"), expected: { code: "internal", message: "bad" } },
    { err: 42, expected: { code: "internal", message: "42" } },
  ])("summarises $expected.code", ({ err, expected }) => {
    expect(describeError(err)).toEqual(expected);
  });
});
