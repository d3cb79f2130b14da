/**
 * Work that answers someone waiting (a /metrics answer being written) goes before work nobody
 * waits on (an upstream answer's parsing and mapping, the next request of a poll, a publish).
 * The event loop is one thread, and two things delayed scrapes at 1,000 clusters polled with
 * `rate_limit: 1000` (p99 80-110 ms against 15 ms at rest):
 *
 * - a scrape's request waited behind a batch of poll answers: the loop ran each answer that had
 *   arrived, back to back, before it read the new connection (stalls of 20-45 ms);
 * - a scrape being written yields at every 1 MiB, and each yield let more answers run.
 *
 * So background work asks `turn()` before each step. It goes at once while nothing is answered
 * and its slice of the loop (`sliceMs`) is not used up; past the slice it waits for a turn of
 * the event loop (where a waiting scrape's request is read); while a scrape is answered it
 * waits until the answer is written.
 *
 * Priority is bounded: a foreground span counts for at most `maxHoldMs` (a client reading slowly
 * over a long network holds the body, not the loop), so background work is never held longer
 * than that per span however many scrapes arrive, and one step is released per turn of the loop.
 */
export class Foreground {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  private sliceStartMs = Number.NEGATIVE_INFINITY;
  private scheduled = false;
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
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.active > 0 || this.waiters.length === 0) return;
    this.scheduled = true;
    setImmediate(this.next);
  }

  /** One step per turn of the loop: the poll phase between two reads a scrape's request. */
  private readonly next = (): void => {
    this.scheduled = false;
    if (this.active > 0) return;
    this.sliceStartMs = this.now();
    this.waiters.shift()?.();
    this.schedule();
  };
}

/** Long enough for a 12 MB body on a fast network, short against any poll's interval. */
export const DEFAULT_MAX_HOLD_MS = 250;
/** Background work in a row before a scrape's request gets its chance to be read. */
export const DEFAULT_SLICE_MS = 4;
