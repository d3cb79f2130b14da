/**
 * Token buckets keyed by endpoint. The upstream allows `rate` requests per second per user
 * per endpoint; one client (one credential) owns one limiter, so a key is effectively
 * credential + endpoint.
 */
import { abortReason, type SleepFn, sleep as timerSleep } from "./sleep.js";

/** Limiter parameters; `now` and `sleep` are injectable so tests control time. */
export interface RateLimiterOptions {
  /** Tokens per second (> 0). */
  readonly rate: number;
  /** Bucket capacity; default max(1, floor(rate / 2)). */
  readonly burst?: number;
  readonly now?: () => number;
  readonly sleep?: SleepFn;
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
  readonly detach: () => void;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
  pausedUntil: number;
  readonly queue: Waiter[];
  pumping: boolean;
  wake: AbortController | undefined;
}

/**
 * Default burst: half a second of budget. The upstream counts `rate` per second; keeping the
 * burst below that leaves slack for network jitter bunching our requests at its end.
 */
export function defaultBurst(rate: number): number {
  return Math.max(1, Math.floor(rate / 2));
}

/**
 * FIFO token-bucket limiter. Waiters of a key are served strictly in arrival order; each
 * bucket has at most one pending timer while anyone waits, and none when idle.
 */
export class RateLimiter {
  private readonly rate: number;
  private readonly burst: number;
  private readonly now: () => number;
  private readonly sleep: SleepFn;
  private readonly buckets = new Map<string, Bucket>();

  constructor(opts: RateLimiterOptions) {
    if (!(Number.isFinite(opts.rate) && opts.rate > 0)) {
      throw new RangeError(`rate must be a positive number, got ${opts.rate}`);
    }
    const burst = opts.burst ?? defaultBurst(opts.rate);
    if (!(Number.isFinite(burst) && burst >= 1)) throw new RangeError(`burst must be >= 1, got ${burst}`);
    this.rate = opts.rate;
    this.burst = burst;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? timerSleep;
  }

  /**
   * Resolves when a token of `key` has been taken for the caller. Rejects with the signal's
   * reason if `signal` aborts first (the caller then holds no token).
   */
  acquire(key: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const bucket = this.bucketOf(key);
    this.refill(bucket);
    if (bucket.queue.length === 0 && this.now() >= bucket.pausedUntil && bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = bucket.queue.indexOf(waiter);
        if (index >= 0) bucket.queue.splice(index, 1);
        if (bucket.queue.length === 0) bucket.wake?.abort();
        reject(signal ? abortReason(signal) : undefined);
      };
      const waiter: Waiter = {
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      bucket.queue.push(waiter);
      void this.pump(bucket);
    });
  }

  /**
   * After a rate-limit answer: empty the bucket and serve nobody on `key` for `ms`
   * milliseconds (a longer pause already in force is kept).
   */
  penalize(key: string, ms: number): void {
    const bucket = this.bucketOf(key);
    this.refill(bucket);
    bucket.tokens = 0;
    bucket.pausedUntil = Math.max(bucket.pausedUntil, this.now() + Math.max(0, ms));
  }

  private bucketOf(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = {
        tokens: this.burst,
        updatedAt: this.now(),
        pausedUntil: Number.NEGATIVE_INFINITY,
        queue: [],
        pumping: false,
        wake: undefined,
      };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  private refill(bucket: Bucket): void {
    const now = this.now();
    // No tokens accrue during a pause; a clock stepping back adds none either.
    const from = Math.max(bucket.updatedAt, bucket.pausedUntil);
    const elapsed = Math.max(0, now - from);
    bucket.tokens = Math.min(this.burst, bucket.tokens + (elapsed * this.rate) / 1000);
    bucket.updatedAt = Math.max(bucket.updatedAt, now);
  }

  private async pump(bucket: Bucket): Promise<void> {
    if (bucket.pumping) return;
    bucket.pumping = true;
    try {
      for (;;) {
        const head = bucket.queue[0];
        if (head === undefined) return;
        this.refill(bucket);
        const now = this.now();
        let waitMs: number;
        if (now < bucket.pausedUntil) {
          waitMs = bucket.pausedUntil - now;
        } else if (bucket.tokens >= 1) {
          bucket.tokens -= 1;
          bucket.queue.shift();
          head.detach();
          head.resolve();
          continue;
        } else {
          // Rounded up so that a waiter never wakes just before its token exists.
          waitMs = Math.ceil(((1 - bucket.tokens) * 1000) / this.rate);
        }
        const wake = new AbortController();
        bucket.wake = wake;
        try {
          await this.sleep(Math.max(1, waitMs), wake.signal);
        } catch {
          // Woken early because every waiter left; the loop sees the empty queue and stops.
        } finally {
          bucket.wake = undefined;
        }
      }
    } finally {
      bucket.pumping = false;
    }
  }
}
