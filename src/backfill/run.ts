/**
 * `vdbcloud-exporter backfill`: the configured metrics targets' past windows as OpenMetrics
 * with timestamps, for `promtool tsdb create-blocks-from openmetrics`. Targets, requests,
 * client (rate limiter and retries) and mapping are the live collector's; this module only
 * cuts the window into chunks, runs them, and joins the finished ones into the output.
 */
import { createWriteStream } from "node:fs";
import { rename } from "node:fs/promises";
import type { Writable } from "node:stream";
import { ApiClients, FOREGROUND_CLOCK } from "../api-clients/apiClients.js";
import { discoverClusters } from "../collectors/cluster-discovery/tasks.js";
import { mapClusterMetricsHistory } from "../collectors/cluster-metrics/history.js";
import { type MetricsTarget, metricsTargets } from "../collectors/cluster-metrics/targets.js";
import { listAllCollections } from "../collectors/collections/collectionDiscovery.js";
import { collectionScopes } from "../collectors/collections/scopes.js";
import { selectCollections } from "../collectors/collections/select.js";
import { reportConfigError } from "../config/errors.js";
import { loadConfig } from "../config/load.js";
import type { ClusterConfig, Config, ScopeConfig } from "../config/types.js";
import { familyFilter } from "../metrics/familyFilter.js";
import { dataPlaneOf } from "../polling/dataPlanes.js";
import { describeError } from "../polling/errors.js";
import { replicaClusters, withFoundScopes } from "../polling/targets.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../shared/exitCodes.js";
import type { CloudClient } from "../upstream/client.js";
import type { ClientObserver } from "../upstream/types.js";
import { BACKFILL_USAGE, BackfillArgsError, parseBackfillArgs, resolveWindow } from "./args.js";
import { backfillCost, costChunks } from "./billing.js";
import { bucketsPerCall, CallSize, type Span, splitSpan } from "./chunks.js";
import { fetchChunk } from "./fetch.js";
import { writeOpenMetrics } from "./openmetrics.js";
import { Progress, type ProgressSink } from "./progress.js";
import { BackfillRefusals } from "./refused.js";
import { ChunkSpool } from "./spool.js";
import { chunkKey, commandIdentity, openWorkState, removeWorkState } from "./state.js";

/** Calls in flight at once: the limiter paces them; this only overlaps their latency. */
const MAX_CONCURRENT_CALLS = 8;

/** What a backfill run talks to; the defaults are the process's. */
interface BackfillIo {
  readonly stdout: Writable;
  readonly stderr: ProgressSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
  readonly cwd: string;
  /** Fires on Ctrl-C / SIGTERM: finished chunks are kept, the run ends with exit 1. */
  readonly signal: AbortSignal;
  readonly version: string;
}

/** Counts what the client saw, for the summary (rate-limit answers must stay at 0). */
class CallCounts implements ClientObserver {
  attempts = 0;
  retries = 0;
  rateLimitAnswers = 0;
  attempt(): void {
    this.attempts += 1;
  }
  retry(): void {
    this.retries += 1;
  }
  rateLimited(): void {
    this.rateLimitAnswers += 1;
  }
  schemaError(): void {}
}

/** One chunk of one target to fetch. */
interface Job {
  readonly target: number;
  readonly span: Span;
  readonly key: string;
}

/** Runs `backfill` with the arguments after the word; resolves with the exit code. */
export async function runBackfill(argv: readonly string[], io: BackfillIo): Promise<number> {
  let args: ReturnType<typeof parseBackfillArgs>;
  try {
    args = parseBackfillArgs(argv, io.env);
  } catch (err) {
    if (err instanceof BackfillArgsError) return usageError(io, err.message);
    throw err;
  }
  if (args.help) {
    io.stdout.write(`${BACKFILL_USAGE}\n`);
    return EXIT_OK;
  }
  let config: Config;
  try {
    config = await loadConfig(args.configPath);
  } catch (err) {
    return reportConfigError(err, io.stderr);
  }
  const identity = commandIdentity(args, io.cwd);
  let work: Awaited<ReturnType<typeof openWorkState>>;
  try {
    work = await openWorkState(identity, () => resolveWindow(args, config.metrics, io.now()));
  } catch (err) {
    if (err instanceof BackfillArgsError) return usageError(io, err.message);
    throw err;
  }
  const { window } = work;
  const g = window.granularityMs;

  const calls = new CallCounts();
  // The exporter's own clients: the same pacing, retries and data-plane credentials.
  const clients = new ApiClients({
    config: () => config,
    // A one-shot command, not one of several replicas: each key's whole budget.
    shard: { index: 0, total: 1 },
    version: io.version,
    observer: calls,
    clock: FOREGROUND_CLOCK,
    onCloseError: () => {},
  });
  const clientFor = clients.forCluster;
  const failures: string[] = [];
  try {
    const clusters = await withCollections(
      config,
      await backfillClusters(config, clientFor({}), io.signal, failures),
      clients,
      io.signal,
      failures,
    );
    const targets = metricsTargets(config.metrics, clusters);
    const costs = costChunks(config, window, io.now());
    if (targets.length === 0 && costs.length === 0 && failures.length === 0) {
      return usageError(
        io,
        "--config: no metrics target to backfill (list clusters, or enable discovery), and no whole day of cost (billing)",
      );
    }
    const spool = new ChunkSpool(work.dir);
    const spansByTarget = targets.map((t) => spansOfTarget(t, window, g));
    const jobs = spansByTarget.flatMap((spans, target) =>
      spans.map((span) => ({ target, span, key: chunkKey(targets[target] as MetricsTarget, g, span) })),
    );
    const pending = jobs.filter((j) => !spool.isDone(j.key));
    const progress = new Progress(
      jobs.length,
      jobs.length - pending.length,
      args.quiet ? undefined : io.stderr,
      io.now,
    );
    if (work.resumed && !args.quiet) {
      io.stderr.write(
        `backfill: resuming, ${jobs.length - pending.length} of ${jobs.length} chunks already done\n`,
      );
    }
    progress.start();
    const refusals = new BackfillRefusals();
    const failed = await runJobs(pending, {
      targets,
      spool,
      clientFor,
      progress,
      g,
      signal: io.signal,
      io,
      refusals,
    });
    progress.stop();
    if (!io.signal.aborted) {
      failures.push(
        ...(await backfillCost(config, costs, { clients, spool, signal: io.signal, nowMs: io.now() })),
      );
    }
    for (const [t, message] of failed) failures.push(`${(targets[t] as MetricsTarget).name}: ${message}`);
    if (io.signal.aborted) {
      io.stderr.write(
        `backfill: interrupted; ${jobs.length - pending.length + countDone(pending, spool)} of ${jobs.length} chunks are done and kept in ${work.dir}; run the same command again to finish\n`,
      );
      return EXIT_FAILURE;
    }
    const keys = spansByTarget.map((spans, t) =>
      spans.map((span) => chunkKey(targets[t] as MetricsTarget, g, span)),
    );
    // Cost is one more target: its months in order.
    keys.push(costs.map((c) => c.key));
    const filter = familyFilter(config.families);
    await writeOutput(args.output, io.stdout, (out) =>
      writeOpenMetrics(spool, keys, out, (family) => filter.exposes(family)),
    );
    if (!args.quiet) {
      io.stderr.write(
        `backfill: wrote ${args.output === "-" ? "standard output" : args.output}: ${targets.length} targets, ${calls.attempts} API attempts, ${calls.retries} retries, ${calls.rateLimitAnswers} rate-limit answers\n`,
      );
    }
    for (const r of refusals.list()) {
      io.stderr.write(
        `backfill: ${r.target}: the service refused metric query ${r.query.name}${r.query.stat ? ` (${r.query.stat})` : ""}: ${r.message}; it is not written\n`,
      );
    }
    if (failures.length > 0) {
      io.stderr.write(
        `backfill: ${failures.length} target(s) failed (their finished chunks are written; run the same command again to retry them):\n${failures.map((f) => `  ${f}\n`).join("")}`,
      );
      return EXIT_FAILURE;
    }
    await removeWorkState(work.dir);
    return EXIT_OK;
  } finally {
    await clients.closeAll();
  }
}

function usageError(io: BackfillIo, message: string): number {
  io.stderr.write(`error: ${message}\n`);
  return EXIT_USAGE;
}

function countDone(jobs: readonly Job[], spool: ChunkSpool): number {
  return jobs.filter((j) => spool.isDone(j.key)).length;
}

/** The configured clusters, and the discovered ones when cluster discovery is on (as the exporter). */
async function backfillClusters(
  config: Config,
  client: CloudClient,
  signal: AbortSignal,
  failures: string[],
): Promise<ClusterConfig[]> {
  const discovery = config.inventory.discovery;
  let discovered: Awaited<ReturnType<typeof discoverClusters>> = [];
  if (discovery.enabled) {
    try {
      discovered = await discoverClusters(client, discovery, signal);
    } catch (err) {
      failures.push(`discovery: ${describeError(err).message}`);
    }
  }
  return replicaClusters(config, discovered, { index: 0, total: 1 });
}

/**
 * With `collections.enabled` and `collections.scopes`, each cluster's collections as listed now
 * (the live collector's listing and selection) become scopes, as they do live; a cluster whose
 * data plane cannot be listed keeps its configured scopes and is reported.
 */
async function withCollections(
  config: Config,
  clusters: ClusterConfig[],
  clients: ApiClients,
  signal: AbortSignal,
  failures: string[],
): Promise<ClusterConfig[]> {
  const cfg = config.collections;
  if (!cfg.enabled || !cfg.scopes) return clusters;
  const found = new Map<string, ScopeConfig[]>();
  for (const cluster of clusters) {
    try {
      const dp = await dataPlaneOf(
        cluster,
        clients.forCluster(cluster),
        clients.dataPlane,
        signal,
        config.api.dataPlaneHosts,
      );
      const kept = selectCollections((await listAllCollections(dp, signal)).all, cfg).polled;
      found.set(cluster.id, collectionScopes(kept, cfg.queries));
    } catch (err) {
      failures.push(`${cluster.id} collections: ${describeError(err).message}`);
    }
  }
  return withFoundScopes(clusters, found);
}

/** A target's chunks: one call's worth of buckets each, at the default call size. */
function spansOfTarget(target: MetricsTarget, window: { fromMs: number; toMs: number }, g: number): Span[] {
  const queries = Math.max(...target.batches.map((b) => b.queries.length));
  return splitSpan({ startMs: window.fromMs, endMs: window.toMs }, g, bucketsPerCall(queries));
}

interface RunContext {
  readonly targets: readonly MetricsTarget[];
  readonly spool: ChunkSpool;
  readonly clientFor: (cluster: Pick<ClusterConfig, "apiKey">) => CloudClient;
  readonly progress: Progress;
  readonly g: number;
  readonly signal: AbortSignal;
  readonly io: BackfillIo;
  readonly refusals: BackfillRefusals;
}

/**
 * Fetches, maps and spools `jobs` with a few calls in flight. A target whose chunk fails (after
 * the client's retries) is not asked again in this run; returns the failed targets' messages.
 */
async function runJobs(jobs: readonly Job[], ctx: RunContext): Promise<Map<number, string>> {
  const failed = new Map<number, string>();
  const size = new CallSize();
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let job = jobs[next++]; job !== undefined && !ctx.signal.aborted; job = jobs[next++]) {
      if (failed.has(job.target)) continue;
      const target = ctx.targets[job.target] as MetricsTarget;
      try {
        const nowMs = ctx.io.now();
        const results = await fetchChunk(target, job.span, {
          client: ctx.clientFor(target.cluster),
          size,
          granularityMs: ctx.g,
          signal: ctx.signal,
          onCall: () => ctx.progress.call(),
          onRefused: () => ctx.progress.refusal(),
          refusals: ctx.refusals,
        });
        const mapping = mapClusterMetricsHistory({
          clusterId: target.cluster.id,
          ...(target.scope ? { scope: target.scope } : {}),
          results,
          window: { ...job.span, granularityMs: ctx.g, nowMs },
        });
        await ctx.spool.write(job.key, mapping);
        ctx.progress.chunkDone();
      } catch (err) {
        if (ctx.signal.aborted) return;
        if (!failed.has(job.target)) failed.set(job.target, describeError(err).message);
      }
    }
  };
  const workers = Math.max(1, Math.min(MAX_CONCURRENT_CALLS, jobs.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return failed;
}

/** Writes the output to standard output, or to FILE through FILE.partial and a rename. */
async function writeOutput(
  output: string,
  stdout: Writable,
  write: (out: Writable) => Promise<unknown>,
): Promise<void> {
  if (output === "-") {
    await write(stdout);
    return;
  }
  const partial = `${output}.partial`;
  const stream = createWriteStream(partial);
  const finished = new Promise<void>((resolve, reject) => {
    stream.once("finish", resolve);
    stream.once("error", reject);
  });
  await write(stream);
  stream.end();
  await finished;
  await rename(partial, output);
}
