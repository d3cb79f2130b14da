/**
 * Counting upstream requests per polling cycle. The scheduler runs each target at a fixed
 * offset inside its interval (offset = hash of the task key), so a request made at time t by
 * a target with offset o comes from that target's latest slot at or before t, whatever the
 * rate limiter's queueing delayed it by (as long as the delay is under one interval).
 *
 * Requests are attributed with the offset of the cluster's own task. A scope target of the
 * same cluster has another offset, but the same one every cycle, so its requests still land
 * one per cycle: totals per cycle stay exact, only which cycle a scope's request counts in
 * may shift by one.
 */
import { offsetFor } from "../src/schedule/scheduler.js";

/** One request as the simulator saw it. */
export interface LoggedRequest {
  readonly atMs: number;
  readonly clusterId: string;
  readonly status: number;
}

/** Requests whose slots fall in one window of one interval. */
export interface CycleCount {
  /** Window index: 0 holds the slots in [from, from + interval), 1 the next interval, ... */
  readonly cycle: number;
  readonly requests: number;
  readonly distinctTargets: number;
  readonly rateLimited: number;
}

/** The latest slot at or before `atMs` of `clusterId`'s cluster-metrics task. */
export function slotOf(atMs: number, clusterId: string, intervalMs: number): number {
  const offset = offsetFor(`cluster_metrics/${clusterId}`, intervalMs);
  return atMs - ((((atMs - offset) % intervalMs) + intervalMs) % intervalMs);
}

/**
 * Counts requests per window of slots: window j holds the requests whose slot lies in
 * [fromMs + j x interval, fromMs + (j + 1) x interval), for `windows` windows. The log must
 * extend past the last window's end by the longest queueing delay.
 */
export function countCycles(
  log: readonly LoggedRequest[],
  intervalMs: number,
  fromMs: number,
  windows: number,
): CycleCount[] {
  const counts = Array.from({ length: windows }, () => ({
    requests: 0,
    targets: new Set<string>(),
    rateLimited: 0,
  }));
  for (const r of log) {
    const slot = slotOf(r.atMs, r.clusterId, intervalMs);
    if (slot < fromMs) continue;
    const c = counts[Math.floor((slot - fromMs) / intervalMs)];
    if (!c) continue;
    c.requests++;
    c.targets.add(r.clusterId);
    if (r.status === 429) c.rateLimited++;
  }
  return counts.map((c, cycle) => ({
    cycle,
    requests: c.requests,
    distinctTargets: c.targets.size,
    rateLimited: c.rateLimited,
  }));
}
