/**
 * Maps what the upstream says (envelope code + message, HTTP status) to an error code. The
 * numeric codes are the ones the real service publishes. The answer above the rate limit is
 * undocumented, so rate limiting is recognised by HTTP 429, by the engine's rate-limit code,
 * and by a message that says "rate limit" or "too many requests": never by the bare word
 * "limit", which validation errors use too ("pageSize must be within limit 5..100") and which
 * must surface as the configuration problem it is instead of being retried as a throttle.
 */
import { CloudError, type CloudErrorCode, type CloudErrorInit } from "./errors.js";
import type { EndpointTemplate } from "./types.js";

/**
 * Envelope codes meaning the key itself was refused: 80001/80002 "invalid token", 21119 "The
 * apikey is illegal.", and 1800 "User hasn't authenticated", which the newer reference pages
 * answer on the control plane (API keys, private endpoints, on-demand compute, volumes, storage
 * integrations) and on the data plane alike. 1800 and 21119 are in no error-code list.
 */
export const AUTH_API_CODES: ReadonlySet<number> = new Set([80001, 80002, 21119, 1800]);
/** Envelope codes meaning "cluster not found or no permission" / "cluster not found". */
export const NOT_FOUND_API_CODES: ReadonlySet<number> = new Set([80020, 96018]);

/**
 * Envelope codes meaning "rate limit exceeded". 8 is the engine's (Milvus) rate-limit error,
 * which the managed service passes through; the control plane documents none of its own.
 */
const RATE_LIMIT_API_CODES: ReadonlySet<number> = new Set([8]);
/** Envelope codes meaning "the request is invalid" (80003: a parameter outside its range). */
const INVALID_REQUEST_API_CODES: ReadonlySet<number> = new Set([80003]);

// "rate limit", "rate-limited", "ratelimit", "too many requests", "throttled": each names the
// throttle itself. Word boundaries keep "accurate" or "generate" from matching.
const RATE_LIMIT_MESSAGE = /\brate[\s_-]?limit|too many requests|\bthrottl/i;
const MAX_UPSTREAM_MESSAGE_CHARS = 300;

/** Everything the mappers need besides the upstream's own words. */
export interface MappingContext {
  readonly endpoint: EndpointTemplate;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;
  /** Applied to upstream messages before they become part of an error message. */
  readonly redact?: (text: string) => string;
}

/** True when an upstream message reads as a rate-limit refusal. */
export function isRateLimitMessage(message: string): boolean {
  return RATE_LIMIT_MESSAGE.test(message);
}

function cleanMessage(message: string, ctx: MappingContext): string {
  const redacted = ctx.redact ? ctx.redact(message) : message;
  return redacted.length > MAX_UPSTREAM_MESSAGE_CHARS
    ? `${redacted.slice(0, MAX_UPSTREAM_MESSAGE_CHARS)}...`
    : redacted;
}

function initOf(ctx: MappingContext, apiCode?: number): CloudErrorInit {
  return {
    endpoint: ctx.endpoint,
    ...(ctx.httpStatus === undefined ? {} : { httpStatus: ctx.httpStatus }),
    ...(ctx.retryAfterMs === undefined ? {} : { retryAfterMs: ctx.retryAfterMs }),
    ...(apiCode === undefined ? {} : { apiCode }),
  };
}

// Specific codes win over wording, so an auth failure or a validation error whose text
// mentions a rate limit stays what its code says.
function codeForApiCode(apiCode: number, message: string): CloudErrorCode | undefined {
  if (AUTH_API_CODES.has(apiCode)) return "auth_error";
  if (NOT_FOUND_API_CODES.has(apiCode)) return "not_found";
  if (INVALID_REQUEST_API_CODES.has(apiCode)) return "invalid_request";
  if (RATE_LIMIT_API_CODES.has(apiCode)) return "rate_limited";
  if (isRateLimitMessage(message)) return "rate_limited";
  return undefined;
}

// Said to whoever reads the error: the fix is on the user's side, and waiting will not help.
const INVALID_REQUEST_HINT = " (the request was rejected as invalid: check the configuration; not retried)";

function hintFor(code: CloudErrorCode): string {
  return code === "invalid_request" ? INVALID_REQUEST_HINT : "";
}

/** The error for a non-success envelope `code` (`api_error` unless a specific kind applies). */
export function errorForApiCode(apiCode: number, message: string, ctx: MappingContext): CloudError {
  const code = codeForApiCode(apiCode, message) ?? "api_error";
  return new CloudError(
    code,
    `${ctx.endpoint}: upstream code ${apiCode}: ${cleanMessage(message, ctx)}${hintFor(code)}`,
    initOf(ctx, apiCode),
  );
}

// "The token is illegal.", "invalid token", "The apikey is illegal.", "API key expired",
// "unauthorized", "User hasn't authenticated" (1800's words, for a server that sends them under
// another code): the credential itself was refused.
const AUTH_MESSAGE =
  /\b(?:token|api[\s_-]?key)\b.*\b(?:illegal|invalid|expired|revoked|missing|required|not valid)\b|\b(?:illegal|invalid|expired)\s+(?:token|api[\s_-]?key)\b|\bunauthori[sz]ed\b|\bunauthenticated\b|\b(?:has ?n['’]?t|has not|not) (?:been )?authenticated\b/i;

/** True when an upstream message says the credential was refused. */
export function isAuthMessage(message: string): boolean {
  return AUTH_MESSAGE.test(message);
}

/**
 * The error for a success `code` (0, 200) that came without data but with a message: an
 * `auth_error` when the message says the token or key was refused (permanent: the key must
 * change), a `rate_limited` when it says so, else an `api_error` carrying the message.
 */
export function errorForDatalessSuccess(apiCode: number, message: string, ctx: MappingContext): CloudError {
  const code: CloudErrorCode = isAuthMessage(message)
    ? "auth_error"
    : isRateLimitMessage(message)
      ? "rate_limited"
      : "api_error";
  return new CloudError(
    code,
    `${ctx.endpoint}: upstream code ${apiCode} without data: ${cleanMessage(message, ctx)}`,
    initOf(ctx, apiCode),
  );
}

function codeForHttpStatus(
  status: number,
  envelope: { readonly code?: number; readonly message?: string } | undefined,
): CloudErrorCode {
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth_error";
  if (status === 404) return "not_found";
  if (envelope?.code !== undefined)
    return codeForApiCode(envelope.code, envelope.message ?? "") ?? "http_error";
  if (envelope?.message !== undefined && isRateLimitMessage(envelope.message)) return "rate_limited";
  return "http_error";
}

/**
 * The error for a non-2xx HTTP answer. `envelope` is the body's `{code, message}` when it
 * had one. The status decides first (429, 401/403, 404); for other statuses a recognizable
 * envelope (auth, not-found, invalid request, rate-limit) refines it, and anything else is an
 * `http_error`.
 */
export function errorForHttpStatus(
  status: number,
  envelope: { readonly code?: number; readonly message?: string } | undefined,
  ctx: MappingContext,
): CloudError {
  const full: MappingContext = { ...ctx, httpStatus: status };
  const upstream =
    envelope?.code === undefined
      ? envelope?.message === undefined
        ? ""
        : `: ${cleanMessage(envelope.message, full)}`
      : `: upstream code ${envelope.code}: ${cleanMessage(envelope.message ?? "", full)}`;
  const code = codeForHttpStatus(status, envelope);
  return new CloudError(
    code,
    `${ctx.endpoint}: HTTP ${status}${upstream}${hintFor(code)}`,
    initOf(full, envelope?.code),
  );
}
