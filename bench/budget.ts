/**
 * `npm run bench -- --budget 90,95,100,110`: one API key's metric targets at PT30S, at a share
 * of the documented budget (100% = 600 targets = 20 requests per second), against the
 * simulator counting its limit in each window mode. Per scenario: what `--check-config` says,
 * rate-limit answers, admitted requests per second, targets reached per cycle, the longest
 * gap between two polls of a target, skipped slots. Modes of one budget run in parallel
 * (each pair of processes is light: 20 requests per second).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { RateLimitMode } from "../src/simulator/rate-limiter.js";
import { DEFAULT_RATE_LIMIT_MARGIN_MS, usableRate } from "../src/upstream/rateLimiter.js";
import {
  admittedPerSecond,
  BUDGET_INTERVAL_MS,
  BUDGET_RATE,
  type BudgetResult,
  budgetChecks,
  countWindows,
  FULL_BUDGET_TARGETS,
  pollGaps,
} from "./budgetAnalysis.js";
import {
  EXPORTER_MAIN,
  startExporterProcess,
  startSimProcess,
  stopSimProcess,
  waitFor200,
} from "./children.js";
import { scenarioConfig, writeConfigFile } from "./config.js";
import { countCycles, steadyWindowStart } from "./cycles.js";
import { sleep } from "./entry.js";
import { MARGIN_MS, METRICS_ENDPOINT } from "./perCycle.js";
import { formatChecks, table } from "./report.js";
import { scrapeSelfCounters, total } from "./selfCounters.js";
import type { MetricRequest, SimSnapshot } from "./simProcess.js";

const run = promisify(execFile);

/** The metrics line's verdict of `--check-config` for the config at `path`. */
async function checkConfigVerdict(path: string): Promise<string> {
  const { stdout } = await run(process.execPath, [
    fileURLToPath(EXPORTER_MAIN),
    "--config",
    path,
    "--check-config",
  ]);
  const line = stdout.split("\n").find((l) => l.includes(METRICS_ENDPOINT)) ?? "";
  // "... = 19 req/s: fits" or "... = 20 req/s: EXCEEDS the budget: needs ..."
  const at = line.search(/: (fits|EXCEEDS)/);
  return at < 0 ? `(no verdict: ${line.trim()})` : line.slice(at + 2).trim();
}

/** Runs one scenario: `percent` of the budget against a simulator counting in `mode`. */
export async function runBudgetScenario(
  percent: number,
  mode: RateLimitMode,
  cycles: number,
  seed: number,
): Promise<BudgetResult> {
  const targets = Math.round((FULL_BUDGET_TARGETS * percent) / 100);
  const intervalMs = BUDGET_INTERVAL_MS;
  const sim = await startSimProcess({
    clusters: targets,
    seed,
    collectionsPerCluster: 1,
    rateLimitPerSecond: BUDGET_RATE,
    rateLimitMode: mode,
    recordMetricRequests: true,
  });
  let stopExporter = async (): Promise<void> => {};
  try {
    const cfg = await writeConfigFile(
      `budget-${percent}-${mode}`,
      scenarioConfig({
        sim: sim.info,
        apiKey: `budget-key-${mode}`,
        intervalMs,
        collectors: { importJobs: false, sparkJobs: false, inventory: false },
      }),
    );
    const checkConfig = await checkConfigVerdict(cfg);
    const startedAt = Date.now();
    const exporter = await startExporterProcess(cfg);
    stopExporter = () => exporter.handle.stop();
    await waitFor200(`${exporter.url}/readyz`, 4 * intervalMs + 60_000);
    const readyAt = Date.now();
    const fromMs = steadyWindowStart(readyAt, intervalMs);
    await sleep(fromMs - Date.now());
    const atStart = await scrapeSelfCounters(exporter.url);
    const endAt = fromMs + cycles * intervalMs;
    await sleep(endAt - Date.now());
    const atEnd = await scrapeSelfCounters(exporter.url);
    // Requests of the last slots are still queued at endAt: wait for them before reading the log.
    await sleep(endAt + MARGIN_MS - Date.now());
    const log = await sim.handle.rpc.call<MetricRequest[]>("drainMetricLog");
    const snap = await sim.handle.rpc.call<SimSnapshot>("snapshot");
    const final = await scrapeSelfCounters(exporter.url);
    return {
      percent,
      mode,
      targets,
      checkConfig,
      firstCycleMs: readyAt - startedAt,
      requests: snap.byEndpoint[METRICS_ENDPOINT] ?? 0,
      rateLimited: snap.rateLimited,
      rateLimitedObserved: log.filter((r) => r.atMs >= fromMs && r.atMs < endAt && r.status === 429).length,
      effectivePerSecond: admittedPerSecond(log, fromMs, endAt),
      slotCycles: countCycles(log, intervalMs, fromMs, cycles),
      windows: countWindows(log, intervalMs, fromMs, cycles),
      gaps: pollGaps(
        log,
        sim.info.clusters.map((c) => c.id),
        fromMs,
        endAt,
      ),
      skippedAtStart: total(atStart.skipped),
      skippedSteady: total(atEnd.skipped) - total(atStart.skipped),
      exporterRateLimited: total(final.rateLimited),
    };
  } finally {
    await stopExporter();
    await stopSimProcess(sim.handle);
  }
}

/** Runs every (budget, mode) pair: budgets one after another, the modes of one in parallel. */
export async function runBudgetScenarios(
  percents: readonly number[],
  modes: readonly RateLimitMode[],
  cycles: number,
  progress: (message: string) => void,
): Promise<BudgetResult[]> {
  const results: BudgetResult[] = [];
  for (const percent of percents) {
    progress(`budget ${percent}%: ${modes.join(", ")} in parallel, ${cycles} cycles after the first`);
    results.push(
      ...(await Promise.all(modes.map((mode, i) => runBudgetScenario(percent, mode, cycles, 100 + i)))),
    );
  }
  return results;
}

/** The report of the budget scenarios, with its checks. */
export function renderBudget(
  results: readonly BudgetResult[],
  machine: string,
): { text: string; ok: boolean } {
  const usable = usableRate(BUDGET_RATE, DEFAULT_RATE_LIMIT_MARGIN_MS);
  const lines = [
    "vdbcloud-exporter rate-budget scenarios",
    machine,
    `one API key, cluster metrics only, interval PT30S; limit ${BUDGET_RATE} req/s per endpoint, usable ` +
      `${usable.toFixed(2)} req/s at the default ${DEFAULT_RATE_LIMIT_MARGIN_MS} ms margin; 100% = ${FULL_BUDGET_TARGETS} targets`,
    "",
    table([
      [
        "mode",
        "budget",
        "targets",
        "--check-config",
        "429s / requests (observed)",
        "req/s (limit 20)",
        "first cycle s",
        "targets per cycle (by slot)",
        "targets per 30 s window",
        "longest gap",
        "skipped start / after",
      ],
      ...results.map((r) => [
        r.mode,
        `${r.percent}%`,
        String(r.targets),
        r.checkConfig.startsWith("EXCEEDS") ? "EXCEEDS" : r.checkConfig,
        `${r.rateLimited} / ${r.requests} (${r.rateLimitedObserved})`,
        r.effectivePerSecond.toFixed(2),
        (r.firstCycleMs / 1000).toFixed(1),
        r.slotCycles.map((c) => c.distinctTargets).join(", "),
        r.windows.map((w) => w.distinctTargets).join(", "),
        `${(r.gaps.maxGapMs / 1000).toFixed(1)} s`,
        `${r.skippedAtStart} / ${r.skippedSteady}`,
      ]),
    ]),
    "  429s / requests: the simulator's refusals over the whole run, first cycle included (in the observed",
    "  cycles); req/s: admitted over the observed cycles, which start half an interval after the first cycle",
    "  ended (when every target has its slot booked); by slot: each request counted in its target's slot (exact while queueing",
    "  stays under one interval); longest gap: between two polls of one target in the observed cycles.",
    "",
    "targets",
  ];
  const checks = results.flatMap(budgetChecks);
  lines.push(formatChecks(checks));
  return { text: `${lines.join("\n")}\n`, ok: checks.every((c) => c.pass) };
}
