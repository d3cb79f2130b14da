/**
 * The one rule that tells what kind of refusal an upstream failure is, for every collector:
 * - `key_refused`: the key itself is invalid or expired. Every call of that key fails, so it is
 *   a failure of the target (and an outage to page on), never a missing role.
 * - `not_permitted`: the key is valid but lacks a role or a permission the call needs: a
 *   setting, not an outage.
 * - `plan_refused`: the call does not apply to the cluster's plan or kind (dedicated clusters
 *   only, enterprise plan only): asked again later, not a failure.
 * - `not_offered`: the server does not offer the endpoint at all, which its declaration says may
 *   happen (`absent`: the client's `not_offered` code, upstream/unknownEndpoint.ts): "not
 *   offered here", asked again a day later, neither a failure nor a refusal of the key. It is
 *   read first, because the answer that says so may carry a code that elsewhere refuses the key.
 * It keys on the reference's error-code list first (docs/design.md section 7), then on the HTTP
 * status (401 a refused key, 403 a refused permission), then on the message, for the answers the
 * error-code list does not cover. Anything else is no refusal: an ordinary failure.
 */
import { AUTH_API_CODES, isAuthMessage, NOT_FOUND_API_CODES } from "./errorMapping.js";
import { CloudError } from "./errors.js";

/** What kind of refusal a failure is. */
export type Refusal = "key_refused" | "not_permitted" | "plan_refused" | "not_offered";

/**
 * The error-code list's permission refusals: 96012-96016 (96013 "Org owner or project owner is
 * needed", 96016 "Please check your Apikey scope") and 96027 (project, Apikey scope); and 96041
 * "Only API keys with Org Owner permission can access this endpoint", which the live service
 * answers a key that is not an Org Owner's on the API key endpoints (in no error-code list: a
 * public account of the live API, docs/design.md section 7).
 */
const PERMISSION_API_CODES: ReadonlySet<number> = new Set([96012, 96013, 96014, 96015, 96016, 96027, 96041]);

/**
 * The error-code list's plan refusals: 96021 "Free cluster does not support this operation.", 96022
 * "Serverless cluster does not support this operation.", 96028 "Feature only supported for
 * enterprise plan clusters."
 */
const PLAN_API_CODES: ReadonlySet<number> = new Set([96021, 96022, 96028]);

const PERMISSION_MESSAGE =
  /\bpermission|\bforbidden\b|\bnot (?:allowed|authori[sz]ed)\b|\baccess denied\b|\bapi ?key scope\b|\b(?:owner|admin) is needed\b/i;
const PLAN_MESSAGE =
  /\bdedicated\b|\bserverless\b|\bfree (?:cluster|plan|tier)\b|\benterprise plan\b|\bnot (?:supported|available) (?:for|on|in) (?:this|the) (?:cluster|plan)\b/i;

/**
 * The kind of refusal `err` is, or undefined when it is an ordinary failure. `words` is the
 * message the rule reads (`err.message` unless a caller has taken words out that it has already
 * read for another meaning).
 */
export function refusalOf(err: unknown, words?: string): Refusal | undefined {
  if (!(err instanceof CloudError)) return undefined;
  if (err.code === "not_offered") return "not_offered";
  const code = err.apiCode;
  if (code !== undefined) {
    if (AUTH_API_CODES.has(code)) return "key_refused";
    if (PERMISSION_API_CODES.has(code)) return "not_permitted";
    if (PLAN_API_CODES.has(code)) return "plan_refused";
    // "Cluster not exist or you don't have permission" (80020) is about the cluster, not the role.
    if (NOT_FOUND_API_CODES.has(code)) return undefined;
  }
  if (err.httpStatus === 401) return "key_refused";
  if (err.httpStatus === 403) return "not_permitted";
  if (err.code === "not_found") return undefined;
  const message = words ?? err.message;
  if (isAuthMessage(message)) return "key_refused";
  if (err.code !== "api_error" && err.code !== "auth_error" && err.code !== "invalid_request")
    return undefined;
  if (PERMISSION_MESSAGE.test(message)) return "not_permitted";
  if (PLAN_MESSAGE.test(message)) return "plan_refused";
  return undefined;
}
