/**
 * "Hold, then ask again", written once. What the service refused for a reason that may pass (a
 * cluster's plan, an endpoint version, a metric name, a request form) is neither asked every
 * cycle, which would repeat the refusal, nor given up on, which would miss the day it passes: it
 * is held for as long as the caller says, then asked once more. Pure state: the clock comes in
 * with each call.
 */

/**
 * One hold: free, or held until a time. Contract: `isHeld(now)` before that time, `due(now)`
 * from then on until `hold` again (refused once more) or `release` (answered, or the reason
 * went away). A later `hold` moves the time; only the first, from free, reports itself.
 */
export class Hold {
  #untilMs: number | null = null;
  #sinceMs: number | null = null;

  /** Holds from `nowMs` for `forMs`. True when it was free: the first refusal, the one to log. */
  hold(nowMs: number, forMs: number): boolean {
    return this.holdUntil(nowMs + forMs, nowMs);
  }

  /** Holds until `untilMs`, refused at `sinceMs` when the caller knows. True when it was free. */
  holdUntil(untilMs: number, sinceMs: number | null = null): boolean {
    const free = this.#untilMs === null;
    this.#untilMs = untilMs;
    this.#sinceMs = sinceMs;
    return free;
  }

  /** Whether it is not to be asked at `nowMs`. */
  isHeld(nowMs: number): boolean {
    return this.#untilMs !== null && nowMs < this.#untilMs;
  }

  /** Whether its time is up at `nowMs`: held once, and to be asked again now. */
  due(nowMs: number): boolean {
    return this.#untilMs !== null && nowMs >= this.#untilMs;
  }

  /** Frees it. True when it was held, due or not (the end of a hold, the one to log). */
  release(): boolean {
    const held = this.#untilMs !== null;
    this.#untilMs = null;
    this.#sinceMs = null;
    return held;
  }

  /** Whether it is held or due (not free). */
  get active(): boolean {
    return this.#untilMs !== null;
  }

  /** When it is asked again; null while free. */
  get untilMs(): number | null {
    return this.#untilMs;
  }

  /** When the refusal that holds it came, if the caller said; null while free. */
  get sinceMs(): number | null {
    return this.#sinceMs;
  }
}

/** What a {@link Holds} keeps of one key. */
interface Held<V> {
  readonly hold: Hold;
  value: V;
}

/**
 * Holds by key (a target, a query), each with what the caller keeps of it while held (the
 * refusal's message). A released key is forgotten, so the memory holds only keys held or due,
 * until `retain` drops those the caller no longer knows.
 */
export class Holds<V = true> {
  readonly #held = new Map<string, Held<V>>();

  /** Holds `key` from `nowMs` for `forMs`, keeping `value`. True when it was free. */
  hold(key: string, nowMs: number, forMs: number, value: V): boolean {
    return this.#set(key, value, (h) => h.hold(nowMs, forMs));
  }

  /** Holds `key` until `untilMs`, keeping `value`. True when it was free. */
  holdUntil(key: string, untilMs: number, value: V): boolean {
    return this.#set(key, value, (h) => h.holdUntil(untilMs));
  }

  /** Whether `key` is not to be asked at `nowMs`. */
  isHeld(key: string, nowMs: number): boolean {
    return this.#held.get(key)?.hold.isHeld(nowMs) ?? false;
  }

  /** Whether `key` was held and its time is up at `nowMs`. */
  due(key: string, nowMs: number): boolean {
    return this.#held.get(key)?.hold.due(nowMs) ?? false;
  }

  /** Whether `key` is held or due. */
  has(key: string): boolean {
    return this.#held.has(key);
  }

  /** What was kept of `key` and until when it is held; undefined while free. */
  get(key: string): { readonly value: V; readonly untilMs: number } | undefined {
    const found = this.#held.get(key);
    const untilMs = found?.hold.untilMs ?? null;
    return found === undefined || untilMs === null ? undefined : { value: found.value, untilMs };
  }

  /** Frees and forgets `key`. True when it was held, due or not. */
  release(key: string): boolean {
    return this.#held.delete(key);
  }

  /** Forgets every key `keep` says no to. */
  retain(keep: (key: string) => boolean): void {
    for (const key of this.#held.keys()) if (!keep(key)) this.#held.delete(key);
  }

  /** The keys held or due, in the order they were first held. */
  keys(): string[] {
    return [...this.#held.keys()];
  }

  /** Keys held or due (for tests and bounds). */
  get size(): number {
    return this.#held.size;
  }

  #set(key: string, value: V, hold: (h: Hold) => boolean): boolean {
    let found = this.#held.get(key);
    if (found === undefined) {
      found = { hold: new Hold(), value };
      this.#held.set(key, found);
    }
    found.value = value;
    return hold(found.hold);
  }
}
