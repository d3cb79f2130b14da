/**
 * The service's rate limit per key (the simulator uses API key + endpoint template), counted
 * the way the operator chooses. The spec says "20 requests per second per user per endpoint"
 * without saying how the second is counted, so the simulator offers each reading:
 *
 * - `sliding` (default, the strictest): at most `rate` admitted requests in any window of one
 *   second, i.e. in (now - 1 s, now];
 * - `fixed`: at most `rate` per calendar second [k s, (k + 1) s), so 2 x rate can pass around
 *   a boundary;
 * - `token_bucket`: a bucket of `rate` tokens refilled at `rate` per second.
 *
 * Refused requests are not counted. Time comes from an injected clock, so tests need no waiting.
 */

/** How the simulator counts its per-second limit. */
export type RateLimitMode = "fixed" | "sliding" | "token_bucket";

/** Every mode, for validation and help texts. */
export const RATE_LIMIT_MODES: readonly RateLimitMode[] = ["fixed", "sliding", "token_bucket"];

/** Admits or refuses one request per call. */
export interface SimRateLimiter {
  /** Counts one request for `key`; false when the limit is reached (the request must be refused). */
  take(key: string): boolean;
}

const WINDOW_MS = 1000;

/** One state per key, created on first use; subclasses decide admission from it. */
abstract class KeyedLimiter<S> implements SimRateLimiter {
  readonly #states = new Map<string, S>();
  constructor(
    protected readonly rate: number,
    private readonly now: () => number,
  ) {}

  take(key: string): boolean {
    const now = this.now();
    let state = this.#states.get(key);
    if (state === undefined) {
      state = this.initial(now);
      this.#states.set(key, state);
    }
    return this.admit(state, now);
  }

  protected abstract initial(now: number): S;
  /** Counts the request in `state` and says whether it is admitted. */
  protected abstract admit(state: S, now: number): boolean;
}

interface Bucket {
  tokens: number;
  lastMs: number;
}

class TokenBucketLimiter extends KeyedLimiter<Bucket> {
  protected initial(now: number): Bucket {
    return { tokens: this.rate, lastMs: now };
  }

  protected admit(bucket: Bucket, now: number): boolean {
    // A clock that steps back (an injected one) must not mint tokens.
    const elapsed = Math.max(0, now - bucket.lastMs);
    bucket.tokens = Math.min(this.rate, bucket.tokens + (elapsed * this.rate) / WINDOW_MS);
    bucket.lastMs = Math.max(bucket.lastMs, now);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

interface Window {
  start: number;
  count: number;
}

class FixedWindowLimiter extends KeyedLimiter<Window> {
  protected initial(): Window {
    return { start: Number.NEGATIVE_INFINITY, count: 0 };
  }

  protected admit(window: Window, now: number): boolean {
    const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    // A clock that steps back stays in the later window: it must not reopen a spent one.
    if (start > window.start) {
      window.start = start;
      window.count = 0;
    }
    if (window.count >= this.rate) return false;
    window.count++;
    return true;
  }
}

interface Log {
  /** Admission times of the last `rate` admitted requests, oldest at `next` (a ring buffer). */
  readonly admitted: number[];
  next: number;
}

class SlidingWindowLimiter extends KeyedLimiter<Log> {
  // A fractional rate admits as many as fit whole in the window.
  readonly #size = Math.max(1, Math.floor(this.rate));

  protected initial(): Log {
    return { admitted: [], next: 0 };
  }

  protected admit(log: Log, now: number): boolean {
    if (log.admitted.length < this.#size) {
      log.admitted.push(now);
      return true;
    }
    // Full unless the oldest of the last `rate` admissions has left (now - 1 s, now].
    if (now - (log.admitted[log.next] as number) < WINDOW_MS) return false;
    log.admitted[log.next] = now;
    log.next = (log.next + 1) % this.#size;
    return true;
  }
}

const unlimited: SimRateLimiter = { take: () => true };

/** A limiter of `ratePerSecond` per key counted by `mode`; `ratePerSecond` 0 disables limiting. */
export function createRateLimiter(
  mode: RateLimitMode,
  ratePerSecond: number,
  now: () => number,
): SimRateLimiter {
  if (ratePerSecond <= 0) return unlimited;
  switch (mode) {
    case "fixed":
      return new FixedWindowLimiter(ratePerSecond, now);
    case "sliding":
      return new SlidingWindowLimiter(ratePerSecond, now);
    case "token_bucket":
      return new TokenBucketLimiter(ratePerSecond, now);
  }
}
