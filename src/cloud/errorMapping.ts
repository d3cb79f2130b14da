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

type ErrorClass = new (message: string, init: CloudErrorInit) => CloudError;

// Specific codes win over wording, so an auth failure whose text mentions a limit stays one.
function classForApiCode(apiCode: number, message: string): ErrorClass | undefined {
  if (AUTH_API_CODES.has(apiCode)) return AuthError;
  if (NOT_FOUND_API_CODES.has(apiCode)) return NotFoundError;
  if (isRateLimitMessage(message)) return RateLimitError;
  return undefined;
}

/** The error for a non-success envelope `code` (ApiError unless a specific class applies). */
export function errorForApiCode(apiCode: number, message: string, ctx: MappingContext): CloudError {
  const Cls = classForApiCode(apiCode, message) ?? ApiError;
  return new Cls(
    `${ctx.endpoint}: upstream code ${apiCode}: ${cleanMessage(message, ctx)}`,
    initOf(ctx, apiCode),
  );
}

function classForHttpStatus(
  status: number,
  envelope: { readonly code?: number; readonly message?: string } | undefined,
): ErrorClass {
  if (status === 429) return RateLimitError;
  if (status === 401 || status === 403) return AuthError;
  if (status === 404) return NotFoundError;
  if (envelope?.code !== undefined)
    return classForApiCode(envelope.code, envelope.message ?? "") ?? HttpError;
  if (envelope?.message !== undefined && isRateLimitMessage(envelope.message)) return RateLimitError;
  return HttpError;
}

/**
 * The error for a non-2xx HTTP answer. `envelope` is the body's `{code, message}` when it
 * had one. The status decides first (429, 401/403, 404); for other statuses a recognizable
 * envelope (auth, not-found, rate-limit) refines it, and anything else is an HttpError.
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
  const Cls = classForHttpStatus(status, envelope);
  return new Cls(`${ctx.endpoint}: HTTP ${status}${upstream}`, initOf(full, envelope?.code));
}
