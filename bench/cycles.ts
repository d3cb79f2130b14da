/**
 * Counting upstream requests per polling cycle. The scheduler runs each target at a fixed
 * offset inside its interval (offset = hash of the task key), so a request made at time t by
 * a target with offset o belongs to cycle floor((t - o) / interval), whatever the rate
 * limiter's queueing delayed it by (as long as that delay is under one interval).
 */
import { offsetFor } from "../src/schedule/scheduler.js";

/** One request as the simulator saw it. */
export interface LoggedRequest {
  readonly atMs: number;
  readonly clusterId: string;
  readonly status: number;
}

/** Requests of one cycle. */
export interface CycleCount {
  /** Cycle number k: the cycle's slots lie in [k x interval, (k + 1) x interval) plus offsets. */
  readonly cycle: number;
  readonly requests: number;
  readonly distinctTargets: number;
  readonly rateLimited: number;
}

/** The cycle a request of `clusterId`'s cluster-metrics task made at `atMs` belongs to. */
export function cycleOf(atMs: number, clusterId: string, intervalMs: number): number {
  return Math.floor((atMs - offsetFor(`cluster_metrics/${clusterId}`, intervalMs)) / intervalMs);
}

/**
 * Counts requests per cycle, keeping only complete cycles: those whose every slot lies at or
 * after `fromMs` and that ended (with `marginMs` for queueing) before `toMs`.
 */
export function countCycles(
  log: readonly LoggedRequest[],
  intervalMs: number,
  fromMs: number,
  toMs: number,
  marginMs: number,
): CycleCount[] {
  const byCycle = new Map<number, { requests: number; targets: Set<string>; rateLimited: number }>();
  for (const r of log) {
    const k = cycleOf(r.atMs, r.clusterId, intervalMs);
    let c = byCycle.get(k);
    if (!c) byCycle.set(k, (c = { requests: 0, targets: new Set(), rateLimited: 0 }));
    c.requests++;
    c.targets.add(r.clusterId);
    if (r.status === 429) c.rateLimited++;
  }
  const first = Math.ceil(fromMs / intervalMs);
  const last = Math.floor((toMs - marginMs) / intervalMs) - 1;
  const out: CycleCount[] = [];
  for (let k = first; k <= last; k++) {
    const c = byCycle.get(k);
    out.push({
      cycle: k,
      requests: c?.requests ?? 0,
      distinctTargets: c?.targets.size ?? 0,
      rateLimited: c?.rateLimited ?? 0,
    });
  }
  return out;
}
