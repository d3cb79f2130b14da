/**
 * Test doubles for the client: a manual clock whose sleep advances time, and an observer that
 * records events. Used by tests only; production code never imports this module.
 */
import type { SleepFn } from "./sleep.js";
import type { CallOutcome, ClientObserver, EndpointTemplate } from "./types.js";

/** A clock that only moves when something sleeps on it (or `advance` is called). */
export interface ManualClock {
  readonly now: () => number;
  readonly sleep: SleepFn;
  /** Every sleep requested, in order, in milliseconds. */
  readonly sleeps: number[];
  advance(ms: number): void;
}

/** Creates a ManualClock starting at `startMs`. Sleeps resolve at once, after advancing time. */
export function manualClock(startMs = 1_700_000_000_000): ManualClock {
  let t = startMs;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleeps,
    advance(ms) {
      t += ms;
    },
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      t += ms;
      return Promise.resolve();
    },
  };
}

/** One observed event. */
export type ObservedEvent =
  | { readonly kind: "attempt"; readonly endpoint: EndpointTemplate; readonly outcome: CallOutcome }
  | { readonly kind: "retry"; readonly endpoint: EndpointTemplate; readonly delayMs: number }
  | { readonly kind: "rateLimited"; readonly endpoint: EndpointTemplate }
  | { readonly kind: "schemaError"; readonly endpoint: EndpointTemplate };

/** An observer that appends every event to `events`. */
export interface RecordingObserver extends ClientObserver {
  readonly events: ObservedEvent[];
}

/** Creates a RecordingObserver (durations are not recorded: tests must not depend on time). */
export function recordingObserver(): RecordingObserver {
  const events: ObservedEvent[] = [];
  return {
    events,
    attempt: (endpoint, outcome) => events.push({ kind: "attempt", endpoint, outcome }),
    retry: (endpoint, delayMs) => events.push({ kind: "retry", endpoint, delayMs }),
    rateLimited: (endpoint) => events.push({ kind: "rateLimited", endpoint }),
    schemaError: (endpoint) => events.push({ kind: "schemaError", endpoint }),
  };
}
