/**
 * `npm run soak`: reliability under upstream faults. The simulator and the exporter (the real
 * entry point, probe preloaded) run in processes of their own; this process switches faults
 * on and off in the simulator (see faultPlan.ts) and scrapes /metrics continuously.
 *
 * Exit 1 when the exporter crashed (its process exited, or /metrics did not answer 200
 * within 1 s) or lost a series before its staleness bound (see lossTracker.ts); 2 on bad
 * flags. Progress goes to stderr, the report to stdout.
 */
import { writeFile } from "node:fs/promises";
import { arch, cpus, platform } from "node:os";
import { gunzipSync } from "node:zlib";
import { stringify } from "yaml";
import { parseSoakArgs, SOAK_USAGE, type SoakArgs } from "./args.js";
import {
  type ChildHandle,
  type ExporterProcess,
  startExporterProcess,
  startSimProcess,
  stopSimProcess,
  waitFor200,
} from "./children.js";
import { chooseScopes, cycleIntervalMs, isoDuration, scenarioConfig, writeConfigFile } from "./config.js";
import { progressPrinter, runEntry, sleep } from "./entry.js";
import { BenchError } from "./errors.js";
import { parseExposition } from "./exposition.js";
import { type Episode, memoryByKind, planFaults } from "./faultPlan.js";
import { LossTracker } from "./lossTracker.js";
import { runPilot, scopesNeeded } from "./pilot.js";
import type { Lap } from "./probe.js";
import { ms, table } from "./report.js";
import { describeRuntime } from "./runtime.js";
import { Scraper, VARIANTS } from "./scrape.js";
import { readSelfCounters, type SelfCounters, total } from "./selfCounters.js";
import type { SimSnapshot } from "./simProcess.js";
import { medianByPart, slope, summarize } from "./stats.js";

const SMALL_INTERVAL_MS = 30_000;
const STALENESS_INTERVALS = 5;
const SCRAPE_TIMEOUT_MS = 1000;
/** Scrape spacing of the small scenario, and at scale (where parsing a body takes ~0.2 s here). */
const SCRAPE_EVERY_MS = 250;
const SCALE_SCRAPE_EVERY_MS = 5000;
const RSS_EVERY_MS = 10_000;
const MIB = 1024 * 1024;
/** Each kind of an episode fires on this share of requests (the first kind listed wins ties). */
const FAULT_RATE = 0.6;

const t0 = Date.now();
const progress = progressPrinter("soak");

/** What the scraping loop saw. */
interface ScrapeLog {
  scrapes: number;
  failures: { atMs: number; why: string }[];
  latencies: number[];
  last: SelfCounters | undefined;
  lastUpDown: { up: number; down: number };
}

/** Scrapes until `stop()` resolves; every scrape is timed and checked, successful ones tracked. */
async function scrapeLoop(
  url: string,
  tracker: LossTracker,
  log: ScrapeLog,
  until: () => boolean,
  everyMs: number,
): Promise<void> {
  const scraper = new Scraper(url);
  // Plain and gzip text in turn, as Prometheus asks (gzip): both the snapshot and its cache run.
  const variants = VARIANTS.filter((v) => v.name === "text" || v.name === "text+gzip");
  while (!until()) {
    const atMs = Date.now();
    const variant = variants[log.scrapes % variants.length] as (typeof VARIANTS)[0];
    try {
      const s = await scraper.get("/metrics", variant, SCRAPE_TIMEOUT_MS);
      log.scrapes++;
      log.latencies.push(s.ms);
      if (s.status !== 200) {
        log.failures.push({ atMs, why: `status ${s.status}` });
      } else {
        const body = variant.gzip ? gunzipSync(s.body) : s.body;
        const samples = parseExposition(body.toString("utf8")).samples;
        tracker.observe(atMs, samples);
        log.last = readSelfCounters(samples);
        let up = 0;
        let down = 0;
        for (const x of samples) if (x.name === "vdbcloud_collector_up") x.value === 1 ? up++ : down++;
        log.lastUpDown = { up, down };
      }
    } catch (err) {
      log.scrapes++;
      log.failures.push({
        atMs,
        why:
          err instanceof BenchError && err.code === "scrape_timeout" ? "no answer within 1 s" : String(err),
      });
    }
    await sleep(atMs + everyMs - Date.now());
  }
  await scraper.close();
}

/** RSS and heap samples, minutes since the start of the run. */
interface MemoryLog {
  readonly rss: { x: number; y: number }[];
  readonly heap: { x: number; y: number }[];
}

async function sampleMemory(ex: ExporterProcess, startMs: number, log: MemoryLog, until: () => boolean) {
  while (!until()) {
    const atMs = Date.now();
    const mem = await ex.handle.rpc.call<NodeJS.MemoryUsage>("rss").catch(() => undefined);
    if (mem) {
      const x = (atMs - startMs) / 60_000;
      log.rss.push({ x, y: mem.rss / MIB });
      log.heap.push({ x, y: mem.heapUsed / MIB });
    }
    await sleep(atMs + RSS_EVERY_MS - Date.now());
  }
}

/** The exporter's live heap and RSS just after a full collection, at `atMin` into the run. */
interface LiveHeap {
  readonly atMin: number;
  readonly heapMiB: number;
  readonly rssMiB: number;
}

/**
 * A full collection in the exporter (its probe's `memory` command); appends the live heap and
 * RSS right after it to `into`. Nothing is appended once the exporter exited or did not answer.
 */
async function recordLiveHeap(ex: ExporterProcess, startMs: number, into: LiveHeap[]): Promise<void> {
  if (ex.handle.hasExited()) return;
  const atMs = Date.now();
  const mem = await ex.handle.rpc
    .call<NodeJS.MemoryUsage>("memory", undefined, 60_000)
    .catch(() => undefined);
  if (mem)
    into.push({ atMin: (atMs - startMs) / 60_000, heapMiB: mem.heapUsed / MIB, rssMiB: mem.rss / MIB });
}

/**
 * Every `everyMin` minutes: rewrites the config (alternating one harmless setting, so the
 * reload is a real change) and POSTs /-/reload. Counts the answers.
 */
async function reloadLoop(
  url: string,
  cfgPath: string,
  raw: Record<string, unknown>,
  everyMin: number,
  counts: { ok: number; failed: number },
  until: () => boolean,
): Promise<void> {
  if (everyMin <= 0) return;
  let n = 0;
  for (;;) {
    const next = Date.now() + everyMin * 60_000;
    while (Date.now() < next && !until()) await sleep(Math.min(1000, next - Date.now()));
    if (until()) return;
    n++;
    raw.staleness_intervals = STALENESS_INTERVALS + (n % 2);
    await writeFile(cfgPath, stringify(raw));
    const status = await fetch(`${url}/-/reload`, {
      method: "POST",
      signal: AbortSignal.timeout(30_000),
    }).then(
      async (r) => {
        await r.arrayBuffer();
        return r.status;
      },
      () => 0,
    );
    if (status === 200) counts.ok++;
    else counts.failed++;
    progress(`reload ${n}: ${status === 200 ? "ok" : `failed (${status})`}`);
  }
}

/** Switches the plan's faults on and off at their times (relative to `startMs`). */
async function driveFaults(sim: ChildHandle, plan: readonly Episode[], startMs: number): Promise<void> {
  for (const e of plan) {
    await sleep(startMs + e.startMs - Date.now());
    progress(
      `faults on: ${e.kinds.join(", ")} (rate ${FAULT_RATE} each) for ${((e.endMs - e.startMs) / 1000).toFixed(0)} s`,
    );
    for (const kind of e.kinds) await sim.rpc.call("faultSet", { kind, spec: { rate: FAULT_RATE } });
    await sleep(startMs + e.endMs - Date.now());
    await sim.rpc.call("faultClear");
    progress("faults off");
  }
}

interface SoakResult {
  readonly args: SoakArgs;
  readonly clusters: number;
  readonly scopes: number;
  readonly plan: readonly Episode[];
  readonly exits: number;
  readonly exitNote: string;
  readonly log: ScrapeLog;
  readonly tracker: LossTracker;
  readonly start: Lap;
  readonly end: Lap | undefined;
  readonly sim: SimSnapshot;
  readonly metricsTargets: number;
  readonly intervalMs: number;
  readonly memory: MemoryLog;
  readonly live: readonly LiveHeap[];
  readonly reloads: { ok: number; failed: number };
  readonly series: number;
}

async function run(args: SoakArgs): Promise<SoakResult> {
  const totalMs = args.minutes * 60_000;
  const plan = planFaults(totalMs);
  const collectors = { importJobs: true, sparkJobs: true, inventory: true };
  // At scale (--series), collections are added per cluster the way the bench sizes them.
  let collectionsPerCluster = 2;
  let wanted = 2;
  if (args.series > 0) {
    progress(`pilot: sizing ${args.clusters} clusters against ${args.series} series`);
    const est = await runPilot({
      clusters: args.clusters,
      seed: 1,
      collectionsPerCluster: 3,
      collectors,
      sample: 40,
    });
    wanted = scopesNeeded(est, args.clusters, args.series);
    collectionsPerCluster = Math.min(1000, Math.max(3, Math.ceil(wanted / args.clusters)));
  }
  const sim = await startSimProcess({
    clusters: args.clusters,
    seed: 1,
    collectionsPerCluster,
    rateLimitPerSecond: 20,
    recordMetricRequests: false,
  });
  let exporter: ExporterProcess | undefined;
  try {
    const scopes =
      args.series > 0
        ? chooseScopes(sim.info.clusters, wanted)
        : chooseScopes(sim.info.clusters.slice(0, 2), 2);
    const scopeCount = [...scopes.values()].reduce((n, s) => n + s.length, 0);
    const intervalMs =
      args.series > 0 ? cycleIntervalMs(sim.info.clusters.length + scopeCount, 20) : SMALL_INTERVAL_MS;
    const raw = scenarioConfig({ sim: sim.info, apiKey: "soak-key", intervalMs, scopes, collectors });
    raw.staleness_intervals = STALENESS_INTERVALS;
    const cfg = await writeConfigFile("soak", raw);
    exporter = await startExporterProcess(cfg, {
      // --expose-gc: the probe's full collection for the live-heap readings.
      runtime: args.runtime,
      execArgv: ["--expose-gc"],
    });
    const ex = exporter;
    const startMs = Date.now();
    let exits = 0;
    let exitNote = "";
    void ex.handle.exited.then((code) => {
      if (Date.now() < startMs + totalMs) {
        exits++;
        exitNote = `exited with ${String(code)}: ${ex.handle.tail().slice(-5).join(" | ")}`;
      }
    });
    progress(`exporter up; ${plan.length} fault episodes over ${args.minutes} min`);
    await waitFor200(`${ex.url}/readyz`, 3 * intervalMs + 120_000);
    const start = await ex.handle.rpc.call<Lap>("lap");

    const tracker = new LossTracker({ boundMs: STALENESS_INTERVALS * intervalMs });
    const log: ScrapeLog = {
      scrapes: 0,
      failures: [],
      latencies: [],
      last: undefined,
      lastUpDown: { up: 0, down: 0 },
    };
    const done = () => Date.now() >= startMs + totalMs || ex.handle.hasExited();
    const memory: MemoryLog = { rss: [], heap: [] };
    const reloads = { ok: 0, failed: 0 };
    // A leak shows as live heap that grows from the middle of the run to its end; RSS alone
    // also moves with the collector's timing and the allocator's free lists.
    const live: LiveHeap[] = [];
    const atHalf = async () => {
      await sleep(startMs + totalMs / 2 - Date.now());
      await recordLiveHeap(ex, startMs, live);
    };
    await Promise.all([
      scrapeLoop(ex.url, tracker, log, done, args.series > 0 ? SCALE_SCRAPE_EVERY_MS : SCRAPE_EVERY_MS),
      driveFaults(sim.handle, plan, startMs),
      sampleMemory(ex, startMs, memory, done),
      reloadLoop(ex.url, cfg, raw, args.reloadMinutes, reloads, done),
      atHalf(),
    ]);
    await sleep(startMs + totalMs - Date.now());
    await recordLiveHeap(ex, startMs, live);
    const end = ex.handle.hasExited() ? undefined : await ex.handle.rpc.call<Lap>("lap");
    const snap = await sim.handle.rpc.call<SimSnapshot>("snapshot");
    return {
      args,
      clusters: sim.info.clusters.length,
      scopes: scopeCount,
      plan,
      exits,
      exitNote,
      log,
      tracker,
      start,
      end,
      sim: snap,
      metricsTargets: sim.info.clusters.length + scopeCount,
      intervalMs,
      memory,
      live,
      reloads,
      series: log.last?.storeSeries ?? 0,
    };
  } finally {
    await exporter?.handle.stop();
    await stopSimProcess(sim.handle);
  }
}

/** "collector/target: N series, last success T s before" per target whose series expired. */
function expiredTargets(tracker: LossTracker): string[] {
  const by = new Map<string, { n: number; ageS: number }>();
  for (const e of tracker.expired) {
    const k = e.owner === "health" ? "health" : `${e.owner.collector} ${e.owner.target}`;
    const prev = by.get(k);
    const ageS = (e.atMs - (e.lastSuccessMs ?? e.atMs)) / 1000;
    by.set(k, { n: (prev?.n ?? 0) + 1, ageS: Math.max(prev?.ageS ?? 0, ageS) });
  }
  return [...by].map(([k, v]) => `${k}: ${v.n} series, last success ${v.ageS.toFixed(0)} s before`);
}

function render(r: SoakResult): { text: string; ok: boolean } {
  const cpu = cpus();
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
  const polls = r.log.last?.polls.get("cluster_metrics") ?? 0;
  const lat = summarize(r.log.latencies);
  const slow = r.log.latencies.filter((l) => l > SCRAPE_TIMEOUT_MS).length;
  const crashes = r.exits + r.log.failures.length;
  const lost = r.tracker.lost.length;
  const kinds = Object.entries(r.sim.faultsInjected).sort(([a], [b]) => a.localeCompare(b));
  const lines = [
    "vdbcloud-exporter soak",
    `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown"}), ${platform()} ${arch()}, node ${process.version}`,
    `run: ${r.args.minutes} min real time; simulator and exporter (node dist-bench/src/main.js) in their own processes`,
    `  ${r.clusters} clusters + ${r.scopes} scopes (${r.series} series in the store at the end), every collector at ` +
      `${isoDuration(r.intervalMs)}, simulator limit 20 req/s per endpoint; staleness bound ${STALENESS_INTERVALS} x ` +
      `${isoDuration(r.intervalMs)} = ${(STALENESS_INTERVALS * r.intervalMs) / 1000} s`,
    `  exporter runtime ${r.args.runtime.name}: ${describeRuntime(r.args.runtime)}; config reloads every ${r.args.reloadMinutes} min: ${r.reloads.ok} ok, ${r.reloads.failed} failed`,
    `  fault plan: ${r.plan.length} episodes of ${((r.plan[0]?.endMs ?? 0) - (r.plan[0]?.startMs ?? 0)) / 1000} s ` +
      `(${r.plan[0]?.kinds.length ?? 0} kind(s) each at rate ${FAULT_RATE}, all endpoints), after a quiet warm-up, ` +
      "before a quiet tail",
    ...r.plan.map(
      (e) =>
        `    ${(e.startMs / 1000).toFixed(0).padStart(4)} s .. ${(e.endMs / 1000).toFixed(0)} s: ${e.kinds.join(", ")}`,
    ),
    "",
    `cycles: ${Math.floor(polls / r.metricsTargets)} (cluster-metrics polls ${polls} / ${r.metricsTargets} targets); ` +
      `skipped runs ${r.log.last ? total(r.log.last.skipped) : 0}; exporter retries ${r.log.last ? total(r.log.last.retries) : 0}; ` +
      `rate-limit answers seen ${r.log.last ? total(r.log.last.rateLimited) : 0}`,
    "faults injected (simulator count, by kind):",
    kinds.length === 0 ? "  none" : table(kinds.map(([k, n]) => [k, String(n)])),
    `  upstream requests ${r.sim.requests}; 429s of the simulator's own limit ${r.sim.rateLimited}; mutating calls ${r.sim.mutatingCalls}`,
    "",
    `crashes: ${crashes} (exporter exits ${r.exits}${r.exitNote ? `: ${r.exitNote}` : ""}; /metrics not 200 within 1 s: ` +
      `${r.log.failures.length} of ${r.log.scrapes} scrapes)`,
    ...r.log.failures.slice(0, 5).map((f) => `  at ${((f.atMs - t0) / 1000).toFixed(0)} s: ${f.why}`),
    `series lost outside the staleness bound: ${lost} (distinct series seen ${r.tracker.seen.size}; left with fresh ` +
      `data from a successful poll ${r.tracker.replaced}; expired at the bound ${r.tracker.expired.length})`,
    ...expiredTargets(r.tracker).map((line) => `  expired: ${line}`),
    ...r.tracker.lost
      .slice(0, 5)
      .map(
        (l) =>
          `  ${l.series} at ${((l.atMs - t0) / 1000).toFixed(0)} s, last success ${l.lastSuccessMs ?? "unknown"}`,
      ),
    `scrape latency (${r.log.latencies.length} scrapes, text): p50 ${ms(lat.p50)} ms, p99 ${ms(lat.p99)} ms, ` +
      `max ${ms(lat.max)} ms; over 1 s: ${slow}`,
    `RSS: start ${mib(r.start.rssBytes)}, end ${r.end ? mib(r.end.rssBytes) : "n/a (exited)"}; heap used start ` +
      `${mib(r.start.heapUsedBytes)}, end ${r.end ? mib(r.end.heapUsedBytes) : "n/a"}`,
    `targets at the end: ${r.log.lastUpDown.up} up, ${r.log.lastUpDown.down} down`,
    ...memoryLines(r.memory, r.args.minutes, r.live),
    ...memoryByKindLines(r.memory, r.plan),
    "",
    `verdict: ${crashes === 0 && lost === 0 ? "PASS" : "FAIL"} (crashes ${crashes}, series lost ${lost})`,
  ];
  return { text: `${lines.join("\n")}\n`, ok: crashes === 0 && lost === 0 };
}

/**
 * How long past an episode's end its fault is still felt: requests held by a hang end at the
 * request timeout (the default PT10S, which the soak keeps), and their retries follow.
 */
const EPISODE_AFTERMATH_MS = 15_000;

/** RSS and heap under each fault kind, so a transient peak can be tied to what caused it. */
function memoryByKindLines(m: MemoryLog, plan: readonly Episode[]): string[] {
  const at = (points: readonly { x: number; y: number }[]) =>
    points.map((p) => ({ atMs: p.x * 60_000, value: p.y }));
  const heap = new Map(memoryByKind(at(m.heap), plan, EPISODE_AFTERMATH_MS).map((k) => [k.kind, k]));
  const rows = memoryByKind(at(m.rss), plan, EPISODE_AFTERMATH_MS).map((k) => {
    const h = heap.get(k.kind);
    return [
      k.kind,
      String(k.samples),
      `${k.max.toFixed(0)} / ${k.median.toFixed(0)}`,
      h ? `${h.max.toFixed(0)} / ${h.median.toFixed(0)}` : "n/a",
    ];
  });
  return [
    `memory by fault in force (an episode and ${EPISODE_AFTERMATH_MS / 1000} s after it; "none": no fault), MiB`,
    table([["fault", "samples", "RSS max / median", "heap used max / median"], ...rows]),
  ];
}

/** RSS range and the least-squares slopes of RSS and heap over the last half of the run. */
function memoryLines(m: MemoryLog, minutes: number, live: readonly LiveHeap[]): string[] {
  const half = minutes / 2;
  const perHour = (v: number) => (Number.isFinite(v) ? `${(v * 60).toFixed(1)} MiB/h` : "n/a");
  const last = m.rss.filter((p) => p.x >= half).map((p) => p.y);
  return [
    `RSS samples every ${RSS_EVERY_MS / 1000} s: ${m.rss.length}; over the last half: ` +
      (last.length > 0 ? `${Math.min(...last).toFixed(0)} to ${Math.max(...last).toFixed(0)} MiB` : "none") +
      `; whole run max ${m.rss.length > 0 ? Math.max(...m.rss.map((p) => p.y)).toFixed(0) : "n/a"} MiB`,
    `RSS slope over the last half (least squares): ${perHour(slope(m.rss, half))}; heap used slope ${perHour(slope(m.heap, half))}`,
    `RSS median by fifth of the run: ${medianByPart(m.rss, minutes, 5)
      .map((v) => (Number.isFinite(v) ? v.toFixed(0) : "n/a"))
      .join(", ")} MiB`,
    `live heap after a full GC (and RSS then): ${
      live.length === 0
        ? "n/a"
        : live
            .map(
              (l) => `at ${l.atMin.toFixed(1)} min ${l.heapMiB.toFixed(1)} MiB (RSS ${l.rssMiB.toFixed(0)})`,
            )
            .join("; ")
    }`,
  ];
}

runEntry({
  name: "soak",
  usage: SOAK_USAGE,
  parse: parseSoakArgs,
  body: async (args) => render(await run(args)),
});
