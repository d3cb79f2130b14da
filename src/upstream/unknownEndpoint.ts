/**
 * Recognises an upstream answer that refuses an endpoint itself (it does not exist here, or no
 * longer): the signal to fall back from a v2 endpoint to its v1 predecessor, or to stop using a
 * v1 endpoint the service has removed. The service documents no code for this, so it is read
 * from HTTP 404 and 405, and from a message that says the API, endpoint, path or method is
 * unknown, unsupported or removed.
 */

import { NOT_FOUND_API_CODES } from "./errorMapping.js";
import { CloudError } from "./errors.js";

const STATUSES: ReadonlySet<number> = new Set([404, 405]);

const THING = "(?:api|endpoint|path|route|url|uri|method|interface)";
const SAYS_UNKNOWN = new RegExp(
  [
    String.raw`\b(?:unknown|unsupported|invalid|no such)\s+${THING}\b`,
    String.raw`\b${THING}\b[^.]*\b(?:not (?:found|exist|supported|allowed)|does ?n[o']t exist|unsupported|deprecated|removed|retired)\b`,
    String.raw`\bmethod not allowed\b`,
  ].join("|"),
  "i",
);

/** True when `message` (the upstream's own words) says the endpoint itself is unknown. */
export function saysUnknownEndpoint(message: string): boolean {
  return SAYS_UNKNOWN.test(message);
}

/**
 * True when `err` is a CloudError refusing the endpoint itself: HTTP 404 or 405 (unless its code
 * says the cluster was not found, which another endpoint would say too), or an error message in
 * which the upstream says the endpoint is unknown. An auth failure, a rate limit, a timeout or a
 * server error never counts: they say nothing about whether the endpoint exists.
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
  return saysUnknownEndpoint(text);
}
