/**
 * Rate limiting keyed by endpoint. The upstream allows `rate` requests per second per user per
 * endpoint; one client (one credential) owns one limiter, so a key is effectively credential +
 * endpoint. Each key has its own queue and its own rate (`rateOf`: a replica's share of a key
 * that several replicas use), and a waiter of one key holds nothing another key needs.
 *
 * Grants are paced one per (1 s + margin) / rate, on slots, and grant n + rate comes a whole
 * window of 1 s + margin after request n left (below). That keeps every sliding window of
 * 1 s + margin at `rate` requests or fewer, which every window algorithm admits: fixed windows
 * lie inside sliding ones, and a bucket of `rate` tokens refilled at `rate` per second admits
 * anything a sliding second admits. A token bucket on our side would not: by allowing a burst
 * it lets more than `rate` requests into some sliding second, which a strict server refuses,
 * and each refusal pauses the endpoint and halves throughput. Even spacing also keeps requests
 * from queueing together in the connection pool and at the server, whose uneven delays are the
 * jitter the margin covers. It costs no throughput: no window allows more on average.
 *
 * A request is counted from when it leaves, not from its grant: the server counts it when it
 * arrives. The client takes the grant first (waiting for its endpoint's budget while holding no
 * connection slot), then a connection slot, and reports through the permit when the request is
 * written (`sent`). A request that waits after its grant (for a free slot while answers are
 * slow, or behind a busy event loop) leaves later than its grant; were it counted at its grant,
 * the next `rate` grants could all land within one second of it and the server would count
 * `rate` + 1. So grant n + rate also waits for a whole window after request n left, or until it
 * has (a request still waiting to leave may go at any moment). Late requests therefore never
 * leave faster than the budget, however they bunched while waiting: the `rate` entries of the
 * ring are `rate` chains whose consecutive sends are a window apart, so no window holds two
 * sends of one chain.
 *
 * What remains is the delay between leaving and being counted upstream. The margin covers the
 * network's share of it. A request can also wait at the server before it is counted (the
 * server's own queue, or a stall of its process): the earlier attempt at full budget on every
 * endpoint drew rate-limit answers that way, the server counting a late request in the same
 * second as a later one. Whenever the server counted it, it had by its answer. So a request
 * stays in the ring until it is answered (`release`), and the next request of its chain waits
 * a window after it left, or a second after its answer when that is later. An answer quicker
 * than the margin costs nothing; a slower one holds its chain until a second after it (at a
 * steady latency L above the margin, an endpoint sends `rate` per 1 s + L).
 *
 * A grant that comes less than a spacing late (its timer fired late on a busy event loop)
 * keeps its slot, so the lateness of one wake does not delay every later grant: paced from the
 * late grants themselves, each wake's lateness added up and cost part of the usable rate
 * (docs/performance.md, "Figures behind the code").
 */
import { abortReason, type SleepFn, sleep as timerSleep } from "./sleep.js";

/** The upstream counts its limit per second. */
export const RATE_WINDOW_MS = 1_000;

/**
 * Default margin added to the one-second window: request n + 20 leaves 1,100 ms after request
 * n, so the server still counts them in different seconds when request n takes up to 100 ms
 * longer to be counted than request n + 20 (network jitter, a stall at either end), while
 * 20 / 1.1 = 18.2 requests per second stay usable (90.9% of the budget). A smaller margin
 * still drew refusals from a strict sliding-window server (docs/performance.md, "Figures behind
 * the code").
 */
export const DEFAULT_RATE_LIMIT_MARGIN_MS = 100;

/** Limiter parameters; `now` and `sleep` are injectable so tests control time. */
interface RateLimiterOptions {
  /** Requests per window per key: a whole number >= 1. */
  readonly rate: number;
  /**
   * The rate of one key where it differs from `rate` (a whole number >= 1), read when the key
   * is first used: a replica's share of an endpoint's budget that several replicas spend.
   */
  readonly rateOf?: (key: string) => number;
  /** Added to the one-second window; default DEFAULT_RATE_LIMIT_MARGIN_MS. */
  readonly marginMs?: number;
  readonly now?: () => number;
  readonly sleep?: SleepFn;
}

/**
 * The sustained rate the limiter allows: `rate` per (1 s + margin). `--check-config` compares
 * scheduled calls against it, so a schedule that "fits" is one the limiter can actually carry.
 */
export function usableRate(rate: number, marginMs: number): number {
  return (rate * RATE_WINDOW_MS) / (RATE_WINDOW_MS + marginMs);
}

/**
 * One granted request. `sent()` says it leaves now (call it just before the request is
 * written); `release()` says its answer (or its failure) has come, or that it never left, and
 * counts it as leaving now if it never was sent (it may have left unseen). Each is idempotent;
 * a permit must be released, or grant n + rate waits for it for ever.
 */
export interface Permit {
  sent(): void;
  release(): void;
}

// A granted request that has not been answered yet: the window after it cannot start.
const PENDING = Number.POSITIVE_INFINITY;

/** A permit that can also be settled as sent and answered at once. */
interface RecordedPermit extends Permit {
  leftNow(): void;
}

/**
 * Which queue of its key a request waits in: every waiting foreground request is granted before
 * any background one, each lane in arrival order. A background request (a probe that measures
 * the service, not a poll that feeds the exporter's data) only takes a turn the others leave.
 */
export type Lane = "foreground" | "background";

interface Waiter {
  readonly lane: Lane;
  readonly resolve: (permit: RecordedPermit) => void;
  readonly reject: (reason: unknown) => void;
  readonly detach: () => void;
}

interface Log {
  /** This key's requests per window, and the pace that spreads them over it. */
  readonly rate: number;
  readonly spacingMs: number;
  /** The slot of the latest grant: the next one is due a spacing later. */
  last: number;
  /**
   * When each of the last `rate` granted requests left, or its answer less the margin when
   * that is later (PENDING: not answered yet), a ring whose `next` entry is the oldest: grant
   * n + rate waits until a window after request n left, and a second after its answer.
   */
  readonly sends: number[];
  next: number;
  pausedUntil: number;
  readonly queue: Waiter[];
  pumping: boolean;
  wake: AbortController | undefined;
}

/**
 * FIFO limiter: grants per key one per (1 s + margin) / rate, and never more than `rate` sent
 * in any window of 1 s + margin (counted from when each left, for permits). Waiters of a key
 * are served in arrival order within their lane, every foreground waiter before any background
 * one, and keys independently of each other; each key has at most one pending timer while
 * anyone waits, and none when idle.
 */
export class RateLimiter {
  private readonly windowMs: number;
  private readonly marginMs: number;
  private readonly rateOf: (key: string) => number;
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
    this.windowMs = RATE_WINDOW_MS + marginMs;
    this.marginMs = marginMs;
    const rate = opts.rate;
    this.rateOf = opts.rateOf ?? (() => rate);
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? timerSleep;
  }

  /**
   * Resolves when the caller may send one request on `key`, counted as leaving at once (and
   * answered at once). Rejects with the signal's reason if
   * `signal` aborts first (nothing is recorded).
   */
  async acquire(key: string, signal?: AbortSignal): Promise<void> {
    const permit = await this.grantRecorded(key, signal);
    permit.leftNow();
  }

  /**
   * Resolves with a permit when the caller may send one request on `key`: the caller reports
   * through it when the request really leaves, and releases it when done (see Permit). Rejects
   * with the signal's reason if `signal` aborts first (nothing is recorded). A `background`
   * request waits behind every foreground request of its key, however late they come.
   */
  grant(key: string, signal?: AbortSignal, lane: Lane = "foreground"): Promise<Permit> {
    return this.grantRecorded(key, signal, lane);
  }

  private grantRecorded(
    key: string,
    signal?: AbortSignal,
    lane: Lane = "foreground",
  ): Promise<RecordedPermit> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const log = this.logOf(key);
    if (log.queue.length === 0 && this.waitMs(log) === 0) return Promise.resolve(this.record(log));
    return new Promise<RecordedPermit>((resolve, reject) => {
      const onAbort = (): void => {
        const index = log.queue.indexOf(waiter);
        if (index >= 0) log.queue.splice(index, 1);
        if (log.queue.length === 0) log.wake?.abort();
        reject(signal ? abortReason(signal) : undefined);
      };
      const waiter: Waiter = {
        lane,
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      // A foreground waiter goes ahead of every background one already waiting.
      const behind = lane === "foreground" ? log.queue.findIndex((w) => w.lane === "background") : -1;
      if (behind < 0) log.queue.push(waiter);
      else log.queue.splice(behind, 0, waiter);
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
      const rate = this.rateOf(key);
      if (!(Number.isSafeInteger(rate) && rate >= 1)) {
        throw new RangeError(`rate of ${key} must be a whole number >= 1, got ${rate}`);
      }
      log = {
        rate,
        spacingMs: this.windowMs / rate,
        last: Number.NEGATIVE_INFINITY,
        pausedUntil: Number.NEGATIVE_INFINITY,
        sends: [],
        next: 0,
        queue: [],
        pumping: false,
        wake: undefined,
      };
      this.logs.set(key, log);
    }
    return log;
  }

  /** How long until `log` may grant (0: now; Infinity: when a pending request leaves). */
  private waitMs(log: Log): number {
    const now = this.now();
    if (now < log.last) {
      // The clock stepped back: move with it, or the key would wait out the step. A pause
      // moves too: it lasts what the server asked for, not that plus the step.
      const shift = log.last - now;
      log.last = now;
      if (Number.isFinite(log.pausedUntil) && log.pausedUntil > now) log.pausedUntil -= shift;
      for (let i = 0; i < log.sends.length; i++) {
        const sent = log.sends[i] as number;
        if (sent !== PENDING && sent > now) log.sends[i] = sent - shift;
      }
    }
    // The request granted `rate` grants ago: this grant waits a window after it left.
    const oldest = log.sends.length < log.rate ? Number.NEGATIVE_INFINITY : (log.sends[log.next] as number);
    return Math.max(0, log.pausedUntil - now, log.last + log.spacingMs - now, oldest + this.windowMs - now);
  }

  private record(log: Log): RecordedPermit {
    const now = this.now();
    // A grant less than a spacing late (a timer firing late on a busy loop) keeps its slot, so
    // lateness does not add up and the pace stays at the usable rate; the window after each
    // send (the ring) still bounds every second. Later than that (idle, or after a pause), the
    // pace starts again from now.
    const due = log.last + log.spacingMs;
    log.last = now - due < log.spacingMs ? due : now;
    let index: number;
    if (log.sends.length < log.rate) {
      index = log.sends.length;
      log.sends.push(PENDING);
    } else {
      index = log.next;
      log.sends[index] = PENDING;
      log.next = (log.next + 1) % log.rate;
    }
    // The entry is not reused before it is settled: the grant that would reuse it waits.
    let sentAt: number | undefined;
    let settled = false;
    const settle = (at: number): void => {
      settled = true;
      log.sends[index] = at;
      // A waiter held by this pending request can be served now (or at its new time).
      log.wake?.abort();
    };
    return {
      sent: () => {
        if (sentAt === undefined && !settled) sentAt = Math.max(now, this.now());
      },
      release: () => {
        if (settled) return;
        const answeredAt = Math.max(now, this.now());
        // A window (1 s + margin) after it left, and a second after its answer, by which the
        // server had counted it however long it waited there.
        settle(Math.max(sentAt ?? answeredAt, answeredAt - this.marginMs));
      },
      leftNow: () => {
        if (!settled) settle(Math.max(now, this.now()));
      },
    };
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
          const permit = this.record(log);
          log.queue.shift();
          head.detach();
          head.resolve(permit);
          continue;
        }
        const wake = new AbortController();
        log.wake = wake;
        try {
          if (Number.isFinite(waitMs)) {
            // Rounded up so that a waiter never wakes just before its slot frees.
            await this.sleep(Math.ceil(waitMs), wake.signal);
          } else {
            // Held by a request that has not left yet: no timer, it wakes when that one settles.
            await new Promise<void>((resolve) => {
              wake.signal.addEventListener("abort", () => resolve(), { once: true });
            });
          }
        } catch {
          // Woken early: every waiter left (the loop stops), or a pending request left.
        } finally {
          log.wake = undefined;
        }
      }
    } finally {
      log.pumping = false;
    }
  }
}
