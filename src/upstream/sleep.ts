/**
 * Abortable sleeps on a clock: the global timers by default (so fake timers in tests control
 * them), or an injected clock such as the scheduler's, so that one clock drives the exporter.
 */

/** A sleep function as the client and rate limiter take it (injectable for tests). */
export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The timer functions the client needs: a millisecond clock and one-shot timers. Declared
 * here, not imported, so the cloud package depends on nothing above it; the scheduler's
 * `Clock` satisfies it structurally. `setTimeout` returns a handle that only `clearTimeout`
 * of the same object understands.
 */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The global timers, looked up at each call (fake timers installed later still apply). The
 * timers are not unref'd: a pending request or retry keeps the process alive, as before.
 */
const globalTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The reason an aborted signal carries, or a generic AbortError when it carries none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * A sleep on `timers`: resolves after `ms` milliseconds of that clock; rejects with the
 * signal's reason as soon as `signal` aborts (and clears the timer, so an aborted sleep keeps
 * nothing alive).
 */
export function sleepOn(timers: Timers): SleepFn {
  return (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => {
        timers.clearTimeout(timer);
        reject(signal ? abortReason(signal) : undefined);
      };
      const timer = timers.setTimeout(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    });
}

/** A sleep on the global timers. */
export const sleep: SleepFn = sleepOn(globalTimers);
