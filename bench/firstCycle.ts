/**
 * The first cycle against the rate budget: a restart cannot be ready before its busiest
 * endpoint's calls have gone out at the budget (calls / rate per second), so that is the
 * budget-bound minimum, and the first cycle's duration is judged as a ratio of it. Pure.
 */
import type { Check } from "./report.js";

/** At most this many times the budget-bound minimum. */
export const FIRST_CYCLE_LIMIT = 1.5;

/** The first cycle as measured, and the calls the simulator answered by its end. */
export interface FirstCycle {
  readonly durationMs: number;
  /**
   * Requests per endpoint the first pass needed: the distinct requests the simulator answered
   * until the exporter was ready (one key; re-polls of targets whose slot came meanwhile, and
   * retries, left out).
   */
  readonly calls: Readonly<Record<string, number>>;
  /** Requests per second per endpoint and key. */
  readonly ratePerSecond: number;
  /** Rate-limit answers over the first cycle. */
  readonly rateLimited: number;
}

/** The busiest endpoint, the budget-bound minimum and the ratio of the first cycle to it. */
export function budgetBound(c: FirstCycle): {
  endpoint: string;
  calls: number;
  minimumMs: number;
  ratio: number;
} {
  const [endpoint, calls] = Object.entries(c.calls).reduce<[string, number]>(
    (best, entry) => (entry[1] > best[1] ? entry : best),
    ["none", 0],
  );
  const minimumMs = (calls / c.ratePerSecond) * 1000;
  return {
    endpoint,
    calls,
    minimumMs,
    ratio: minimumMs > 0 ? c.durationMs / minimumMs : Number.POSITIVE_INFINITY,
  };
}

/** `first cycle 62.3 s against a budget-bound minimum of 45.8 s (...: 916 calls at 20/s) = 1.36x`. */
export function describeFirstCycle(c: FirstCycle): string {
  const b = budgetBound(c);
  return (
    `first cycle ${(c.durationMs / 1000).toFixed(1)} s against a budget-bound minimum of ` +
    `${(b.minimumMs / 1000).toFixed(1)} s (${b.endpoint}: ${b.calls} distinct calls at ${c.ratePerSecond}/s) = ${b.ratio.toFixed(2)}x, ` +
    `${c.rateLimited} rate-limit answers`
  );
}

/** The verdict: within FIRST_CYCLE_LIMIT times the minimum, with no rate-limit answer. */
export function firstCycleCheck(c: FirstCycle): Check {
  const { ratio } = budgetBound(c);
  return {
    name: `first cycle within ${FIRST_CYCLE_LIMIT}x its budget-bound minimum (busiest endpoint's calls / rate), no 429`,
    pass: ratio <= FIRST_CYCLE_LIMIT && c.rateLimited === 0,
    detail: describeFirstCycle(c),
  };
}
