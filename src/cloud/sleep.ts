/**
 * An abortable sleep on the global timer functions (so fake timers in tests control it).
 */

/** A sleep function as the client and rate limiter take it (injectable for tests). */
export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The reason an aborted signal carries, or a generic AbortError when it carries none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * Resolves after `ms` milliseconds; rejects with the signal's reason as soon as `signal`
 * aborts (and clears the timer, so an aborted sleep keeps nothing alive).
 */
export const sleep: SleepFn = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal ? abortReason(signal) : undefined);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
