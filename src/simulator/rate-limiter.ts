/**
 * Token buckets per key (the simulator uses API key + endpoint template), as the service
 * limits each user per endpoint. Time comes from an injected clock, so tests need no waiting.
 */

interface Bucket {
  tokens: number;
  lastMs: number;
}

/** A limiter with capacity `ratePerSecond` refilled at `ratePerSecond` tokens per second. */
export class TokenBucketLimiter {
  readonly #rate: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  /** `ratePerSecond` 0 disables limiting. */
  constructor(ratePerSecond: number, now: () => number) {
    this.#rate = ratePerSecond;
    this.#now = now;
  }

  /** Takes one token for `key`; false when the bucket is empty (the request must be refused). */
  take(key: string): boolean {
    if (this.#rate <= 0) return true;
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.#rate, lastMs: now };
      this.#buckets.set(key, bucket);
    }
    // A clock that steps back (an injected one) must not mint tokens.
    const elapsed = Math.max(0, now - bucket.lastMs);
    bucket.tokens = Math.min(this.#rate, bucket.tokens + (elapsed * this.#rate) / 1000);
    bucket.lastMs = Math.max(bucket.lastMs, now);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
