/**
 * Sizing the benchmark: how many series one cluster, one collection scope and the
 * organisation-wide listings produce, measured by running the real exporter in-process
 * against an unthrottled simulator of the same world on a sample of its clusters. The
 * benchmark then adds as many scopes as it takes to reach its series target.
 */
import { pino } from "pino";
import { Exporter } from "../src/app/exporter.js";
import { buildConfig } from "../src/config/load.js";
import { startSimulator } from "../src/simulator/index.js";
import { type Collectors, chooseScopes, scenarioConfig } from "./config.js";
import { sleep } from "./entry.js";
import { BenchError } from "./errors.js";
import { type ParsedSample, parseExposition } from "./exposition.js";

/** Series per cluster (every enabled collector, health included), per scope, and global. */
export interface SeriesEstimate {
  readonly perCluster: number;
  readonly perScope: number;
  readonly global: number;
  readonly sampledClusters: number;
}

const HEALTH = new Set(["vdbcloud_collector_up", "vdbcloud_collector_last_success_timestamp_seconds"]);

/**
 * Which part of the estimate a store series belongs to: a polled cluster's own (its
 * `cluster_id`, or a health series whose target is that cluster), one of its scopes (a
 * `db_name` too, or a health target under the cluster), or the organisation's (everything
 * else: projects, regions, Spark jobs, on-demand clusters, the console's rules, listings'
 * health), which does not grow with the polled clusters.
 */
export function seriesKind(
  s: Pick<ParsedSample, "name" | "labels">,
  polled: ReadonlySet<string>,
): "cluster" | "scope" | "global" {
  if (HEALTH.has(s.name)) {
    const [cluster = "", ...rest] = (s.labels.target ?? "").split("/");
    if (!polled.has(cluster)) return "global";
    return s.labels.collector === "cluster_metrics" && rest.length > 0 ? "scope" : "cluster";
  }
  if (!polled.has(s.labels.cluster_id ?? "")) return "global";
  return s.labels.db_name !== undefined ? "scope" : "cluster";
}

/** Counts the sample lines of an exposition by kind and divides per sampled cluster/scope. */
export function estimateFrom(
  text: string,
  polled: ReadonlySet<string>,
  sampledScopes: number,
): SeriesEstimate {
  const n = { cluster: 0, scope: 0, global: 0 };
  for (const s of parseExposition(text).samples) n[seriesKind(s, polled)]++;
  return {
    perCluster: n.cluster / polled.size,
    perScope: sampledScopes > 0 ? n.scope / sampledScopes : 0,
    global: n.global,
    sampledClusters: polled.size,
  };
}

/** Scopes to add so that `clusters` clusters reach about `target` series (0 if already there). */
export function scopesNeeded(est: SeriesEstimate, clusters: number, target: number): number {
  const base = est.perCluster * clusters + est.global;
  if (base >= target || est.perScope <= 0) return 0;
  return Math.ceil((target - base) / est.perScope);
}

/**
 * Clusters of the scenario when the user named none: `max`, or fewer where their own series
 * (every collector on) would pass `target` (at least one). The goals are set at a series count,
 * and each collector added since adds series per cluster: at 1,000 clusters every collector
 * makes ~128,000 series, past the 100,000 the goals speak of.
 */
export function clustersFor(est: SeriesEstimate, max: number, target: number): number {
  if (est.perCluster <= 0) return max;
  return Math.max(1, Math.min(max, Math.floor((target - est.global) / est.perCluster)));
}

/**
 * Runs the pilot: `sample` clusters spread over a world of `clusters` (same seed and shape as
 * the benchmark's), each with one scope, all collectors of `collectors`, no rate limit.
 */
export async function runPilot(opts: {
  readonly clusters: number;
  readonly seed: number;
  readonly collectionsPerCluster: number;
  readonly collectors: Collectors;
  readonly sample: number;
}): Promise<SeriesEstimate> {
  const sim = await startSimulator({
    clusters: opts.clusters,
    seed: opts.seed,
    collectionsPerCluster: opts.collectionsPerCluster,
    rateLimitPerSecond: 0,
  });
  let exporter: Exporter | undefined;
  try {
    const k = Math.min(opts.sample, sim.clusters.length);
    const sampled = Array.from(
      { length: k },
      (_, i) => sim.clusters[Math.floor((i * sim.clusters.length) / k)],
    ).filter((c) => c !== undefined);
    const world = {
      baseUrl: sim.baseUrl,
      controllerUrlTemplate: sim.controllerUrlTemplate,
      clusters: sampled,
      sparkJobs: sim.state.sparkJobRefs,
    };
    const scopes = chooseScopes(world.clusters, sampled.length);
    const raw = scenarioConfig({
      sim: world,
      apiKey: "bench-pilot",
      intervalMs: 300_000,
      scopes,
      collectors: opts.collectors,
      rateLimit: 1000,
      maxInFlight: 32,
    });
    exporter = new Exporter({
      config: await buildConfig(raw),
      logger: pino({ level: "silent" }),
      version: "bench-pilot",
      defaultMetrics: false,
      publishDelayMs: 10,
    });
    await exporter.start();
    const deadline = Date.now() + 60_000;
    while (!exporter.ready()) {
      if (Date.now() > deadline)
        throw new BenchError("child_timeout", "pilot: first cycle did not complete in 60 s");
      await sleep(50);
    }
    const published = await exporter.store.publishNow();
    const scopeCount = [...scopes.values()].reduce((n, s) => n + s.length, 0);
    const polled = new Set(sampled.map((c) => c.id));
    return estimateFrom(published.text.toString("utf8"), polled, scopeCount);
  } finally {
    await exporter?.stop();
    await sim.close();
  }
}
