import { describe, expect, it } from "vitest";
import { CloudError, type CloudErrorCode } from "./errors.js";
import { isUnknownEndpoint, saysUnknownEndpoint } from "./unknownEndpoint.js";

const ENDPOINT = "POST /v2/vectordb/jobs/import/list";

function err(code: CloudErrorCode, message: string, init: { httpStatus?: number; apiCode?: number } = {}) {
  return new CloudError(code, `${ENDPOINT}: ${message}`, { endpoint: ENDPOINT, ...init });
}

describe("saysUnknownEndpoint", () => {
  it.each<[message: string, unknown: boolean]>([
    ["unknown api path", true],
    ["Unsupported endpoint", true],
    ["no such route: /v2/vectordb/jobs/import/list", true],
    ["the API has been removed", true],
    ["this interface is deprecated", true],
    ["Method Not Allowed", true],
    ["path does not exist", true],
    ["The apikey is illegal.", false],
    ["Cluster not exist or you don't have permission.", false],
    ["pageSize must be within limit 5..100", false],
    ["import job not found", false],
  ])("%j -> %s", (message, unknown) => {
    expect(saysUnknownEndpoint(message)).toBe(unknown);
  });
});

describe("isUnknownEndpoint", () => {
  it.each<[name: string, error: unknown, unknown: boolean]>([
    [
      "HTTP 404",
      err("not_found", "HTTP 404: upstream code 404: Not Found", { httpStatus: 404, apiCode: 404 }),
      true,
    ],
    ["HTTP 404 without a body", err("not_found", "HTTP 404", { httpStatus: 404 }), true],
    ["HTTP 405", err("http_error", "HTTP 405", { httpStatus: 405 }), true],
    ["a code saying so", err("api_error", "upstream code 90001: unknown api", { apiCode: 90001 }), true],
    [
      "cluster not found over HTTP 404",
      err("not_found", "HTTP 404: upstream code 80020: x", { httpStatus: 404, apiCode: 80020 }),
      false,
    ],
    [
      "cluster not found (96018)",
      err("not_found", "upstream code 96018: cluster not found", { apiCode: 96018 }),
      false,
    ],
    ["a refused key", err("auth_error", "HTTP 401", { httpStatus: 401 }), false],
    ["a rate limit", err("rate_limited", "HTTP 429", { httpStatus: 429 }), false],
    ["a server error", err("http_error", "HTTP 503", { httpStatus: 503 }), false],
    ["a timeout", err("timeout", "timed out"), false],
    // The endpoint template in the message names a path, which must not count as the upstream's words.
    ["an api_error whose only 'path' is the template", err("api_error", "upstream code 5: removed"), false],
    ["not a CloudError", new Error("HTTP 404"), false],
  ])("%s -> %s", (_name, error, unknown) => {
    expect(isUnknownEndpoint(error)).toBe(unknown);
  });
});
