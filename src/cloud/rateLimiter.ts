/**
 * Rate limiting keyed by endpoint. The upstream allows `rate` requests per second per user per
 * endpoint; one client (one credential) owns one limiter, so a key is effectively credential +
 * endpoint.
 *
 * Grants are spaced at least (1 s + margin) / rate apart. That alone keeps every sliding window
 * of 1 s + margin at `rate` grants or fewer (grant n and grant n + rate are a whole window
 * apart), which every window algorithm admits: fixed windows lie inside sliding ones, and a
 * bucket of `rate` tokens refilled at `rate` per second admits anything a sliding second
 * admits. A token bucket on our side would not: by allowing a burst it lets more than `rate`
 * requests into some sliding second, which a strict server refuses, and each refusal pauses the
 * endpoint and halves throughput. Even spacing also keeps requests from queueing together in
 * the connection pool and at the server, whose uneven delays are the jitter the margin covers.
 * It costs no throughput: no window allows more on average.
 */
import { abortReason, type SleepFn, sleep as timerSleep } from "./sleep.js";

/** The upstream counts its limit per second. */
export const RATE_WINDOW_MS = 1_000;

/**
 * Default margin added to the one-second window: enough for requests leaving 40 ms apart to
 * arrive in the same order across ordinary network jitter, while 20 / 1.04 = 19.2 requests per
 * second stay usable (95% of the budget and more).
 */
export const DEFAULT_RATE_LIMIT_MARGIN_MS = 40;

/** Limiter parameters; `now` and `sleep` are injectable so tests control time. */
export interface RateLimiterOptions {
  /** Requests per window per key: a whole number >= 1. */
  readonly rate: number;
  /** Added to the one-second window; default DEFAULT_RATE_LIMIT_MARGIN_MS. */
  readonly marginMs?: number;
  readonly now?: () => number;
  readonly sleep?: SleepFn;
}

/**
 * The sustained rate the limiter allows: `rate` per (1 s + margin). `--check-config` compares
 * planned calls against it, so a plan that "fits" is one the limiter can actually carry.
 */
export function usableRate(rate: number, marginMs: number): number {
  return (rate * RATE_WINDOW_MS) / (RATE_WINDOW_MS + marginMs);
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
  readonly detach: () => void;
}

interface Log {
  /** The latest grant: the next one is due a spacing later. */
  last: number;
  pausedUntil: number;
  readonly queue: Waiter[];
  pumping: boolean;
  wake: AbortController | undefined;
}

/**
 * FIFO limiter: grants per key at least (1 s + margin) / rate apart, so never more than `rate`
 * in any window of 1 s + margin. Waiters of a key are served strictly in arrival order; each
 * key has at most one pending timer while anyone waits, and none when idle.
 */
export class RateLimiter {
  private readonly spacingMs: number;
  private readonly now: () => number;
  private readonly sleep: SleepFn;
  private readonly logs = new Map<string, Log>();

  constructor(opts: RateLimiterOptions) {
    if (!(Number.isSafeInteger(opts.rate) && opts.rate >= 1)) {
      throw new RangeError(`rate must be a whole number >= 1, got ${opts.rate}`);
    }
    const marginMs = opts.marginMs ?? DEFAULT_RATE_LIMIT_MARGIN_MS;
    if (!(Number.isFinite(marginMs) && marginMs >= 0)) {
      throw new RangeError(`marginMs must be >= 0, got ${marginMs}`);
    }
    this.spacingMs = (RATE_WINDOW_MS + marginMs) / opts.rate;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? timerSleep;
  }

  /**
   * Resolves when the caller may send one request on `key` (the grant is recorded as sent
   * now). Rejects with the signal's reason if `signal` aborts first (nothing is recorded).
   */
  acquire(key: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const log = this.logOf(key);
    if (log.queue.length === 0 && this.waitMs(log) === 0) {
      this.record(log);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = log.queue.indexOf(waiter);
        if (index >= 0) log.queue.splice(index, 1);
        if (log.queue.length === 0) log.wake?.abort();
        reject(signal ? abortReason(signal) : undefined);
      };
      const waiter: Waiter = {
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      log.queue.push(waiter);
      void this.pump(log);
    });
  }

  /**
   * After a rate-limit answer: serve nobody on `key` for `ms` milliseconds (a longer pause
   * already in force is kept). The log is kept, so after the pause the key runs at full pace
   * again at once rather than ramping up.
   */
  penalize(key: string, ms: number): void {
    const log = this.logOf(key);
    // A waiter already asleep re-checks when it wakes, and then sleeps out the pause.
    log.pausedUntil = Math.max(log.pausedUntil, this.now() + Math.max(0, ms));
  }

  private logOf(key: string): Log {
    let log = this.logs.get(key);
    if (!log) {
      log = {
        last: Number.NEGATIVE_INFINITY,
        pausedUntil: Number.NEGATIVE_INFINITY,
        queue: [],
        pumping: false,
        wake: undefined,
      };
      this.logs.set(key, log);
    }
    return log;
  }

  /** How long until `log` may grant (0: now). */
  private waitMs(log: Log): number {
    const now = this.now();
    if (now < log.last) {
      // The clock stepped back: move with it, or the key would wait out the step. A pause
      // moves too: it lasts what the server asked for, not that plus the step.
      const shift = log.last - now;
      log.last = now;
      if (Number.isFinite(log.pausedUntil) && log.pausedUntil > now) log.pausedUntil -= shift;
    }
    return Math.max(0, log.pausedUntil - now, log.last + this.spacingMs - now);
  }

  private record(log: Log): void {
    log.last = this.now();
  }

  private async pump(log: Log): Promise<void> {
    if (log.pumping) return;
    log.pumping = true;
    try {
      for (;;) {
        const head = log.queue[0];
        if (head === undefined) return;
        const waitMs = this.waitMs(log);
        if (waitMs === 0) {
          this.record(log);
          log.queue.shift();
          head.detach();
          head.resolve();
          continue;
        }
        const wake = new AbortController();
        log.wake = wake;
        try {
          // Rounded up so that a waiter never wakes just before its slot frees.
          await this.sleep(Math.ceil(waitMs), wake.signal);
        } catch {
          // Woken early because every waiter left; the loop sees the empty queue and stops.
        } finally {
          log.wake = undefined;
        }
      }
    } finally {
      log.pumping = false;
    }
  }
}
