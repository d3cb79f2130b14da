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
    // A refusal that names the API is the one refusal rule's: never an endpoint not offered.
    ["a role refused, naming the API", err("api_error", "API key not allowed to list keys"), false],
    [
      "a role refused, with the 405 reason phrase in it",
      err("api_error", "The API key has no permission: method not allowed for this role"),
      false,
    ],
    [
      "a permission code, naming the API",
      err("api_error", "upstream code 96013: API not allowed", { apiCode: 96013 }),
      false,
    ],
    [
      "a plan refused, naming the API",
      err("api_error", "API not supported on the serverless cluster"),
      false,
    ],
    ["the 405 reason phrase alone, in a body", err("api_error", "upstream code 1: Method Not Allowed"), true],
    [
      "HTTP 405 whose body says not allowed",
      err("http_error", "HTTP 405: not allowed", { httpStatus: 405 }),
      true,
    ],
  ])("%s -> %s", (_name, error, unknown) => {
    expect(isUnknownEndpoint(error)).toBe(unknown);
  });
});
