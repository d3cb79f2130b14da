/**
 * Counting upstream requests per polling cycle. The scheduler runs each target at a fixed
 * offset inside its interval (offset = hash of the task key), so a request made at time t by
 * a target with offset o comes from that target's latest slot at or before t, whatever the
 * rate limiter's queueing delayed it by (as long as the delay is under one interval).
 *
 * Each request is attributed to its own target (a cluster, or a scope of one), whose task key
 * gives the offset.
 */
import { metricsTargetName } from "../src/collectors/cluster-metrics/tasks.js";
import { offsetFor } from "../src/scheduler/scheduler.js";

/** One request as the simulator saw it. */
export interface LoggedRequest {
  readonly atMs: number;
  /** The exporter's target name: the cluster ID, or `cluster/db/collection` for a scope. */
  readonly target: string;
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

/** The latest slot at or before `atMs` of `target`'s cluster-metrics task. */
export function slotOf(atMs: number, target: string, intervalMs: number): number {
  const offset = offsetFor(`cluster_metrics/${target}`, intervalMs);
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
    const slot = slotOf(r.atMs, r.target, intervalMs);
    if (slot < fromMs) continue;
    const c = counts[Math.floor((slot - fromMs) / intervalMs)];
    if (!c) continue;
    c.requests++;
    c.targets.add(r.target);
    if (r.status === 429) c.rateLimited++;
  }
  return counts.map((c, cycle) => ({
    cycle,
    requests: c.requests,
    distinctTargets: c.targets.size,
    rateLimited: c.rateLimited,
  }));
}

/** The exporter's target name of a metrics request: the cluster, or the scope in its body. */
export function targetOfRequest(clusterId: string, body: unknown): string {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  const dbName = text(b.dbName);
  const collectionName = text(b.collectionName);
  if (dbName === undefined && collectionName === undefined) return metricsTargetName(clusterId);
  return metricsTargetName(clusterId, {
    ...(dbName !== undefined ? { dbName } : {}),
    ...(collectionName !== undefined ? { collectionName } : {}),
  });
}

/**
 * The earliest start of a window of one interval that holds exactly one slot of every target,
 * given when the last start-up run began (at the latest, when the exporter became ready). The
 * scheduler books a target's first slot at least half an interval after its own start-up run,
 * and up to a whole interval more (its offset): a target whose start-up run began at `t` has
 * its first slot in (t + I/2, t + 3I/2]. A window [W, W + I) holds one slot of every target once
 * no first slot lies at or after W + I, i.e. from W = lastStartupAtMs + I/2. Counting from half
 * an interval after the *process* start instead leaves out every target whose first slot
 * is still to come: about 12% of them with a 73 s start-up cycle at PT90S.
 */
export function steadyWindowStart(lastStartupAtMs: number, intervalMs: number): number {
  return lastStartupAtMs + intervalMs / 2;
}
