/**
 * Work that answers someone waiting (a /metrics answer being written) goes before work nobody
 * waits on (an upstream answer's parsing and mapping, the next request of a poll, a publish).
 * The event loop is one thread, and two things delayed scrapes at 1,000 clusters polled with
 * `rate_limit: 1000` (the figures: docs/performance.md, "Figures behind the code"):
 *
 * - a scrape's request waited behind a batch of poll answers: the loop ran each answer that had
 *   arrived, back to back, before it read the new connection;
 * - a scrape being written yields at every 1 MiB, and each yield let more answers run.
 *
 * So background work asks `turn()` before each step. It goes at once while nothing is answered
 * and its slice of the loop (`sliceMs`) is not used up; past the slice it waits for a turn of
 * the event loop (where a waiting scrape's request is read); while a scrape is answered it
 * waits until the answer is written.
 *
 * Priority is bounded: a foreground span counts for at most `maxHoldMs` (a client reading slowly
 * over a long network holds the body, not the loop), and a waiting step goes at most `maxHoldMs`
 * after it asked even while spans overlap without a gap (clients scraping back to back in
 * parallel), so no number of scrapes starves the polling; waiting steps go one per turn of the
 * loop.
 */
export class Foreground {
  private active = 0;
  /** Steps waiting, oldest first, with when each asked. */
  private readonly waiters: { readonly wake: () => void; readonly sinceMs: number }[] = [];
  private sliceStartMs = Number.NEGATIVE_INFINITY;
  private scheduled = false;
  /** Set while spans hold the oldest waiting step: it ends that step's hold. */
  private holdTimer: NodeJS.Timeout | undefined;
  private readonly maxHoldMs: number;
  private readonly sliceMs: number;
  private readonly now: () => number;

  constructor(opts: { maxHoldMs?: number; sliceMs?: number; now?: () => number } = {}) {
    this.maxHoldMs = opts.maxHoldMs ?? DEFAULT_MAX_HOLD_MS;
    this.sliceMs = opts.sliceMs ?? DEFAULT_SLICE_MS;
    this.now = opts.now ?? (() => performance.now());
  }

  /** Starts a foreground span; the returned function ends it (calling it again does nothing). */
  enter(): () => void {
    this.active++;
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      this.active--;
      if (this.active === 0) this.schedule();
    };
    const timer = setTimeout(end, this.maxHoldMs);
    timer.unref();
    return end;
  }

  /** Whether a foreground span is in progress. */
  get busy(): boolean {
    return this.active > 0;
  }

  /**
   * Resolves when background work may take its next step; undefined (go now, no promise made)
   * while nothing is answered and the current slice lasts, which is nearly always.
   */
  turn(): Promise<void> | undefined {
    if (this.active === 0 && this.waiters.length === 0 && this.now() - this.sliceStartMs < this.sliceMs) {
      return undefined;
    }
    return new Promise((resolve) => {
      this.waiters.push({ wake: resolve, sinceMs: this.now() });
      this.schedule();
    });
  }

  /** How much longer spans may hold the oldest waiting step (0: it goes at the next turn). */
  private heldForMs(): number {
    const oldest = this.waiters[0];
    if (this.active === 0 || oldest === undefined) return 0;
    return Math.max(0, oldest.sinceMs + this.maxHoldMs - this.now());
  }

  private schedule(): void {
    if (this.scheduled || this.waiters.length === 0) return;
    const held = this.heldForMs();
    if (held > 0) {
      if (this.holdTimer === undefined) {
        this.holdTimer = setTimeout(() => {
          this.holdTimer = undefined;
          this.schedule();
        }, held);
        this.holdTimer.unref();
      }
      return;
    }
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    this.scheduled = true;
    setImmediate(this.next);
  }

  /** One step per turn of the loop: the poll phase between two reads a scrape's request. */
  private readonly next = (): void => {
    this.scheduled = false;
    // A scrape that arrived since holds it again (until the oldest step's hold runs out).
    if (this.heldForMs() === 0) {
      this.sliceStartMs = this.now();
      this.waiters.shift()?.wake();
    }
    this.schedule();
  };
}

/** Long enough for a 12 MB body on a fast network, short against any poll's interval. */
export const DEFAULT_MAX_HOLD_MS = 250;
/** Background work in a row before a scrape's request gets its chance to be read. */
export const DEFAULT_SLICE_MS = 4;
