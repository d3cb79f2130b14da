/**
 * Tracks what outlives a request handler (hung responses, slow-body timers) so that closing
 * the simulator leaves no socket open and no timer pending.
 */
import type { ServerResponse } from "node:http";

/** Owner of timers and hung responses; `shutdown` releases them all. */
export class Lifecycle {
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #hung = new Set<ServerResponse>();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Like setTimeout, but cancelled by `shutdown`. */
  later(fn: () => void, ms: number): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    this.#timers.add(timer);
  }

  /** Keeps `res` open without answering until the client gives up or the simulator closes. */
  hang(res: ServerResponse): void {
    this.#hung.add(res);
    res.on("close", () => this.#hung.delete(res));
  }

  /** Number of requests currently left hanging. */
  get hangingCount(): number {
    return this.#hung.size;
  }

  /** Cancels timers and drops hung connections. Idempotent. */
  shutdown(): void {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const res of this.#hung) res.destroy();
    this.#hung.clear();
  }
}
