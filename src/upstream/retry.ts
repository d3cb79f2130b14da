/**
 * The retry policy, as a pure function: which failures are worth another attempt, and when.
 */
import type { CloudError } from "./errors.js";

/** Backoff parameters. `maxRetries` counts retries, not attempts (0 = never retry). */
export interface RetryPolicyOptions {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly maxRetries: number;
}

/**
 * True for failures that a later attempt may not repeat: network errors, timeouts, rate
 * limiting and HTTP 5xx. Auth, not-found, other API errors, schema errors, other 4xx, body
 * too large and aborts are final.
 */
export function isRetryable(error: CloudError): boolean {
  switch (error.code) {
    case "network_error":
    case "timeout":
    case "rate_limited":
      return true;
    case "http_error":
      return error.httpStatus !== undefined && error.httpStatus >= 500;
    default:
      return false;
  }
}

/**
 * Delay before the next attempt, or `null` for "do not retry".
 *
 * `attempt` is the zero-based index of the attempt that just failed. The delay is exponential
 * backoff with full jitter: uniform in [0, min(maxMs, baseMs * 2^attempt)), drawn from
 * `random` (a `Math.random`-like source in [0, 1)). For rate limiting, Retry-After is a
 * minimum; a Retry-After longer than `maxMs` gives up instead of holding the call that long
 * (the rate limiter still pauses the endpoint, so the next poll waits for it).
 */
export function retryDelayMs(
  attempt: number,
  error: CloudError,
  opts: RetryPolicyOptions,
  random: () => number,
): number | null {
  if (attempt >= opts.maxRetries || !isRetryable(error)) return null;
  const ceiling = Math.min(opts.maxMs, opts.baseMs * 2 ** attempt);
  const jittered = Math.floor(Math.min(Math.max(random(), 0), 1) * ceiling);
  const delay = Math.min(jittered, Math.max(ceiling - 1, 0));
  if (error.code === "rate_limited" && error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > opts.maxMs) return null;
    return Math.max(delay, error.retryAfterMs);
  }
  return delay;
}
