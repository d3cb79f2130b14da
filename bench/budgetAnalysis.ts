/**
 * What the rate-budget scenarios measure in the simulator's request log: how many requests
 * it admitted per second, how many targets each window of one interval reached, and the
 * longest a target went between two polls. Pure functions over the log, so they are tested
 * without processes.
 */

import type { RateLimitMode } from "../src/simulator/rate-limiter.js";
import { DEFAULT_RATE_LIMIT_MARGIN_MS, RATE_WINDOW_MS } from "../src/upstream/rateLimiter.js";
import type { CycleCount, LoggedRequest } from "./cycles.js";
import type { Check } from "./report.js";

/** The documented limit, and the targets that use all of it at PT30S. */
export const BUDGET_RATE = 20;
export const FULL_BUDGET_TARGETS = 600;
export const BUDGET_INTERVAL_MS = 30_000;

/** Requests of one real-time window of one interval. */
export interface WindowCount {
  readonly requests: number;
  /** Answered with anything but a rate-limit refusal. */
  readonly admitted: number;
  readonly distinctTargets: number;
}

const admittedRequest = (r: LoggedRequest): boolean => r.status !== 429;

/** Counts requests per window [from + j x interval, from + (j + 1) x interval), j < windows. */
export function countWindows(
  log: readonly LoggedRequest[],
  intervalMs: number,
  fromMs: number,
  windows: number,
): WindowCount[] {
  const counts = Array.from({ length: windows }, () => ({
    requests: 0,
    admitted: 0,
    targets: new Set<string>(),
  }));
  for (const r of log) {
    if (r.atMs < fromMs) continue;
    const c = counts[Math.floor((r.atMs - fromMs) / intervalMs)];
    if (!c) continue;
    c.requests++;
    if (admittedRequest(r)) {
      c.admitted++;
      c.targets.add(r.target);
    }
  }
  return counts.map((c) => ({ requests: c.requests, admitted: c.admitted, distinctTargets: c.targets.size }));
}

/** Admitted requests per second in [fromMs, toMs). */
export function admittedPerSecond(log: readonly LoggedRequest[], fromMs: number, toMs: number): number {
  const n = log.filter((r) => r.atMs >= fromMs && r.atMs < toMs && admittedRequest(r)).length;
  return toMs > fromMs ? (n * 1000) / (toMs - fromMs) : 0;
}

/** How regularly every target was polled in [fromMs, toMs). */
export interface Gaps {
  /** The longest time between two admitted requests of one target. */
  readonly maxGapMs: number;
  /** Expected targets with no admitted request at all in the range. */
  readonly neverPolled: number;
}

/** Longest gap between consecutive admitted requests of each of `targets` in [fromMs, toMs). */
export function pollGaps(
  log: readonly LoggedRequest[],
  targets: Iterable<string>,
  fromMs: number,
  toMs: number,
): Gaps {
  const last = new Map<string, number>();
  let maxGapMs = 0;
  for (const r of [...log].sort((a, b) => a.atMs - b.atMs)) {
    if (r.atMs < fromMs || r.atMs >= toMs || !admittedRequest(r)) continue;
    const before = last.get(r.target);
    if (before !== undefined) maxGapMs = Math.max(maxGapMs, r.atMs - before);
    last.set(r.target, r.atMs);
  }
  let neverPolled = 0;
  for (const t of targets) if (!last.has(t)) neverPolled++;
  return { maxGapMs, neverPolled };
}

/** One budget scenario's figures. */
export interface BudgetResult {
  readonly percent: number;
  readonly mode: RateLimitMode;
  readonly targets: number;
  /** The verdict `--check-config` printed for the metrics endpoint ("fits" or "EXCEEDS ..."). */
  readonly checkConfig: string;
  readonly firstCycleMs: number;
  /** Metric requests the simulator answered, and how many of them were rate-limit refusals. */
  readonly requests: number;
  readonly rateLimited: number;
  /** Rate-limit refusals within the observed cycles. */
  readonly rateLimitedObserved: number;
  /** Admitted metric requests per second over the observed cycles. */
  readonly effectivePerSecond: number;
  /** Per cycle, by slot (each request attributed to its target's slot). */
  readonly slotCycles: readonly CycleCount[];
  /** Per real-time window of one interval. */
  readonly windows: readonly WindowCount[];
  readonly gaps: Gaps;
  readonly skippedAtStart: number;
  readonly skippedSteady: number;
  readonly exporterRateLimited: number;
}

/** Whether `targets` at PT30S fit the limiter's usable rate at the default margin. */
export function fitsUsableRate(targets: number): boolean {
  return targets * (RATE_WINDOW_MS + DEFAULT_RATE_LIMIT_MARGIN_MS) <= BUDGET_RATE * BUDGET_INTERVAL_MS;
}

/**
 * Longest gap allowed between two polls of a target when some slots must be skipped: one
 * skipped slot makes a gap of two intervals (plus the difference of two queueing delays); two
 * in a row would make three.
 */
export const MAX_GAP_INTERVALS = 2.5;

/** The targets of one scenario: within the usable rate, everything every cycle; beyond it, no storm. */
export function budgetChecks(r: BudgetResult): Check[] {
  const name = `${r.percent}% ${r.mode}`;
  const share = r.requests > 0 ? r.rateLimited / r.requests : 0;
  const limited = `${r.rateLimited} of ${r.requests} requests (${(share * 100).toFixed(2)}%)`;
  if (fitsUsableRate(r.targets)) {
    return [
      { name: `${name}: --check-config says fits`, pass: r.checkConfig === "fits", detail: r.checkConfig },
      { name: `${name}: zero rate-limit answers`, pass: r.rateLimited === 0, detail: limited },
      {
        name: `${name}: every target polled once in every cycle after the first`,
        pass:
          r.slotCycles.length > 0 &&
          r.slotCycles.every((c) => c.requests === r.targets && c.distinctTargets === r.targets) &&
          r.skippedSteady === 0,
        detail: `${r.slotCycles.map((c) => `${c.requests} requests / ${c.distinctTargets} targets`).join(", ")} of ${r.targets}; skipped ${r.skippedSteady}`,
      },
    ];
  }
  const gap = r.gaps.maxGapMs / BUDGET_INTERVAL_MS;
  return [
    {
      name: `${name}: --check-config says EXCEEDS`,
      pass: r.checkConfig.startsWith("EXCEEDS"),
      detail: r.checkConfig,
    },
    { name: `${name}: rate-limit answers under 1% of requests`, pass: share < 0.01, detail: limited },
    {
      name: `${name}: every target polled at least every two cycles`,
      pass: r.gaps.neverPolled === 0 && gap < MAX_GAP_INTERVALS,
      detail: `longest gap ${gap.toFixed(2)} intervals (limit ${MAX_GAP_INTERVALS}); never polled ${r.gaps.neverPolled}; skipped slots ${r.skippedSteady}`,
    },
  ];
}
