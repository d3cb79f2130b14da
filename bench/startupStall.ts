/**
 * `npm run bench -- --startup-stall`: the exporter's start-up cycle of 2,000 metric targets
 * (1,000 clusters plus one collection scope each, every collector on), every target at once.
 * Measured while that first cycle lands: the longest event-loop stall in the exporter's
 * process (its probe) and how long `/healthz` kept a prober waiting (asked every 20 ms over
 * one keep-alive connection, as a liveness probe would).
 */
import { startExporterProcess, startSimProcess, stopSimProcess, waitFor200 } from "./children.js";
import { chooseScopes, cycleIntervalMs, isoDuration, scenarioConfig, writeConfigFile } from "./config.js";
import { sleep } from "./entry.js";
import type { Lap } from "./probe.js";
import { type Check, describeStall, judgedStall, LIMITS, ms, table } from "./report.js";
import { Scraper, VARIANTS } from "./scrape.js";
import { type Summary, summarize } from "./stats.js";

const CLUSTERS = 1000;
const PROBE_EVERY_MS = 20;

export interface StallResult {
  readonly targets: number;
  readonly intervalMs: number;
  readonly firstCycleMs: number;
  /** The exporter's process over the first cycle (from listening to ready). */
  readonly firstCycle: Lap;
  /** /healthz answer times during the first cycle. */
  readonly healthz: Summary;
}

/** Runs the start-up scenario once. */
export async function runStartupStall(progress: (message: string) => void): Promise<StallResult> {
  const sim = await startSimProcess({
    clusters: CLUSTERS,
    seed: 7,
    collectionsPerCluster: 1,
    rateLimitPerSecond: 20,
    recordMetricRequests: false,
  });
  let stopExporter = async (): Promise<void> => {};
  try {
    const scopes = chooseScopes(sim.info.clusters, CLUSTERS);
    const targets = CLUSTERS + CLUSTERS;
    const intervalMs = cycleIntervalMs(targets, 20);
    const cfg = await writeConfigFile(
      "startup-stall",
      scenarioConfig({
        sim: sim.info,
        apiKey: "stall-key",
        intervalMs,
        scopes,
        collectors: { importJobs: true, sparkJobs: true, inventory: true },
      }),
    );
    const startedAt = Date.now();
    const exporter = await startExporterProcess(cfg);
    stopExporter = () => exporter.handle.stop();
    await exporter.handle.rpc.call<Lap>("lap");
    progress(
      `startup stall: ${targets} metric targets, interval ${isoDuration(intervalMs)}; probing /healthz`,
    );
    const prober = new Scraper(exporter.url);
    const waits: number[] = [];
    let ready = false;
    const readyP = waitFor200(`${exporter.url}/readyz`, 4 * intervalMs + 60_000, 250).then(() => {
      ready = true;
    });
    readyP.catch(() => undefined);
    while (!ready) {
      const started = Date.now();
      const answer = await prober.get("/healthz", VARIANTS[0] as (typeof VARIANTS)[number], 10_000);
      if (answer.status === 200) waits.push(answer.ms);
      await sleep(started + PROBE_EVERY_MS - Date.now());
      if (exporter.handle.hasExited()) break;
    }
    await readyP;
    const firstCycle = await exporter.handle.rpc.call<Lap>("lap");
    const firstCycleMs = Date.now() - startedAt;
    await prober.close();
    return { targets, intervalMs, firstCycleMs, firstCycle, healthz: summarize(waits) };
  } finally {
    await stopExporter();
    await stopSimProcess(sim.handle);
  }
}

/** The report of the start-up scenario, with its check. */
export function renderStall(r: StallResult, machine: string): { text: string; ok: boolean } {
  const check: Check = {
    name: `no event-loop stall > ${LIMITS.stallMs} ms of the exporter's own while the first cycle lands`,
    pass: judgedStall(r.firstCycle.stalls) <= LIMITS.stallMs,
    detail: describeStall(r.firstCycle.stalls),
  };
  const lines = [
    "vdbcloud-exporter start-up stall",
    machine,
    `${r.targets} metric targets (${CLUSTERS} clusters + one scope each), every collector on, interval ` +
      `${isoDuration(r.intervalMs)}; first cycle ${(r.firstCycleMs / 1000).toFixed(1)} s`,
    "",
    table([
      ["measure", "count", "p50 ms", "p99 ms", "max ms"],
      [
        `/healthz wait (every ${PROBE_EVERY_MS} ms)`,
        String(r.healthz.count),
        ms(r.healthz.p50),
        ms(r.healthz.p99),
        ms(r.healthz.max),
      ],
      [
        "event-loop delay (exporter, 1 ms resolution)",
        "",
        "",
        ms(r.firstCycle.loopDelayP99Ms),
        ms(r.firstCycle.loopDelayMaxMs),
      ],
      ["GC pause", "", "", "", ms(r.firstCycle.gcMaxMs)],
    ]),
    "",
    "targets",
    `  [${check.pass ? "PASS" : "FAIL"}] ${check.name}: ${check.detail}`,
  ];
  return { text: `${lines.join("\n")}\n`, ok: check.pass };
}
