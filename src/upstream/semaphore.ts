/**
 * A counting semaphore: caps concurrent upstream requests of one client.
 */
import { abortReason } from "./sleep.js";

/** Gives back the permit; calling it more than once has no further effect. */
type Release = () => void;

/** FIFO, abortable counting semaphore. */
export class Semaphore {
  private available: number;
  private readonly waiters: Array<(release: Release) => void> = [];

  constructor(permits: number) {
    if (!(Number.isInteger(permits) && permits >= 1)) {
      throw new RangeError(`permits must be an integer >= 1, got ${permits}`);
    }
    this.available = permits;
  }

  /** Permits currently free (for tests and diagnostics). */
  get free(): number {
    return this.available;
  }

  /**
   * Resolves with a release function once a permit is held. Rejects with the signal's reason
   * if `signal` aborts while waiting (no permit is then held).
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.available > 0 && this.waiters.length === 0) {
      this.available -= 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.waiters.indexOf(grant);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal ? abortReason(signal) : undefined);
      };
      const grant = (release: Release): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve(release);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(grant);
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      // Hand the permit straight to the next waiter so a newcomer cannot overtake it.
      if (next) next(this.releaser());
      else this.available += 1;
    };
  }
}
