/**
 * Counting Query Cluster Metrics requests per polling cycle against a simulator child that
 * logs them. Used by both scenarios: the scale one (many collectors, one cycle) and the
 * per-cycle one (540 targets at PT30S on one key: 90% of the budget of 20 requests/s).
 */
import type { ChildHandle, ExporterProcess } from "./children.js";
import { waitFor200 } from "./children.js";
import { type CycleCount, countCycles, steadyWindowStart } from "./cycles.js";
import { sleep } from "./entry.js";
import { scrapeSelfCounters, total } from "./selfCounters.js";
import type { MetricRequest, SimSnapshot } from "./simProcess.js";

export const METRICS_ENDPOINT = "POST /v2/clusters/{id}/metrics/query";

/**
 * Queueing allowance: a window's requests are all in once this long past its end. At a fully
 * used budget requests wait in the client's limiter for about 12 s (measured), so 20 s.
 */
export const MARGIN_MS = 20_000;

/**
 * Resolves once the simulator sees fewer than `belowPerSecond` metric requests per second
 * (over two seconds): the exporter's start-up backlog has drained. Gives up after `maxMs`.
 */
export async function waitForDrain(sim: ChildHandle, belowPerSecond: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  const seen: number[] = [];
  while (Date.now() < deadline) {
    const snap = await sim.rpc.call<SimSnapshot>("snapshot");
    seen.push(snap.byEndpoint[METRICS_ENDPOINT] ?? 0);
    if (seen.length >= 3 && ((seen.at(-1) as number) - (seen.at(-3) as number)) / 2 < belowPerSecond) return;
    await sleep(1000);
  }
}

/** Counts the metric requests of `windows` windows of slots starting at `fromMs`. */
export async function countLoggedCycles(
  sim: ChildHandle,
  intervalMs: number,
  fromMs: number,
  windows: number,
): Promise<CycleCount[]> {
  await sleep(fromMs + windows * intervalMs + MARGIN_MS - Date.now());
  const log = await sim.rpc.call<MetricRequest[]>("drainMetricLog");
  return countCycles(log, intervalMs, fromMs, windows);
}

export interface PerCycleResult {
  readonly targets: number;
  readonly intervalMs: number;
  readonly firstCycleMs: number;
  readonly cycles: CycleCount[];
  /** 429 answers of the simulator over the whole scenario (first cycle included). */
  readonly rateLimited: number;
  /** The exporter's own counts over the whole scenario. */
  readonly retries: number;
  /** Skipped runs while the start-up burst drained (slots that came before the first run ended). */
  readonly skippedAtStart: number;
  /** Skipped runs after the first cycle: any here means a poll outlived its interval. */
  readonly skippedRuns: number;
}

/**
 * Waits for the exporter's first cycle (every target, 64 at a time per collector), then counts
 * requests of `cycles` windows of one interval from half an interval later: from then on
 * every target is idle at its slot.
 */
export async function observeCycles(
  exporter: ExporterProcess,
  sim: ChildHandle,
  opts: {
    readonly targets: number;
    readonly intervalMs: number;
    readonly cycles: number;
    readonly startedAt: number;
  },
): Promise<PerCycleResult> {
  await waitFor200(`${exporter.url}/readyz`, 4 * opts.intervalMs + 60_000);
  const readyAt = Date.now();
  const fromMs = steadyWindowStart(readyAt, opts.intervalMs);
  await sleep(fromMs - Date.now());
  const atStart = await scrapeSelfCounters(exporter.url);
  const cycles = await countLoggedCycles(sim, opts.intervalMs, fromMs, opts.cycles);
  const snap = await sim.rpc.call<SimSnapshot>("snapshot");
  const self = await scrapeSelfCounters(exporter.url);
  return {
    targets: opts.targets,
    intervalMs: opts.intervalMs,
    firstCycleMs: readyAt - opts.startedAt,
    cycles,
    rateLimited: snap.rateLimited,
    retries: total(self.retries),
    skippedAtStart: total(atStart.skipped),
    skippedRuns: total(self.skipped) - total(atStart.skipped),
  };
}
