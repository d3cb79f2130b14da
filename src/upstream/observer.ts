/**
 * Guards the client against its observer: observers must not throw, but a counting bug in
 * another layer must never turn a good API answer into a failed call.
 */
import type { ClientObserver } from "./types.js";

/** An observer that ignores every event. */
export const NOOP_OBSERVER: ClientObserver = Object.freeze({
  attempt: () => {},
  retry: () => {},
  rateLimited: () => {},
  schemaError: () => {},
});

/** Wraps `observer` so that an exception thrown by any of its methods is swallowed. */
export function safeObserver(observer: ClientObserver | undefined): ClientObserver {
  if (observer === undefined) return NOOP_OBSERVER;
  const guard =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A): void => {
      try {
        fn(...args);
      } catch {
        // Deliberately ignored: see the module comment.
      }
    };
  return {
    attempt: guard((endpoint, outcome, seconds) => observer.attempt(endpoint, outcome, seconds)),
    retry: guard((endpoint, delayMs) => observer.retry(endpoint, delayMs)),
    rateLimited: guard((endpoint) => observer.rateLimited(endpoint)),
    schemaError: guard((endpoint) => observer.schemaError(endpoint)),
  };
}
