/**
 * `npm run bench`: the exporter at scale, against the simulator, with baselines. Prints one
 * report (progress goes to stderr) and exits 1 if a target fails, 2 on bad flags.
 *
 * Processes: the simulator, the exporter (`node --import probe.js dist-bench/src/main.js
 * --config FILE`, i.e. the real entry point built from the current sources) and each
 * baseline run in a process of their own; this process only drives them and scrapes.
 *
 * Phases of the scale scenario: pilot (sizing) -> exporter start and first cycle (every
 * target at once) -> wait for that backlog to drain -> one full cycle, unscraped (CPU, event
 * loop, upstream requests) -> timed scrapes of the exporter and the static floor in turn ->
 * exporter stopped -> timed scrapes of prom-client on a quiet machine. The per-cycle
 * scenario (540 targets, one key, PT30S) runs alongside the first phases: it is light (18
 * requests per second) and the phases it overlaps are measured in CPU time, not latency.
 *
 * `--budget`, `--startup-stall` and `--collections` run other scenarios instead (budget.ts,
 * startupStall.ts, collectionsScale.ts).
 */
import { arch, cpus, platform } from "node:os";
import { BENCH_USAGE, type BenchArgs, parseBenchArgs } from "./args.js";
import type { BaselineInfo, BaselineStartArgs } from "./baselineProcess.js";
import { renderBudget, runBudgetScenarios } from "./budget.js";
import {
  type ChildHandle,
  type ExporterProcess,
  forkChild,
  startExporterProcess,
  startSimProcess,
  stopSimProcess,
  waitFor200,
} from "./children.js";
import { renderCollections, runCollectionsScale } from "./collectionsScale.js";
import {
  type Collectors,
  chooseScopes,
  cycleIntervalMs,
  isoDuration,
  scenarioConfig,
  writeConfigFile,
} from "./config.js";
import { renderCostCalls, withCostCalls } from "./costCalls.js";
import { type CycleCount, steadyWindowStart } from "./cycles.js";
import { progressPrinter, runEntry, sleep } from "./entry.js";
import { parseExposition } from "./exposition.js";
import { describeFirstCycle, type FirstCycle, firstCycleCheck } from "./firstCycle.js";
import { type Footprint, formatResting, measureFootprint } from "./footprint.js";
import { evaluateMemoryGoals } from "./memoryGoals.js";
import { countLoggedCycles, observeCycles, type PerCycleResult, waitForDrain } from "./perCycle.js";
import { clustersFor, runPilot, scopesNeeded } from "./pilot.js";
import type { Lap } from "./probe.js";
import { evaluateTargets, formatChecks, type Latencies, mb, ms, table } from "./report.js";
import { describeRuntime } from "./runtime.js";
import { interleaved, Scraper, VARIANTS } from "./scrape.js";
import { delta, readSelfCounters, scrapeSelfCounters, total } from "./selfCounters.js";
import type { SimSnapshot } from "./simProcess.js";
import { renderStall, runStartupStall } from "./startupStall.js";
import { type Summary, summarize } from "./stats.js";
import { renderSteady, runSteady } from "./steady.js";

const SEED = 1;
const RATE_LIMIT = 20;
// 90% of the budget: the most the limiter's usable rate (18.2 req/s at the default margin)
// carries at PT30S in whole percent; --budget measures the shares around it.
const PER_CYCLE_TARGETS = 540;
const PER_CYCLE_INTERVAL_MS = 30_000;
const API_KEY = "bench-key";

const t0 = Date.now();
const progress = progressPrinter("bench");
const lap = (ex: ExporterProcess) => ex.handle.rpc.call<Lap>("lap");
const snapshot = (sim: ChildHandle) => sim.rpc.call<SimSnapshot>("snapshot");

/** Everything the report prints. */
interface Results {
  readonly args: BenchArgs;
  /** Clusters of the scale scenario (see BenchArgs.clusters). */
  readonly clusters: number;
  readonly collectors: Collectors;
  readonly estimate: { perCluster: number; perScope: number; global: number; scopes: number };
  readonly scopes: number;
  readonly intervalMs: number;
  readonly firstCycleMs: number;
  /** The first cycle with the calls the simulator answered by its end (its budget-bound minimum). */
  readonly firstCycle: FirstCycle;
  readonly warmup: Lap;
  readonly cycle: Lap;
  readonly scrapes: Lap;
  readonly end: Lap;
  readonly simCycleCpuMs: number;
  readonly window: {
    readonly simRequests: ReadonlyMap<string, number>;
    readonly exporterRequests: ReadonlyMap<string, number>;
    readonly retries: ReadonlyMap<string, number>;
    readonly polls: ReadonlyMap<string, number>;
    readonly skipped: number;
  };
  readonly minimum: ReadonlyMap<string, number>;
  readonly rateLimitedScale: number;
  readonly exporterRateLimited: number;
  readonly sampleLines: number;
  readonly storeSeries: number;
  readonly bytes: Readonly<Record<string, number>>;
  readonly latencies: Latencies;
  readonly baseline: BaselineInfo;
  readonly perCycle: PerCycleResult;
  readonly scaleCycles: CycleCount[];
  readonly footprint: Footprint;
}

/** Starts one baseline in its own process, scrapes each variant `count` times, stops it. */
async function baselineLatencies(
  start: BaselineStartArgs,
  count: number,
): Promise<{ info: BaselineInfo; latencies: Map<string, Summary> }> {
  const child = forkChild(start.kind, new URL("./baselineProcess.js", import.meta.url), []);
  try {
    const info = await child.rpc.call<BaselineInfo>("start", start, 300_000);
    const scraper = new Scraper(info.url);
    const latencies = new Map<string, Summary>();
    for (const v of VARIANTS)
      latencies.set(v.name, summarize((await scraper.series("/metrics", v, count)).ms));
    await scraper.close();
    return { info, latencies };
  } finally {
    await child.stop();
  }
}

async function run(args: BenchArgs): Promise<Results> {
  const collectors: Collectors = args.metricsOnly
    ? { importJobs: false, sparkJobs: false, inventory: false }
    : { importJobs: true, sparkJobs: true, inventory: true, dataProtection: true };
  let collectionsPerCluster = 3;
  const runtime = { runtime: args.runtime, execArgv: ["--expose-gc"] };

  progress(`footprint: exporter at rest with one cluster (runtime ${args.runtime.name})`);
  const footprint = await measureFootprint(args.runtime);

  progress(`pilot: sizing ${args.clusters} clusters against ${args.series} series`);
  const est = await runPilot({
    clusters: args.clusters,
    seed: SEED,
    collectionsPerCluster,
    collectors,
    sample: 40,
  });
  const clusters = args.fitClusters ? clustersFor(est, args.clusters, args.series) : args.clusters;
  const wanted = scopesNeeded(est, clusters, args.series);
  collectionsPerCluster = Math.min(1000, Math.max(collectionsPerCluster, Math.ceil(wanted / clusters)));
  progress(
    `pilot: ${est.perCluster.toFixed(1)} series per cluster, ${est.perScope.toFixed(1)} per scope, ` +
      `${est.global} global -> ${clusters} clusters, ${wanted} scopes`,
  );

  const [simA, simB] = await Promise.all([
    startSimProcess({
      clusters,
      seed: SEED,
      collectionsPerCluster,
      rateLimitPerSecond: RATE_LIMIT,
      recordMetricRequests: true,
      countDistinctRequests: true,
    }),
    startSimProcess({
      clusters: PER_CYCLE_TARGETS,
      seed: SEED + 1,
      collectionsPerCluster: 1,
      rateLimitPerSecond: RATE_LIMIT,
      recordMetricRequests: true,
    }),
  ]);
  const children: ChildHandle[] = [];
  try {
    const scopes = chooseScopes(simA.info.clusters, wanted);
    const scopeCount = [...scopes.values()].reduce((n, s) => n + s.length, 0);
    const intervalMs = cycleIntervalMs(clusters + scopeCount, RATE_LIMIT);
    const cfgA = await writeConfigFile(
      "scale",
      scenarioConfig({ sim: simA.info, apiKey: API_KEY, intervalMs, scopes, collectors }),
    );
    const cfgB = await writeConfigFile(
      "per-cycle",
      scenarioConfig({
        sim: simB.info,
        apiKey: API_KEY,
        intervalMs: PER_CYCLE_INTERVAL_MS,
        collectors: { importJobs: false, sparkJobs: false, inventory: false },
      }),
    );

    const startedAt = Date.now();
    const [exA, exB] = await Promise.all([
      startExporterProcess(cfgA, runtime),
      startExporterProcess(cfgB, runtime),
    ]);
    children.push(exA.handle, exB.handle);
    // Startup (module loading, config) is not part of any measured window.
    await lap(exA);
    progress(
      `scale: ${clusters} clusters + ${scopeCount} scopes, interval ${isoDuration(intervalMs)}; ` +
        `per-cycle: ${PER_CYCLE_TARGETS} targets at PT30S; waiting for first cycles`,
    );
    const perCycleP = observeCycles(exB, simB.handle, {
      targets: PER_CYCLE_TARGETS,
      intervalMs: PER_CYCLE_INTERVAL_MS,
      cycles: 2,
      startedAt,
    });
    // Surface a failure of the per-cycle scenario even while the scale one is still running.
    perCycleP.catch(() => undefined);

    // Generous: a first cycle far over its budget-bound minimum is judged below, not here.
    await waitFor200(`${exA.url}/readyz`, 3 * intervalMs + 600_000, 250);
    const firstCycleMs = Date.now() - startedAt;
    const atReady = await snapshot(simA.handle);
    const firstCycle: FirstCycle = {
      durationMs: firstCycleMs,
      calls: atReady.distinctByEndpoint,
      ratePerSecond: RATE_LIMIT,
      rateLimited: atReady.rateLimited,
    };
    // Every start-up run began by now; see steadyWindowStart for why this, not the start.
    const steadyFrom = steadyWindowStart(Date.now(), intervalMs);
    const warmup = await lap(exA);
    progress(`scale: ${describeFirstCycle(firstCycle)}; waiting for its backlog to drain`);
    // Slots that came due during the start-up run queued behind it; a window that began
    // before they drained would count them twice.
    await waitForDrain(simA.handle, RATE_LIMIT * 0.85, intervalMs);
    await sleep(steadyFrom - Date.now());

    progress(`scale: measuring one full cycle (${isoDuration(intervalMs)}), unscraped`);
    const before = await scrapeSelfCounters(exA.url);
    const simBefore = await snapshot(simA.handle);
    const windowFrom = Date.now();
    await lap(exA);
    const scaleCyclesP = countLoggedCycles(simA.handle, intervalMs, windowFrom, 1);
    await sleep(windowFrom + intervalMs - Date.now());
    const cycle = await lap(exA);
    const simAfter = await snapshot(simA.handle);
    const after = await scrapeSelfCounters(exA.url);

    progress("per-cycle: waiting for two complete cycles");
    const perCycle = await perCycleP;
    await exB.handle.stop();
    await stopSimProcess(simB.handle);

    progress(`scale: ${args.scrapes} timed scrapes per variant, exporter and static floor in turn`);
    const scraper = new Scraper(exA.url);
    const bodies: Record<string, Buffer> = {};
    for (const v of VARIANTS) bodies[v.name] = (await scraper.checked("/metrics", v)).body;
    // The floor serves the exporter's own answers, scraped in turn with the exporter so both
    // are measured under the same background load (the exporter keeps polling meanwhile).
    const floorChild = forkChild("static floor", new URL("./baselineProcess.js", import.meta.url), []);
    children.push(floorChild);
    const floorInfo = await floorChild.rpc.call<BaselineInfo>("start", { kind: "static", bodies }, 60_000);
    const floor = new Scraper(floorInfo.url);
    const exporterLat = new Map<string, Summary>();
    const floorLat = new Map<string, Summary>();
    await lap(exA);
    for (const v of VARIANTS) {
      const [e, f] = await interleaved([scraper, floor], "/metrics", v, args.scrapes);
      exporterLat.set(v.name, summarize(e?.ms ?? []));
      floorLat.set(v.name, summarize(f?.ms ?? []));
    }
    const scrapes = await lap(exA);
    await Promise.all([scraper.close(), floor.close()]);
    await floorChild.stop();
    progress("scale: counting the measured cycle's requests");
    const scaleCycles = await scaleCyclesP;
    const textBody = (bodies.text as Buffer).toString("utf8");
    const final = readSelfCounters(parseExposition(textBody).samples);
    const end = await lap(exA);
    const simEnd = await snapshot(simA.handle);
    await exA.handle.stop();
    await stopSimProcess(simA.handle);

    progress("baseline: prom-client registry of the same samples, exporter stopped");
    const promLat = await baselineLatencies(
      { kind: "prom-client", exposition: textBody },
      args.baselineScrapes,
    );

    const minimum = new Map<string, number>([
      ["POST /v2/clusters/{id}/metrics/query", clusters + scopeCount],
      ...(collectors.importJobs ? ([["POST /v2/vectordb/jobs/import/list", clusters]] as const) : []),
      ...(collectors.inventory
        ? ([
            ["GET /v2/clusters/{id}", clusters],
            ["GET /v2/regions", 1],
            ["GET /v2/projects", 1],
          ] as const)
        : []),
      ...(collectors.sparkJobs
        ? ([
            ["GET /v2/projects/{projectId}/jobs/{jobId}", simA.info.sparkJobs.length],
            // Spark job discovery: one listing page per cluster (the simulated clusters hold few jobs).
            ["GET /v2/jobs", clusters],
          ] as const)
        : []),
    ]);
    return {
      args,
      clusters,
      collectors,
      estimate: { ...est, scopes: wanted },
      scopes: scopeCount,
      intervalMs,
      firstCycleMs,
      firstCycle,
      warmup,
      cycle,
      scrapes,
      end,
      simCycleCpuMs: simAfter.cpuMs - simBefore.cpuMs,
      window: {
        simRequests: delta(
          new Map(Object.entries(simAfter.byEndpoint)),
          new Map(Object.entries(simBefore.byEndpoint)),
        ),
        exporterRequests: delta(after.requests, before.requests),
        retries: delta(after.retries, before.retries),
        polls: delta(after.polls, before.polls),
        skipped: total(after.skipped) - total(before.skipped),
      },
      minimum,
      rateLimitedScale: simEnd.rateLimited,
      exporterRateLimited: total(final.rateLimited),
      sampleLines: parseExposition(textBody).samples.length,
      storeSeries: final.storeSeries,
      bytes: Object.fromEntries(Object.entries(bodies).map(([k, b]) => [k, b.length])),
      latencies: { exporter: exporterLat, promClient: promLat.latencies, floor: floorLat },
      baseline: promLat.info,
      perCycle,
      scaleCycles,
      footprint,
    };
  } finally {
    await Promise.allSettled([
      ...children.map((c) => c.stop()),
      stopSimProcess(simA.handle),
      stopSimProcess(simB.handle),
    ]);
  }
}

function collectorsText(c: Collectors): string {
  const on = [
    "cluster_metrics",
    c.importJobs && "import_jobs",
    c.sparkJobs && "spark_jobs",
    c.inventory && "inventory",
    c.dataProtection === true && "backups, global_clusters",
  ];
  return on.filter(Boolean).join(", ");
}

function machineLine(): string {
  const cpu = cpus();
  return `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown"}), ${platform()} ${arch()}, node ${process.version}`;
}

function render(r: Results): { text: string; ok: boolean } {
  const lines: string[] = [];
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
  lines.push("vdbcloud-exporter benchmark");
  lines.push(machineLine());
  lines.push(
    "processes: simulator, exporter (node dist-bench/src/main.js --config FILE, probe preloaded) and baselines each in their own",
  );
  lines.push("");
  lines.push(
    `scale scenario: ${r.clusters} clusters, one API key, simulator limit ${RATE_LIMIT} req/s per endpoint`,
  );
  lines.push(`  collectors: ${collectorsText(r.collectors)}; default metric queries (full catalog)`);
  lines.push(
    `  sizing (pilot): ${r.estimate.perCluster.toFixed(1)} series per cluster, ${r.estimate.perScope.toFixed(1)} per ` +
      `scope, ${r.estimate.global} global -> ${r.estimate.scopes} scopes needed for ${r.args.series}; ${r.scopes} configured`,
  );
  lines.push(
    `  interval ${isoDuration(r.intervalMs)} (granularity PT30S); ${describeFirstCycle(r.firstCycle)}`,
  );
  lines.push(
    `  series exposed: ${r.storeSeries} from the store + ${r.sampleLines - r.storeSeries} self-metrics = ` +
      `${r.sampleLines} sample lines; body ${mb(r.bytes.text ?? 0)} text, ${mb(r.bytes["text+gzip"] ?? 0)} gzip`,
  );
  lines.push("");
  lines.push(
    "/metrics latency, ms (sequential scrapes, one keep-alive connection per server, time to last byte; exporter " +
      "and floor scraped in turn while the exporter polls; prom-client alone, after the exporter stopped)",
  );
  const rows: string[][] = [["server / variant", "scrapes", "p50", "p99", "max", "bytes"]];
  const add = (server: string, m: ReadonlyMap<string, Summary>) => {
    for (const [variant, s] of m) {
      rows.push([
        `${server} ${variant}`,
        String(s.count),
        ms(s.p50),
        ms(s.p99),
        ms(s.max),
        String(r.bytes[variant] ?? ""),
      ]);
    }
  };
  add("exporter", r.latencies.exporter);
  add("static Buffer, node:http (floor)", r.latencies.floor);
  add("prom-client registry.metrics()", r.latencies.promClient);
  lines.push(table(rows));
  lines.push(
    `  prom-client baseline: ${r.baseline.series} gauge samples, built in ${(r.baseline.buildMs / 1000).toFixed(1)} s; ` +
      "gzip per request with zlib.gzip",
  );
  lines.push("");
  lines.push(
    "exporter process (monitorEventLoopDelay, 1 ms resolution; own stall: the longest stall of a 5 ms timer less the time the thread waited for a CPU, from /proc/thread-self/schedstat; CPU from process.cpuUsage)",
  );
  lines.push(
    table([
      [
        "window",
        "wall s",
        "CPU s",
        "loop delay max ms",
        "p99 ms",
        "own stall max ms",
        "GC pause max ms",
        "GC total ms",
      ],
      ...(
        [
          ["first cycle (all targets at once)", r.warmup],
          ["one full cycle, no scrapes", r.cycle],
          [`scrapes (${VARIANTS.length} x ${r.args.scrapes})`, r.scrapes],
        ] as const
      ).map(([name, l]) => [
        name,
        (l.wallMs / 1000).toFixed(1),
        ((l.cpuUserMs + l.cpuSystemMs) / 1000).toFixed(2),
        ms(l.loopDelayMaxMs),
        ms(l.loopDelayP99Ms),
        l.stalls.ownMaxMs === null ? "-" : ms(l.stalls.ownMaxMs),
        ms(l.gcMaxMs),
        l.gcTotalMs.toFixed(0),
      ]),
    ]),
  );
  const cycleCpuS = (r.cycle.cpuUserMs + r.cycle.cpuSystemMs) / 1000;
  lines.push(
    `  CPU per cycle: ${cycleCpuS.toFixed(2)} s (user ${(r.cycle.cpuUserMs / 1000).toFixed(2)} + system ` +
      `${(r.cycle.cpuSystemMs / 1000).toFixed(2)}) over ${isoDuration(r.intervalMs)} = ` +
      `${((cycleCpuS * 100000) / r.cycle.wallMs).toFixed(1)}% of one core; simulator ${(r.simCycleCpuMs / 1000).toFixed(2)} s`,
  );
  lines.push(
    `  memory after the first cycle: RSS ${mib(r.warmup.rssBytes)}, heap used ${mib(r.warmup.heapUsedBytes)} of ` +
      `${mib(r.warmup.heapTotalBytes)}, external ${mib(r.warmup.externalBytes)}; at the end: RSS ${mib(r.end.rssBytes)}, ` +
      `heap used ${mib(r.end.heapUsedBytes)}`,
  );
  const peak = Math.max(...[r.warmup, r.cycle, r.scrapes, r.end].map((l) => l.rssPeakBytes));
  lines.push(
    `  RSS (sampled every 250 ms; runtime ${r.args.runtime.name}: ${describeRuntime(r.args.runtime)}): steady (one full cycle, no scrapes) ${mib(r.cycle.rssMinBytes)} to ${mib(r.cycle.rssPeakBytes)}; ` +
      `during scrapes ${mib(r.scrapes.rssMinBytes)} to ${mib(r.scrapes.rssPeakBytes)}; peak over the run ` +
      `${mib(peak)} (first cycle ${mib(r.warmup.rssPeakBytes)}); ` +
      `${(r.cycle.rssPeakBytes / Math.max(1, r.storeSeries) / 1024).toFixed(2)} KiB per series at the steady peak`,
  );
  lines.push(
    `  module footprint at start (one cluster, ready, after a full GC): RSS ${formatResting(r.footprint.exporter)}, ` +
      `heap used ${mib(r.footprint.exporter.heapUsedBytes)}; at rest in the same way: plain node ` +
      `${formatResting(r.footprint.node)}, node holding only the runtime dependencies ` +
      `${formatResting(r.footprint.dependencies)}, heap used ${mib(r.footprint.dependencies.heapUsedBytes)}`,
  );
  lines.push("");
  lines.push("upstream requests in the measured cycle (one interval), against the minimum of one per target");
  const reqRows: string[][] = [["endpoint", "simulator saw", "minimum", "exporter sent", "retries"]];
  for (const [endpoint, min] of r.minimum) {
    reqRows.push([
      endpoint,
      String(r.window.simRequests.get(endpoint) ?? 0),
      String(min),
      String(r.window.exporterRequests.get(endpoint) ?? 0),
      String(r.window.retries.get(endpoint) ?? 0),
    ]);
  }
  lines.push(table(reqRows));
  lines.push(
    `  Query Cluster Metrics requests of the cycle's slots (each attributed to its target's slot): ` +
      `${r.scaleCycles.map((c) => `${c.requests} requests / ${c.distinctTargets} targets`).join(", ")}; ` +
      `minimum ${r.clusters + r.scopes} (${r.clusters} clusters + ${r.scopes} scopes)`,
  );
  lines.push(
    `  polls completed in the window: ${[...r.window.polls].map(([c, n]) => `${c} ${n}`).join(", ")}; ` +
      `skipped runs ${r.window.skipped}. Spark jobs that settled are no longer polled.`,
  );
  lines.push(
    `  rate limiting, whole run: simulator 429 answers ${r.rateLimitedScale}; exporter rate-limit answers seen ${r.exporterRateLimited}`,
  );
  lines.push("");
  const pc = r.perCycle;
  lines.push(
    `per-cycle scenario: ${pc.targets} targets, cluster metrics only, interval ${isoDuration(pc.intervalMs)}, one API key ` +
      `(= ${(pc.targets / (pc.intervalMs / 1000)).toFixed(0)} req/s of the ${RATE_LIMIT} req/s budget)`,
  );
  lines.push(
    `  first cycle ${(pc.firstCycleMs / 1000).toFixed(0)} s; complete cycles: ` +
      `${pc.cycles.map((c) => `${c.requests} requests / ${c.distinctTargets} targets / ${c.rateLimited} x 429`).join("; ")}`,
  );
  lines.push(
    `  simulator 429 answers ${pc.rateLimited}; exporter retries ${pc.retries}; skipped runs ${pc.skippedAtStart} while the start-up burst drained, ${pc.skippedRuns} after the first cycle`,
  );
  lines.push("");
  const checks = evaluateTargets({
    latencies: r.latencies,
    // The first cycle counts too: it is when every target lands at once on JIT-cold code.
    stalls: {
      "first cycle": r.warmup.stalls,
      cycle: r.cycle.stalls,
      scrapes: r.scrapes.stalls,
    },
    maxRssBytes: peak,
    rateLimited: { scale: r.rateLimitedScale, [`${pc.targets} targets`]: pc.rateLimited },
    perCycle: [
      {
        name: "scale",
        targets: r.clusters + r.scopes,
        cycles: r.scaleCycles,
      },
      { name: `${pc.targets} targets`, targets: pc.targets, cycles: pc.cycles },
    ],
  });
  const memory = evaluateMemoryGoals({
    series: r.storeSeries,
    steadyRssBytes: r.cycle.rssPeakBytes,
    peakRssBytes: peak,
    footprintBytes: r.footprint.exporter.rssBytes,
    dependenciesFootprintBytes: r.footprint.dependencies.rssBytes,
    latencies: r.latencies,
  });
  const all = [firstCycleCheck(r.firstCycle), ...checks, ...memory];
  lines.push("targets");
  lines.push(formatChecks(all));
  return { text: `${lines.join("\n")}\n`, ok: all.every((c) => c.pass) };
}

runEntry({
  name: "bench",
  usage: BENCH_USAGE,
  parse: parseBenchArgs,
  body: async (args) => {
    const report =
      args.budget.length > 0
        ? renderBudget(
            await runBudgetScenarios(args.budget, args.modes, args.cycles, progress),
            machineLine(),
          )
        : args.startupStall
          ? renderStall(await runStartupStall(progress), machineLine())
          : args.collections
            ? renderCollections(
                await runCollectionsScale(args.collections, Math.min(args.scrapes, 100), progress),
                machineLine(),
              )
            : args.steady
              ? renderSteady(await runSteady(args.scrapes, progress, args.profile, args.keys), machineLine())
              : withCostCalls(render(await run(args)), await renderCostCalls(progress));
    progress(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    return report;
  },
});
