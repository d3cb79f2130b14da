/**
 * Error classes of the upstream client. Each carries a stable `code` (a CallOutcome, used as a
 * label value by the exporter), the endpoint template it happened on, and the upstream details
 * that explain it. Messages are built from the endpoint template, HTTP status, API code and the
 * upstream's (redacted) message only: never from request headers, URLs with IDs, or bodies.
 */
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
}

/**
 * Base class. `permanent` is true when retrying later will not help without a change on the
 * user's side (bad credential, unknown resource): the scheduler backs off those targets.
 */
export abstract class CloudError extends Error {
  readonly code: CallOutcome;
  readonly endpoint: EndpointTemplate;
  readonly permanent: boolean;
  readonly httpStatus?: number;
  readonly apiCode?: number;
  readonly retryAfterMs?: number;

  protected constructor(code: CallOutcome, message: string, init: CloudErrorInit, permanent = false) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.endpoint = init.endpoint;
    this.permanent = permanent;
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    if (init.apiCode !== undefined) this.apiCode = init.apiCode;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
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
    };
  }
}

/** The envelope carried a non-success code that is not one of the specific classes below. */
export class ApiError extends CloudError {
  override readonly name = "ApiError";
  constructor(message: string, init: CloudErrorInit) {
    super("api_error", message, init);
  }
}

/**
 * The upstream rejected the request itself as invalid (code 80003: a parameter out of its
 * documented range, such as a List Import Jobs `pageSize` outside 5..100). The same request
 * fails the same way until the configuration changes, so it is permanent and never retried.
 */
export class InvalidRequestError extends CloudError {
  override readonly name = "InvalidRequestError";
  constructor(message: string, init: CloudErrorInit) {
    super("invalid_request", message, init, true);
  }
}

/** Invalid or illegal API key (codes 80001, 80002, 21119; HTTP 401/403). */
export class AuthError extends CloudError {
  override readonly name = "AuthError";
  constructor(message: string, init: CloudErrorInit) {
    super("auth_error", message, init, true);
  }
}

/** The resource does not exist or is not visible to this key (codes 80020, 96018; HTTP 404). */
export class NotFoundError extends CloudError {
  override readonly name = "NotFoundError";
  constructor(message: string, init: CloudErrorInit) {
    super("not_found", message, init, true);
  }
}

/** The upstream refused for rate limiting (HTTP 429, a rate-limit code, or a rate-limit message). */
export class RateLimitError extends CloudError {
  override readonly name = "RateLimitError";
  constructor(message: string, init: CloudErrorInit) {
    super("rate_limited", message, init);
  }
}

/** Any other non-2xx HTTP answer. */
export class HttpError extends CloudError {
  override readonly name = "HttpError";
  constructor(message: string, init: CloudErrorInit) {
    super("http_error", message, init);
  }
}

/** No complete answer within the request timeout. */
export class TimeoutError extends CloudError {
  override readonly name = "TimeoutError";
  constructor(message: string, init: CloudErrorInit) {
    super("timeout", message, init);
  }
}

/** Connection-level failure (DNS, refused, reset, TLS). */
export class NetworkError extends CloudError {
  override readonly name = "NetworkError";
  constructor(message: string, init: CloudErrorInit) {
    super("network_error", message, init);
  }
}

/** The body was not JSON, was truncated, or did not match the endpoint's schema. */
export class SchemaError extends CloudError {
  override readonly name = "SchemaError";
  constructor(message: string, init: CloudErrorInit) {
    super("schema_error", message, init);
  }
}

/** The body exceeded `maxResponseBytes`; reading stopped there. */
export class BodyTooLargeError extends CloudError {
  override readonly name = "BodyTooLargeError";
  constructor(message: string, init: CloudErrorInit) {
    super("body_too_large", message, init);
  }
}

/** The caller's AbortSignal fired (shutdown, reload). */
export class AbortedError extends CloudError {
  override readonly name = "AbortedError";
  constructor(message: string, init: CloudErrorInit) {
    super("aborted", message, init);
  }
}

/**
 * Replaces every occurrence of `secret` in `text`. Used on upstream-provided messages, which
 * could echo the credential back; a short secret is still replaced (empty ones are ignored).
 */
export function redactSecret(text: string, secret: string): string {
  return secret === "" ? text : text.split(secret).join("[REDACTED]");
}
