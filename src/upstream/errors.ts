/**
 * The upstream client's one error class. Each error carries a stable `code` (a CallOutcome,
 * used as a label value by the exporter), the endpoint template it happened on, and the upstream details
 * that explain it. Messages are built from the endpoint template, HTTP status, API code and the
 * upstream's (redacted) message only: never from request headers, URLs with IDs, or bodies.
 */
import { ExporterError } from "../shared/errors.js";
import type { CallOutcome, EndpointTemplate } from "./types.js";

/** What every CloudError may carry besides its message. */
export interface CloudErrorInit {
  readonly endpoint: EndpointTemplate;
  readonly cause?: unknown;
  readonly httpStatus?: number;
  /** The envelope's numeric `code`, when the upstream sent one. */
  readonly apiCode?: number;
  /** From Retry-After (rate limiting only), already converted to milliseconds. */
  readonly retryAfterMs?: number;
  /** The server that could not be reached (`timeout`, `network_error`): scheme, host, port. */
  readonly origin?: string;
}

/** The codes an answer or a failed attempt carries: every CallOutcome except success. */
export type WireErrorCode = Exclude<CallOutcome, "success">;

/**
 * The codes a CloudError can carry: a wire code, or `not_offered`, which is what a call's failure
 * means for an endpoint a server may not offer (its declaration's `absent`), decided once its
 * attempts are over: never an attempt's outcome, so the `outcome` label values stay the wire's.
 */
export type CloudErrorCode = WireErrorCode | "not_offered";

/**
 * Codes for which retrying later will not help without a change on the user's side: a bad
 * credential (codes 80001, 80002, 21119, 1800; HTTP 401/403), an unknown resource (codes 80020,
 * 96018; HTTP 404), and a request the upstream rejects as invalid (code 80003: a parameter out
 * of its documented range, such as a List Import Jobs `pageSize` outside 5..100). The
 * scheduler backs off targets failing with these; they are never retried.
 */
const PERMANENT_CODES: ReadonlySet<CloudErrorCode> = new Set(["auth_error", "not_found", "invalid_request"]);

/**
 * A failure of an upstream call. The `code` says what kind: `api_error` (an envelope code not
 * covered by another kind), `invalid_request`, `auth_error`, `not_found`, `rate_limited`
 * (HTTP 429, a rate-limit code or message; `retryAfterMs` when the upstream said how long),
 * `http_error` (any other non-2xx; `httpStatus`), `timeout` (no complete answer within the
 * request timeout), `network_error` (DNS, refused, reset, TLS), `schema_error` (not JSON,
 * truncated, or not the endpoint's schema), `body_too_large` (past `maxResponseBytes`),
 * `aborted` (the caller's signal fired) and `not_offered` (the server does not offer an endpoint
 * declared `absent`; the answer that said so is its `cause`). `permanent` follows from the code.
 */
export class CloudError extends ExporterError {
  override readonly name = "CloudError";
  readonly code: CloudErrorCode;
  readonly endpoint: EndpointTemplate;
  readonly permanent: boolean;
  readonly httpStatus?: number;
  readonly apiCode?: number;
  readonly retryAfterMs?: number;
  readonly origin?: string;

  constructor(code: CloudErrorCode, message: string, init: CloudErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.endpoint = init.endpoint;
    this.permanent = PERMANENT_CODES.has(code);
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    if (init.apiCode !== undefined) this.apiCode = init.apiCode;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.origin !== undefined) this.origin = init.origin;
  }

  /** A log-safe view: the cause is left out because its shape is not under our control. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      endpoint: this.endpoint,
      permanent: this.permanent,
      ...(this.httpStatus === undefined ? {} : { httpStatus: this.httpStatus }),
      ...(this.apiCode === undefined ? {} : { apiCode: this.apiCode }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.origin === undefined ? {} : { origin: this.origin }),
    };
  }
}

/**
 * The outcome an attempt that failed with `err` is counted under: its code, or for `not_offered`
 * the code of the answer that said so (its cause), since the outcome label values are the wire's.
 */
export function attemptOutcome(err: CloudError): WireErrorCode {
  if (err.code !== "not_offered") return err.code;
  return err.cause instanceof CloudError ? attemptOutcome(err.cause) : "api_error";
}

/**
 * Replaces every occurrence of `secret` in `text`. Used on upstream-provided messages, which
 * could echo the credential back; a short secret is still replaced (empty ones are ignored).
 */
export function redactSecret(text: string, secret: string): string {
  return secret === "" ? text : text.split(secret).join("[REDACTED]");
}
