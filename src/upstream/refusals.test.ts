import { describe, expect, it } from "vitest";
import { CloudError, type CloudErrorCode } from "./errors.js";
import { type Refusal, refusalOf } from "./refusals.js";
import { DATA_PLANE_ENDPOINT, ENDPOINT } from "./types.js";
import { notOfferedError } from "./unknownEndpoint.js";

const err = (code: CloudErrorCode, message: string, init: { apiCode?: number; httpStatus?: number } = {}) =>
  new CloudError(code, message, { endpoint: "GET /v2/backups", ...init });

/** An endpoint declared as one a server may not offer, with the codes that say so on its path. */
const ABSENT = { apiCodes: [80001, 80002] };

/** `e` as the client throws it for an endpoint declared `absent`. */
const asThrown = (e: CloudError) => notOfferedError(e, ABSENT);
/** `e` as the client throws it for an endpoint not declared `absent`. */
const asThrownPresent = (e: CloudError) => notOfferedError(e, undefined);

describe("refusalOf: the reference's error codes first, then the HTTP status, then the message", () => {
  it.each<{ what: string; e: unknown; want: Refusal | undefined }>([
    // The error-code list (error-codes-v2), whatever the status or the message says.
    {
      what: "80001 invalid token",
      e: err("auth_error", "Invalid token", { apiCode: 80001 }),
      want: "key_refused",
    },
    {
      what: "80002 invalid token",
      e: err("auth_error", "token expired", { apiCode: 80002 }),
      want: "key_refused",
    },
    {
      what: "21119 illegal API key (the import sample)",
      e: err("auth_error", "The apikey is illegal.", { apiCode: 21119 }),
      want: "key_refused",
    },
    // 1800 "User hasn't authenticated": the newer reference pages' failure sample, on the control
    // plane and the data plane alike.
    ...(
      [
        ENDPOINT.describeCluster,
        ENDPOINT.listClusters,
        ENDPOINT.listOnDemandClusters,
        ENDPOINT.listAlertRules,
        ENDPOINT.describeOnDemandCompute,
        ENDPOINT.listPrivateEndpoints,
        ENDPOINT.listStorageIntegrations,
        DATA_PLANE_ENDPOINT.listCollections,
        DATA_PLANE_ENDPOINT.getLoadState,
        DATA_PLANE_ENDPOINT.describeIndex,
      ] as const
    ).map((endpoint) => ({
      what: `1800 not authenticated on ${endpoint}`,
      e: new CloudError("auth_error", "User hasn't authenticated", { endpoint, apiCode: 1800 }),
      want: "key_refused" as const,
    })),
    {
      what: "1800 under HTTP 403: the code wins over the status",
      e: err("auth_error", "User hasn't authenticated", { apiCode: 1800, httpStatus: 403 }),
      want: "key_refused",
    },
    {
      what: "1800's words under an undocumented code",
      e: err("api_error", "upstream code 65535: User hasn't authenticated", { apiCode: 65535 }),
      want: "key_refused",
    },
    ...[96012, 96014, 96015].map((apiCode) => ({
      what: `${apiCode} permission`,
      e: err("api_error", "permission", { apiCode }),
      want: "not_permitted" as const,
    })),
    {
      what: "96013 owner needed",
      e: err("api_error", "Org owner or project owner is needed", { apiCode: 96013 }),
      want: "not_permitted",
    },
    {
      what: "96016 API key scope",
      e: err("api_error", "Please check your Apikey scope", { apiCode: 96016 }),
      want: "not_permitted",
    },
    {
      what: "96027 project scope, even on HTTP 401",
      e: err("auth_error", "Please check your Apikey scope", { apiCode: 96027, httpStatus: 401 }),
      want: "not_permitted",
    },
    {
      what: "96041 Org Owner only (the live service's API key endpoints)",
      e: err("api_error", "Only API keys with Org Owner permission can access this endpoint", {
        apiCode: 96041,
      }),
      want: "not_permitted",
    },
    {
      what: "96021 free cluster",
      e: err("api_error", "Free cluster does not support this operation.", { apiCode: 96021 }),
      want: "plan_refused",
    },
    {
      what: "96022 serverless cluster",
      e: err("api_error", "Serverless cluster does not support this operation.", { apiCode: 96022 }),
      want: "plan_refused",
    },
    {
      what: "96028 enterprise plan only",
      e: err("api_error", "Feature only supported for enterprise plan clusters.", { apiCode: 96028 }),
      want: "plan_refused",
    },
    {
      what: "80020 cluster not found or no permission: about the cluster, not a role",
      e: err("not_found", "Cluster not exist or you don't have permission.", { apiCode: 80020 }),
      want: undefined,
    },
    {
      what: "96018 cluster not found",
      e: err("not_found", "cluster not found", { apiCode: 96018 }),
      want: undefined,
    },
    // The HTTP status, for codes the error-code list does not hold.
    { what: "HTTP 401", e: err("auth_error", "HTTP 401", { httpStatus: 401 }), want: "key_refused" },
    {
      what: "HTTP 403 with an undocumented code",
      e: err("auth_error", "HTTP 403: upstream code 80037: Permission denied", {
        httpStatus: 403,
        apiCode: 80037,
      }),
      want: "not_permitted",
    },
    {
      what: "HTTP 403 without a body",
      e: err("auth_error", "HTTP 403", { httpStatus: 403 }),
      want: "not_permitted",
    },
    { what: "HTTP 404", e: err("not_found", "HTTP 404", { httpStatus: 404 }), want: undefined },
    // The message, last.
    {
      what: "a token message with code 0 (Describe Cluster's failure sample)",
      e: err("auth_error", "upstream code 0 without data: The token is illegal.", { apiCode: 0 }),
      want: "key_refused",
    },
    {
      what: "a permission message in a 200 envelope",
      e: err("api_error", "upstream code 80099: you have no permission for backup", { apiCode: 80099 }),
      want: "not_permitted",
    },
    {
      what: "a dedicated-only message under an undocumented code",
      e: err("api_error", "upstream code 80036: Backup is only supported for Dedicated clusters.", {
        apiCode: 80036,
      }),
      want: "plan_refused",
    },
    {
      what: "a serverless refusal as an invalid request",
      e: err("invalid_request", "upstream code 80003: not supported for serverless cluster"),
      want: "plan_refused",
    },
    {
      what: "a plain API error",
      e: err("api_error", "upstream code 96024: Failed query instance metrics."),
      want: undefined,
    },
    {
      what: "a timeout whose message says permission",
      e: err("timeout", "permission timed out"),
      want: undefined,
    },
    { what: "a rate limit", e: err("rate_limited", "HTTP 429", { httpStatus: 429 }), want: undefined },
    { what: "not a CloudError", e: new Error("permission denied"), want: undefined },
    // An endpoint a server may not offer (its declaration's `absent`): the client's code first,
    // whatever the answer's code or status says elsewhere.
    {
      what: "not offered: HTTP 404 on an endpoint declared absent",
      e: asThrown(err("not_found", "HTTP 404: Not Found", { httpStatus: 404 })),
      want: "not_offered",
    },
    {
      what: "not offered: HTTP 405 on an endpoint declared absent",
      e: asThrown(err("http_error", "HTTP 405", { httpStatus: 405 })),
      want: "not_offered",
    },
    {
      what: "not offered: a message saying the path is unknown",
      e: asThrown(err("api_error", "upstream code 65535: unknown path /v1/x", { apiCode: 65535 })),
      want: "not_offered",
    },
    ...[80001, 80002].map((apiCode) => ({
      what: `not offered: ${apiCode} on an endpoint declaring it (elsewhere a refused key)`,
      e: asThrown(err("auth_error", "Token not found or unauthorized", { apiCode })),
      want: "not_offered" as const,
    })),
    {
      what: "80002 on an endpoint not declared absent: still a refused key",
      e: asThrownPresent(err("auth_error", "Token not found or unauthorized", { apiCode: 80002 })),
      want: "key_refused",
    },
    {
      what: "HTTP 404 on an endpoint not declared absent: an ordinary failure",
      e: asThrownPresent(err("not_found", "HTTP 404", { httpStatus: 404 })),
      want: undefined,
    },
    {
      what: "1800 on an endpoint declared absent (not one of its codes): a refused key",
      e: asThrown(err("auth_error", "User hasn't authenticated", { apiCode: 1800 })),
      want: "key_refused",
    },
    {
      what: "96013 on an endpoint declared absent: not permitted",
      e: asThrown(err("api_error", "Org owner or project owner is needed", { apiCode: 96013 })),
      want: "not_permitted",
    },
    {
      what: "80020 cluster not found under HTTP 404 on an endpoint declared absent: about the cluster",
      e: asThrown(err("not_found", "Cluster not exist", { apiCode: 80020, httpStatus: 404 })),
      want: undefined,
    },
    {
      what: "a server error on an endpoint declared absent: no refusal",
      e: asThrown(err("http_error", "HTTP 503", { httpStatus: 503 })),
      want: undefined,
    },
    {
      what: "a rate limit on an endpoint declared absent: no refusal",
      e: asThrown(err("rate_limited", "HTTP 429", { httpStatus: 429 })),
      want: undefined,
    },
    {
      what: "a timeout on an endpoint declared absent: no refusal",
      e: asThrown(err("timeout", "no answer")),
      want: undefined,
    },
  ])("$what -> $want", ({ e, want }) => {
    expect(refusalOf(e)).toBe(want);
  });
});

describe("notOfferedError: the client's not_offered, for an endpoint declared absent", () => {
  it("keeps the answer's status, code and words, with the answer as its cause", () => {
    const wire = new CloudError("auth_error", "GET /v2/backups: upstream code 80002: Token not found", {
      endpoint: "GET /v2/backups",
      apiCode: 80002,
      httpStatus: 200,
    });
    const thrown = notOfferedError(wire, ABSENT);
    expect(thrown).toMatchObject({
      code: "not_offered",
      endpoint: "GET /v2/backups",
      apiCode: 80002,
      httpStatus: 200,
      message: "GET /v2/backups: not offered by this server: upstream code 80002: Token not found",
      permanent: false,
    });
    expect(thrown.cause).toBe(wire);
    // Said once: an error already not offered is thrown as it is.
    expect(notOfferedError(thrown, ABSENT)).toBe(thrown);
  });
});
