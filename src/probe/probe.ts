/**
 * `--probe`: one small call per endpoint kind and target, through the same client (so the same
 * rate limiter, retries and key redaction) the exporter polls with. Read-only: Describe
 * Cluster, Query Cluster Metrics, List Import Jobs page 1, Describe Spark Job, List Clusters
 * when no cluster is configured, and Query Daily Usage with the billing key when billing is on. Calls are made one at a time, far within the budget.
 */

import { buildMetricQueries } from "../collectors/cluster-metrics/batches.js";
import { resolveBatch } from "../collectors/cluster-metrics/refusals.js";
import { alignedWindow } from "../collectors/cluster-metrics/tasks.js";
import { queriesForTarget, queryKey } from "../config/queries.js";
import type { ClusterConfig, Config, SparkJobRef } from "../config/types.js";
import { BILLING_CREDENTIAL } from "../polling/credentials.js";
import { CloudError } from "../upstream/errors.js";
import type { CloudApi } from "../upstream/types.js";
import type {
  BillingProbe,
  CallResult,
  ClusterProbe,
  KeyProbe,
  MetricsProbe,
  ProbeReport,
  Skipped,
  SparkJobProbe,
} from "./report.js";

/** What the probe calls with; the CLI builds it from the config (clients.ts). */
export interface ProbeDeps {
  readonly clientFor: (cluster: Pick<ClusterConfig, "apiKey">) => CloudApi;
  /** The credential's label ("default", "cluster key #1"): never the key. */
  readonly credentialOf: (cluster: Pick<ClusterConfig, "apiKey">) => string;
  readonly clusters: readonly ClusterConfig[];
  readonly sparkJobs: readonly SparkJobRef[];
  readonly now: () => number;
  /** The billing key's client (credential "billing"); used only when billing is enabled. */
  readonly billingClient?: CloudApi;
}

/** Turns a call's failure into its code and message; anything but a CloudError is a bug. */
function failure(err: unknown): CallResult {
  if (err instanceof CloudError) return { ok: false, code: err.code, message: err.message };
  throw err;
}

async function call(f: () => Promise<unknown>): Promise<CallResult> {
  try {
    await f();
    return { ok: true };
  } catch (err) {
    return failure(err);
  }
}

/** Failures that are answers of the service past authentication: the key was accepted. */
const ANSWERED: ReadonlySet<string> = new Set(["not_found", "invalid_request", "api_error", "rate_limited"]);

/** Tracks, per credential, whether the service accepted or refused it. */
class KeyBook {
  private readonly states = new Map<string, KeyProbe>();

  note(credential: string, result: CallResult | Skipped | MetricsProbe): void {
    const known = this.states.get(credential);
    if (known?.state === "refused") return;
    if ("ok" in result && !result.ok && result.code === "auth_error") {
      this.states.set(credential, { credential, state: "refused", message: result.message });
    } else if (!("skipped" in result) && (!("ok" in result) || result.ok || ANSWERED.has(result.code))) {
      this.states.set(credential, { credential, state: "accepted" });
    } else if (known === undefined) {
      this.states.set(credential, { credential, state: "unknown" });
    }
  }

  refused(credential: string): boolean {
    return this.states.get(credential)?.state === "refused";
  }

  list(): KeyProbe[] {
    return [...this.states.values()];
  }
}

async function probeMetrics(config: Config, client: CloudApi, cluster: ClusterConfig, nowMs: number) {
  const m = config.metrics;
  // One bucket is enough to learn whether the queries are accepted.
  const { startMs, endMs } = alignedWindow(nowMs, m.granularityMs, m.granularityMs, m.delayMs);
  const accepted: MetricsProbe["accepted"][number][] = [];
  const switched: { query: MetricsProbe["accepted"][number]; as: MetricsProbe["accepted"][number] }[] = [];
  const refused: MetricsProbe["refused"][number][] = [];
  for (const batch of buildMetricQueries(queriesForTarget(m.queries, undefined))) {
    const outcome = await resolveBatch(batch.queries, (queries) =>
      client.queryClusterMetrics({
        clusterId: cluster.id,
        startMs,
        endMs,
        granularityMs: m.granularityMs,
        queries: [...queries],
      }),
    );
    const refusedKeys = new Set(outcome.refused.map((r) => queryKey(r.query)));
    for (const q of batch.queries) {
      const as = outcome.switched.get(queryKey(q));
      if (as !== undefined) switched.push({ query: q, as });
      if (!refusedKeys.has(queryKey(q))) accepted.push(q);
    }
    refused.push(...outcome.refused);
  }
  return { accepted, switched, refused } satisfies MetricsProbe;
}

async function probeCluster(config: Config, deps: ProbeDeps, keys: KeyBook, cluster: ClusterConfig) {
  const credential = deps.credentialOf(cluster);
  const client = deps.clientFor(cluster);
  const base = { clusterId: cluster.id, credential, ...(cluster.region ? { region: cluster.region } : {}) };
  if (keys.refused(credential)) {
    const skipped = { skipped: "key refused" };
    return { ...base, describe: skipped, controller: skipped, metrics: skipped } satisfies ClusterProbe;
  }
  const describe = await call(() => client.describeCluster(cluster.id));
  keys.note(credential, describe);
  if (!describe.ok) {
    // The other calls would fail alike (a wrong key, an unknown cluster): not worth the budget.
    const skipped = { skipped: "cluster not reachable" };
    return { ...base, describe, controller: skipped, metrics: skipped } satisfies ClusterProbe;
  }
  let metrics: ClusterProbe["metrics"] = { skipped: "metrics disabled" };
  if (config.metrics.enabled) {
    try {
      metrics = await probeMetrics(config, client, cluster, deps.now());
    } catch (err) {
      metrics = failure(err);
    }
    keys.note(credential, metrics);
  }
  let controller: ClusterProbe["controller"] = { skipped: "import jobs disabled" };
  if (config.importJobs.enabled && cluster.region === undefined) controller = { skipped: "no region" };
  else if (config.importJobs.enabled && cluster.region !== undefined) {
    const region = cluster.region;
    controller = await call(() =>
      client.listImportJobs({
        clusterId: cluster.id,
        region,
        pageSize: config.importJobs.pageSize,
        currentPage: 1,
      }),
    );
    keys.note(credential, controller);
  }
  return { ...base, describe, controller, metrics } satisfies ClusterProbe;
}

/**
 * Probes every cluster of `deps` (one after the other), then every Spark job, then, when the
 * config lists no cluster, List Clusters page 1. A refused key stops the calls with that key.
 */
export async function runProbe(config: Config, deps: ProbeDeps): Promise<ProbeReport> {
  const keys = new KeyBook();
  const clusters: ClusterProbe[] = [];
  for (const cluster of deps.clusters) clusters.push(await probeCluster(config, deps, keys, cluster));
  const defaultCredential = deps.credentialOf({});
  let discovery: ProbeReport["discovery"];
  if (deps.clusters.length === 0 && !keys.refused(defaultCredential)) {
    let seen = 0;
    const result = await call(async () => {
      seen = (await deps.clientFor({}).listClusters({ pageSize: 10, currentPage: 1 })).clusters.length;
    });
    keys.note(defaultCredential, result);
    discovery = { result, seen };
  }
  const sparkJobs: SparkJobProbe[] = [];
  for (const job of deps.sparkJobs) {
    if (keys.refused(defaultCredential)) {
      sparkJobs.push({ ...job, result: { skipped: "key refused" } });
      continue;
    }
    const result = await call(() => deps.clientFor({}).describeSparkJob(job));
    keys.note(defaultCredential, result);
    sparkJobs.push({ projectId: job.projectId, jobId: job.jobId, result });
  }
  const billing = config.billing.enabled ? await probeBilling(deps) : undefined;
  return {
    keys: keys.list(),
    clusters,
    sparkJobs,
    ...(discovery ? { discovery } : {}),
    ...(billing ? { billing } : {}),
  };
}

/**
 * Whether the billing key reads billing data: Query Daily Usage for yesterday and today, one
 * row. A refusal here says nothing of the monitoring key, so it is not noted as that key's.
 */
async function probeBilling(deps: ProbeDeps): Promise<BillingProbe> {
  const client = deps.billingClient;
  if (client === undefined)
    return { credential: BILLING_CREDENTIAL, result: { skipped: "no billing client" } };
  const today = new Date(deps.now()).toISOString().slice(0, 10);
  const yesterday = new Date(deps.now() - 86_400_000).toISOString().slice(0, 10);
  const result = await call(() =>
    client.queryDailyUsage({ start: yesterday, end: today, pageSize: 1, currentPage: 1 }),
  );
  return { credential: BILLING_CREDENTIAL, result };
}
