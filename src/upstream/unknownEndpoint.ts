/**
 * Recognises an upstream answer that refuses an endpoint itself (it does not exist here, or no
 * longer): the signal to fall back from a v2 endpoint to its v1 predecessor, or to stop using a
 * v1 endpoint the service has removed. The service documents no code for this, so it is read
 * from HTTP 404 and 405, and from a message that says the API, endpoint, path or method is
 * unknown, unsupported or removed.
 */

import type { Absent } from "./endpoints/define.js";
import { NOT_FOUND_API_CODES } from "./errorMapping.js";
import { CloudError } from "./errors.js";
import { refusalOf } from "./refusals.js";

const STATUSES: ReadonlySet<number> = new Set([404, 405]);

/** What a `not_offered` error says after its endpoint, before the answer's own words. */
const NOT_OFFERED = "not offered by this server";

const THING = "(?:api|endpoint|path|route|url|uri|method|interface)";
const SAYS_UNKNOWN = new RegExp(
  [
    String.raw`\b(?:unknown|unsupported|invalid|no such)\s+${THING}\b`,
    String.raw`\b${THING}\b[^.]*\b(?:not (?:found|exist|supported|allowed)|does ?n[o']t exist|unsupported|deprecated|removed|retired)\b`,
    String.raw`\bmethod not allowed\b`,
  ].join("|"),
  "i",
);

/** The HTTP reason phrase of 405: it names the method, never a role the key lacks. */
const METHOD_NOT_ALLOWED = /\bmethod not allowed\b/gi;

/** True when `message` (the upstream's own words) says the endpoint itself is unknown. */
export function saysUnknownEndpoint(message: string): boolean {
  return SAYS_UNKNOWN.test(message);
}

/**
 * True when `err` is a CloudError refusing the endpoint itself: HTTP 404 or 405 (unless its code
 * says the cluster was not found, which another endpoint would say too), or an error message in
 * which the upstream says the endpoint is unknown. An auth failure, a rate limit, a timeout or a
 * server error never counts: they say nothing about whether the endpoint exists; nor does a
 * message that refuses the key, its role or the cluster's plan (upstream/refusals.ts), even
 * where it names the API.
 */
export function isUnknownEndpoint(err: unknown): boolean {
  if (!(err instanceof CloudError)) return false;
  if (err.code === "auth_error" || err.code === "rate_limited" || err.code === "aborted") return false;
  if (err.apiCode !== undefined && NOT_FOUND_API_CODES.has(err.apiCode)) return false;
  if (err.httpStatus !== undefined && STATUSES.has(err.httpStatus)) return true;
  if (
    err.code !== "api_error" &&
    err.code !== "not_found" &&
    err.code !== "http_error" &&
    err.code !== "invalid_request"
  )
    return false;
  const prefix = `${err.endpoint}: `;
  const text = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
  // "API key not allowed to list keys" names the API too, but refuses the key or its role: the
  // one refusal rule decides first, so that a refusal is never held as an endpoint not offered.
  return saysUnknownEndpoint(text) && refusalOf(err, text.replace(METHOD_NOT_ALLOWED, "")) === undefined;
}

/**
 * `err` as the client throws it for an endpoint whose declaration says a server may not offer it
 * (`absent`): when the answer says the server does not (an unknown endpoint, or one of
 * `absent.apiCodes`), a `not_offered` CloudError with the answer's status, code and words, and
 * the answer as its cause; else `err` itself. The one refusal rule reads the code alone, so no
 * caller ever reads the answer again.
 */
export function notOfferedError(err: CloudError, absent: Absent | undefined): CloudError {
  if (absent === undefined || err.code === "not_offered") return err;
  const coded = err.apiCode !== undefined && absent.apiCodes.includes(err.apiCode);
  if (!coded && !isUnknownEndpoint(err)) return err;
  const { endpoint } = err;
  const prefix = `${endpoint}: `;
  const said = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
  return new CloudError("not_offered", `${endpoint}: ${NOT_OFFERED}: ${said}`, {
    endpoint,
    cause: err,
    ...(err.httpStatus === undefined ? {} : { httpStatus: err.httpStatus }),
    ...(err.apiCode === undefined ? {} : { apiCode: err.apiCode }),
  });
}

/**
 * The one `not_offered` error of an endpoint declared with other paths (`absent.alsoAt`) when
 * none of them is offered: the first refusal's status, code and words (its answer the cause),
 * its message naming every path asked, so that a reader sees what was tried.
 */
export function notOfferedAtAny(paths: readonly string[], refusals: readonly CloudError[]): CloudError {
  const [first] = refusals;
  if (first === undefined) throw new RangeError("no refusal to report");
  const { endpoint } = first;
  const prefix = `${endpoint}: ${NOT_OFFERED}: `;
  const said = first.message.startsWith(prefix) ? first.message.slice(prefix.length) : first.message;
  return new CloudError("not_offered", `${endpoint}: ${NOT_OFFERED} at ${paths.join(" or ")}: ${said}`, {
    endpoint,
    cause: first.cause ?? first,
    ...(first.httpStatus === undefined ? {} : { httpStatus: first.httpStatus }),
    ...(first.apiCode === undefined ? {} : { apiCode: first.apiCode }),
  });
}
