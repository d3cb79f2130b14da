/**
 * Maps what the upstream says (envelope code + message, HTTP status) to an error class. The
 * numeric codes are the ones the real service publishes; the answer above the rate limit is
 * undocumented, so HTTP 429 and any message about rates/limits/too many requests count as
 * rate limiting.
 */
import {
  ApiError,
  AuthError,
  type CloudError,
  type CloudErrorInit,
  HttpError,
  NotFoundError,
  RateLimitError,
} from "./errors.js";
import type { EndpointTemplate } from "./types.js";

/** Envelope codes meaning "invalid token" / "the apikey is illegal". */
export const AUTH_API_CODES: ReadonlySet<number> = new Set([80001, 80002, 21119]);
/** Envelope codes meaning "cluster not found or no permission" / "cluster not found". */
export const NOT_FOUND_API_CODES: ReadonlySet<number> = new Set([80020, 96018]);

// Word boundaries keep "generate" or "unlimited" from reading as rate limiting.
const RATE_LIMIT_MESSAGE = /\brate\b|ratelimit|\blimit|too many/i;
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

/**
 * The error for a non-success envelope `code`. Specific codes win over the message, so an
 * auth failure whose text happens to mention a limit is still an auth failure.
 */
export function errorForApiCode(apiCode: number, message: string, ctx: MappingContext): CloudError {
  const text = `${ctx.endpoint}: upstream code ${apiCode}: ${cleanMessage(message, ctx)}`;
  const init = initOf(ctx, apiCode);
  if (AUTH_API_CODES.has(apiCode)) return new AuthError(text, init);
  if (NOT_FOUND_API_CODES.has(apiCode)) return new NotFoundError(text, init);
  if (isRateLimitMessage(message)) return new RateLimitError(text, init);
  return new ApiError(text, init);
}

/**
 * The error for a non-2xx HTTP answer. `envelope` is the body's `{code, message}` when it
 * had one. The status decides first; for other statuses a recognizable envelope (auth,
 * not-found, rate-limit) refines it, and anything else is an HttpError.
 */
export function errorForHttpStatus(
  status: number,
  envelope: { readonly code?: number; readonly message?: string } | undefined,
  ctx: MappingContext,
): CloudError {
  const full: MappingContext = { ...ctx, httpStatus: status };
  const upstream =
    envelope?.code === undefined
      ? ""
      : `: upstream code ${envelope.code}: ${cleanMessage(envelope.message ?? "", full)}`;
  const text = `${ctx.endpoint}: HTTP ${status}${upstream}`;
  const init = initOf(full, envelope?.code);
  if (status === 429) return new RateLimitError(text, init);
  if (status === 401 || status === 403) return new AuthError(text, init);
  if (status === 404) return new NotFoundError(text, init);
  if (envelope?.code !== undefined) {
    const byCode = errorForApiCode(envelope.code, envelope.message ?? "", full);
    if (byCode.code !== "api_error") return byCode;
  } else if (envelope?.message !== undefined && isRateLimitMessage(envelope.message)) {
    return new RateLimitError(text, init);
  }
  return new HttpError(text, init);
}
