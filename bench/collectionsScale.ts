/**
 * `npm run bench -- --collections CxN`: C clusters with N collections each, every collection
 * discovered through its cluster's data plane and polled as a per-collection metrics scope
 * (load state, row count and indexes on), with every other collector on. Measured once the first
 * metrics cycle covered every target: series exposed, the exporter's RSS, scrape p50/p99 per
 * variant, upstream calls of the first cycle (control plane) and of one collections cycle
 * (data plane), 429 answers and mutating calls.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DATA_PLANE_ENDPOINT, ENDPOINT } from "../src/upstream/types.js";
import { startExporterProcess, startSimProcess, stopSimProcess } from "./children.js";
import { benchTempDir, cycleIntervalMs, isoDuration, scenarioConfig, writeConfigFile } from "./config.js";
import { sleep } from "./entry.js";
import { BenchError } from "./errors.js";
import { parseExposition } from "./exposition.js";
import type { Lap } from "./probe.js";
import { type Check, LIMITS, mb, ms, table } from "./report.js";
import { Scraper, VARIANTS } from "./scrape.js";
import type { SimSnapshot } from "./simProcess.js";
import { type Summary, summarize } from "./stats.js";

/** Clusters and collections per cluster of the scenario (`--collections 100x50`). */
export interface CollectionsShape {
  readonly clusters: number;
  readonly perCluster: number;
}

/** Parses `CxN` (e.g. 100x50). Throws BenchError (bad_arguments). */
export function parseCollectionsShape(text: string): CollectionsShape {
  const m = /^(\d+)x(\d+)$/.exec(text.trim());
  const clusters = Number(m?.[1]);
  const perCluster = Number(m?.[2]);
  if (!m || clusters < 1 || clusters > 10_000 || perCluster < 1 || perCluster > 1000) {
    throw new BenchError(
      "bad_arguments",
      `--collections takes CLUSTERSxCOLLECTIONS (1..10000 x 1..1000), e.g. 100x50, got ${text}`,
    );
  }
  return { clusters, perCluster };
}

const COLLECTIONS_INTERVAL_MS = 60_000;
const METRICS = ENDPOINT.queryClusterMetrics;
const DATA_PLANE: readonly string[] = Object.values(DATA_PLANE_ENDPOINT);

export interface CollectionsResult {
  readonly shape: CollectionsShape;
  readonly metricTargets: number;
  readonly metricsIntervalMs: number;
  readonly discoveredMs: number;
  readonly firstCycleMs: number;
  readonly series: number;
  readonly collectionInfo: number;
  readonly lap: Lap;
  readonly latencies: ReadonlyMap<string, Summary>;
  /** Control-plane requests from start until every metric target was polled once. */
  readonly firstCycle: Readonly<Record<string, number>>;
  /** Data-plane requests over one collections interval, after the first cycle. */
  readonly collectionsCycle: Readonly<Record<string, number>>;
  readonly rateLimited: number;
  readonly mutatingCalls: number;
}

function deltaOf(after: SimSnapshot, before: SimSnapshot | undefined, keep: (k: string) => boolean) {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(after.byEndpoint)) {
    const d = v - (before?.byEndpoint[k] ?? 0);
    if (keep(k) && d > 0) out[k] = d;
  }
  return out;
}

/** Runs the scenario once; `scrapes` timed scrapes per variant. */
export async function runCollectionsScale(
  shape: CollectionsShape,
  scrapes: number,
  progress: (message: string) => void,
): Promise<CollectionsResult> {
  const sim = await startSimProcess({
    clusters: shape.clusters,
    seed: 3,
    collectionsPerCluster: shape.perCluster,
    rateLimitPerSecond: 20,
    recordMetricRequests: false,
  });
  const snap = () => sim.handle.rpc.call<SimSnapshot>("snapshot");
  let stopExporter = async (): Promise<void> => {};
  try {
    const metricTargets = shape.clusters * (shape.perCluster + 1);
    const metricsIntervalMs = cycleIntervalMs(metricTargets, 20);
    const raw = scenarioConfig({
      sim: sim.info,
      apiKey: "collections-key",
      intervalMs: metricsIntervalMs,
      collectors: { importJobs: true, sparkJobs: true, inventory: true },
    });
    // Clusters whose data plane takes a user credential get it from a token file.
    const tokens = await mkdtemp(join(benchTempDir(), "tokens-"));
    raw.clusters = await Promise.all(
      (raw.clusters as Array<Record<string, unknown>>).map(async (c) => {
        const credential = sim.info.clusters.find((s) => s.id === c.id)?.dataPlaneCredential;
        if (credential === undefined) return c;
        const file = join(tokens, `${String(c.id)}.token`);
        await writeFile(file, `${credential}\n`, { mode: 0o600 });
        return { ...c, data_plane: { token_file: file } };
      }),
    );
    raw.collections = {
      enabled: true,
      interval: isoDuration(COLLECTIONS_INTERVAL_MS),
      max_per_cluster: shape.perCluster,
      load_state: true,
      row_count: true,
    };
    const cfg = await writeConfigFile("collections", raw);
    const startedAt = Date.now();
    const exporter = await startExporterProcess(cfg);
    stopExporter = () => exporter.handle.stop();
    await exporter.handle.rpc.call<Lap>("lap");
    progress(
      `collections: ${shape.clusters} clusters x ${shape.perCluster} collections, ${metricTargets} metric ` +
        `targets at ${isoDuration(metricsIntervalMs)}; waiting for every target's first poll`,
    );
    const deadline = startedAt + 4 * metricsIntervalMs + 120_000;
    let discoveredMs = Number.NaN;
    let last: SimSnapshot;
    for (;;) {
      last = await snap();
      const loadStates = last.byEndpoint[DATA_PLANE_ENDPOINT.getLoadState] ?? 0;
      if (Number.isNaN(discoveredMs) && loadStates >= shape.clusters * shape.perCluster)
        discoveredMs = Date.now() - startedAt;
      if ((last.byEndpoint[METRICS] ?? 0) >= metricTargets) break;
      if (Date.now() > deadline || exporter.handle.hasExited())
        throw new BenchError("child_failed", "the first metrics cycle did not cover every target in time");
      await sleep(2000);
    }
    const firstCycleMs = Date.now() - startedAt;
    const firstCycle = deltaOf(last, undefined, (k) => !DATA_PLANE.includes(k));
    progress(`first cycle done in ${(firstCycleMs / 1000).toFixed(0)} s; one collections interval`);
    const before = await snap();
    await sleep(COLLECTIONS_INTERVAL_MS);
    const after = await snap();
    const collectionsCycle = deltaOf(after, before, (k) => DATA_PLANE.includes(k));
    await exporter.handle.rpc.call<Lap>("lap");
    const scraper = new Scraper(exporter.url);
    const body = (await scraper.get("/metrics", VARIANTS[0] as (typeof VARIANTS)[number], 60_000)).body;
    const parsed = parseExposition(body.toString("utf8"));
    const latencies = new Map<string, Summary>();
    for (const v of VARIANTS)
      latencies.set(v.name, summarize((await scraper.series("/metrics", v, scrapes)).ms));
    await scraper.close();
    const lap = await exporter.handle.rpc.call<Lap>("lap");
    const end = await snap();
    return {
      shape,
      metricTargets,
      metricsIntervalMs,
      discoveredMs,
      firstCycleMs,
      series: parsed.samples.length,
      collectionInfo: parsed.samples.filter((s) => s.name === "vdbcloud_collection_info").length,
      lap,
      latencies,
      firstCycle,
      collectionsCycle,
      rateLimited: end.rateLimited,
      mutatingCalls: end.mutatingCalls,
    };
  } finally {
    await stopExporter();
    await stopSimProcess(sim.handle);
  }
}

/** The report of the collections scenario, with its checks (the scale scenario's limits). */
export function renderCollections(r: CollectionsResult, machine: string): { text: string; ok: boolean } {
  const expected = r.shape.clusters * r.shape.perCluster;
  const worstP99 = Math.max(...[...r.latencies.values()].map((s) => s.p99));
  const checks: Check[] = [
    {
      name: "every collection discovered",
      pass: r.collectionInfo === expected,
      detail: `${r.collectionInfo} of ${expected}`,
    },
    { name: `p99 < ${LIMITS.p99Ms} ms`, pass: worstP99 < LIMITS.p99Ms, detail: `${ms(worstP99)} ms` },
    {
      name: `RSS < ${mb(LIMITS.rssBytes)}`,
      pass: r.lap.rssBytes < LIMITS.rssBytes,
      detail: mb(r.lap.rssBytes),
    },
    { name: "0 rate-limit answers", pass: r.rateLimited === 0, detail: String(r.rateLimited) },
    { name: "0 mutating calls", pass: r.mutatingCalls === 0, detail: String(r.mutatingCalls) },
  ];
  const calls = (rec: Readonly<Record<string, number>>) =>
    Object.entries(rec)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, String(v)]);
  const lines = [
    "vdbcloud-exporter collections scale",
    machine,
    `${r.shape.clusters} clusters x ${r.shape.perCluster} collections (load state, row count, indexes, a metrics scope ` +
      `each), every collector on; ${r.metricTargets} metric targets at ${isoDuration(r.metricsIntervalMs)}, ` +
      `collections at ${isoDuration(COLLECTIONS_INTERVAL_MS)}`,
    `every collection's load state read after ${(r.discoveredMs / 1000).toFixed(1)} s; every metric target ` +
      `polled once after ${(r.firstCycleMs / 1000).toFixed(1)} s`,
    `series exposed: ${r.series}; RSS ${mb(r.lap.rssBytes)} (heap used ${mb(r.lap.heapUsedBytes)})`,
    "",
    table([
      ["/metrics variant", "scrapes", "p50 ms", "p99 ms", "max ms"],
      ...[...r.latencies].map(([name, s]) => [name, String(s.count), ms(s.p50), ms(s.p99), ms(s.max)]),
    ]),
    "",
    "control-plane calls of the first cycle (every target once)",
    table([["endpoint", "calls"], ...calls(r.firstCycle)]),
    "",
    `data-plane calls per collections cycle (one ${isoDuration(COLLECTIONS_INTERVAL_MS)} interval)`,
    table([["endpoint", "calls"], ...calls(r.collectionsCycle)]),
    "",
    "targets",
    ...checks.map((c) => `  [${c.pass ? "PASS" : "FAIL"}] ${c.name}: ${c.detail}`),
  ];
  return { text: `${lines.join("\n")}\n`, ok: checks.every((c) => c.pass) };
}
