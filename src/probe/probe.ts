/**
 * `--probe`: one small call per endpoint kind and target, through the same client (so the same
 * rate limiter, retries and key redaction) the exporter polls with. Read-only: Describe
 * Cluster, Query Cluster Metrics, List Import Jobs V2 page 1 and Get Import Job Progress of its
 * first job, List Import Jobs (v1) page 1, Describe Spark Job, List Projects V2, and List
 * Clusters when no cluster is configured, and List Backups page 1 per credential (whether the
 * key has backup permission), List On-Demand Clusters and List Alert Rules page 1 for the first
 * known project (console.ts), and Query Daily Usage with the billing key when billing is on;
 * with collections on, each cluster's data plane (dataPlane.ts: collections, List Indexes,
 * Describe Index), and one canary probe per `canary.targets` entry of a configured cluster (a
 * search or query billed in vCU on free and serverless clusters). Calls are made one at a time,
 * far within the budget.
 */

import { BILLING_SECTION } from "../collectors/billing/config.js";
import { buildMetricQueries } from "../collectors/cluster-metrics/batches.js";
import { verdictOf } from "../collectors/cluster-metrics/forms.js";
import { resolveBatch } from "../collectors/cluster-metrics/refusedQueries.js";
import { alignedWindow } from "../collectors/cluster-metrics/tasks.js";
import type { SparkJobRef } from "../collectors/spark-jobs/config.js";
import { queriesForTarget, queryKey } from "../config/queries.js";
import type { ConfigSection } from "../config/section.js";
import type { ClusterConfig, Config } from "../config/types.js";
import { ownKeyCredential } from "../polling/credentials.js";
import { DAY } from "../shared/duration.js";
import { formOfQuery, inForm, listedIn, type QueryForm } from "../upstream/catalog.js";
import { CloudError } from "../upstream/errors.js";
import { refusalOf } from "../upstream/refusals.js";
import type { CloudApi, ClusterDescription, ProjectV2 } from "../upstream/types.js";
import { probeConsole } from "./console.js";
import { type DataPlaneFactory, probeCanary, probeDataPlane } from "./dataPlane.js";
import type {
  BackupProbe,
  BillingProbe,
  CallResult,
  ClusterProbe,
  JobProbe,
  KeyProbe,
  MetricsProbe,
  ProbeReport,
  Skipped,
  SparkJobProbe,
} from "./report.js";

/** What the probe calls with; the CLI builds it from the config (clients.ts). */
interface ProbeDeps {
  readonly clientFor: (cluster: Pick<ClusterConfig, "apiKey">) => CloudApi;
  /** The credential's label ("default", "cluster key #1"): never the key. */
  readonly credentialOf: (cluster: Pick<ClusterConfig, "apiKey">) => string;
  readonly clusters: readonly ClusterConfig[];
  readonly sparkJobs: readonly SparkJobRef[];
  /** The job IDs of `jobs.ids` and its IDs file (this shard's). */
  readonly jobIds: readonly string[];
  readonly now: () => number;
  /** The billing key's client (credential "billing"); used only when billing is enabled. */
  readonly billingClient?: CloudApi;
  /**
   * The client of a section's own key (its `api_key`, else the default key), for a listing whose
   * collector calls with it; without it, such a listing is probed with the default key.
   */
  readonly ownKeyClient?: (section: ConfigSection) => CloudApi;
  /** Each cluster's data-plane client; the data planes are probed when collections are enabled. */
  readonly dataPlane?: DataPlaneFactory;
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
  // The form a run asks first: the configured one, or the current form (auto).
  const asked: QueryForm = m.form === "auto" ? "current" : m.form;
  let form: QueryForm | undefined;
  const queries = queriesForTarget(m.queries, undefined)
    .map((q) => inForm(q, asked))
    .filter((q) => formOfQuery(q) !== asked || listedIn(q.name, asked));
  for (const batch of buildMetricQueries(queries)) {
    const outcome = await resolveBatch(batch.queries, (queries) =>
      client.queryClusterMetrics({
        clusterId: cluster.id,
        startMs,
        endMs,
        granularityMs: m.granularityMs,
        queries: [...queries],
      }),
    );
    // Left unasked: the form the server accepted does not have them (not accepted, not refused).
    const refusedKeys = new Set(
      [...outcome.refused.map((r) => r.query), ...(outcome.unasked ?? [])].map(queryKey),
    );
    for (const q of batch.queries) {
      const as = outcome.switched.get(queryKey(q));
      if (as !== undefined) switched.push({ query: q, as });
      if (!refusedKeys.has(queryKey(q))) accepted.push(q);
    }
    refused.push(...outcome.refused);
    if (batch.queries[0] !== undefined && formOfQuery(batch.queries[0]) === asked) {
      const verdict = verdictOf(batch.queries, outcome);
      if (verdict === "accepted") form = asked;
      if (verdict === "moved") form = asked === "current" ? "2024" : "current";
    }
  }
  return { accepted, switched, refused, ...(form === undefined ? {} : { form }) } satisfies MetricsProbe;
}

async function probeCluster(config: Config, deps: ProbeDeps, keys: KeyBook, cluster: ClusterConfig) {
  const credential = deps.credentialOf(cluster);
  const client = deps.clientFor(cluster);
  const base = { clusterId: cluster.id, credential, ...(cluster.region ? { region: cluster.region } : {}) };
  if (keys.refused(credential)) {
    const skipped = { skipped: "key refused" };
    return {
      ...base,
      describe: skipped,
      controller: skipped,
      metrics: skipped,
      sparkList: skipped,
    } satisfies ClusterProbe;
  }
  let described: ClusterDescription | undefined;
  const describe = await call(async () => {
    described = await client.describeCluster(cluster.id);
  });
  keys.note(credential, describe);
  if (!describe.ok) {
    // The other calls would fail alike (a wrong key, an unknown cluster): not worth the budget.
    const skipped = { skipped: "cluster not reachable" };
    return {
      ...base,
      describe,
      controller: skipped,
      metrics: skipped,
      sparkList: skipped,
    } satisfies ClusterProbe;
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
  const imports = await probeImportsV2(config, client, cluster);
  if ("ok" in imports.importListV2) keys.note(credential, imports.importListV2);
  if ("ok" in imports.importProgress) keys.note(credential, imports.importProgress);
  let controller: ClusterProbe["controller"] = { skipped: "import jobs disabled" };
  if (config.importJobs.enabled && config.importJobs.api === "v2")
    controller = { skipped: "import_jobs.api v2" };
  else if (config.importJobs.enabled && cluster.region === undefined) controller = { skipped: "no region" };
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
  let sparkList: ClusterProbe["sparkList"] = { skipped: "spark job discovery disabled" };
  if (config.sparkJobs.discovery.enabled) {
    sparkList = await call(() =>
      client.listSparkJobs({ clusterId: cluster.id, pageSize: 1, currentPage: 1 }),
    );
    keys.note(credential, sparkList);
  }
  const dataPlane =
    config.collections.enabled && deps.dataPlane !== undefined && described !== undefined
      ? await probeDataPlane(config, cluster, described, deps.dataPlane)
      : undefined;
  const canary =
    deps.dataPlane !== undefined && described !== undefined
      ? await probeCanary(config, cluster, described, deps.dataPlane)
      : [];
  return {
    ...base,
    describe,
    controller,
    ...imports,
    metrics,
    sparkList,
    ...(dataPlane === undefined ? {} : { dataPlane }),
    ...(canary.length === 0 ? {} : { canary }),
  } satisfies ClusterProbe;
}

/**
 * List Import Jobs V2 page 1 and, when it lists a job, Get Import Job Progress of the first
 * one: whether the key is accepted for each. Skipped with import_jobs.api v1.
 */
async function probeImportsV2(
  config: Config,
  client: CloudApi,
  cluster: ClusterConfig,
): Promise<Required<Pick<ClusterProbe, "importListV2" | "importProgress">>> {
  const why = !config.importJobs.enabled
    ? "import jobs disabled"
    : config.importJobs.api === "v1"
      ? "import_jobs.api v1"
      : undefined;
  if (why !== undefined) return { importListV2: { skipped: why }, importProgress: { skipped: why } };
  let firstJob: string | undefined;
  const importListV2 = await call(async () => {
    const page = await client.listImportJobsV2({
      clusterId: cluster.id,
      pageSize: config.importJobs.pageSize,
      currentPage: 1,
    });
    firstJob = page.jobs[0]?.jobId;
  });
  const jobId = firstJob;
  if (!importListV2.ok) return { importListV2, importProgress: { skipped: "no V2 listing" } };
  if (jobId === undefined || config.importJobs.progressMax === 0) {
    const skipped = jobId === undefined ? "no import job listed" : "import_jobs.progress_max 0";
    return { importListV2, importProgress: { skipped } };
  }
  const importProgress = await call(() => client.describeImportJob({ clusterId: cluster.id, jobId }));
  return { importListV2, importProgress };
}

/**
 * Probes every cluster of `deps` (one after the other), then, when the config lists no
 * cluster, List Clusters page 1, then every Spark job and every job by ID. A refused key stops the calls with that key.
 */
export async function runProbe(config: Config, deps: ProbeDeps): Promise<ProbeReport> {
  const keys = new KeyBook();
  const clusters: ClusterProbe[] = [];
  for (const cluster of deps.clusters) clusters.push(await probeCluster(config, deps, keys, cluster));
  const defaultCredential = deps.credentialOf({});
  let clusterDiscovery: ProbeReport["clusterDiscovery"];
  if (deps.clusters.length === 0 && !keys.refused(defaultCredential)) {
    let seen = 0;
    const result = await call(async () => {
      seen = (await deps.clientFor({}).listClusters({ pageSize: 10, currentPage: 1 })).clusters.length;
    });
    keys.note(defaultCredential, result);
    clusterDiscovery = { result, seen };
  }
  let projects: ProbeReport["projects"];
  let listedProjects: ProjectV2[] = [];
  if (config.inventory.enabled && !keys.refused(defaultCredential)) {
    projects = await call(async () => {
      listedProjects = await deps.clientFor({}).listProjectsV2();
    });
    keys.note(defaultCredential, projects);
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
  const jobs: JobProbe[] = [];
  for (const jobId of deps.jobIds) {
    if (keys.refused(defaultCredential)) {
      jobs.push({ jobId, result: { skipped: "key refused" } });
      continue;
    }
    const result = await call(() => deps.clientFor({}).describeJob(jobId));
    keys.note(defaultCredential, result);
    jobs.push({ jobId, result });
  }
  const backups = await probeBackups(config, deps, keys);
  const consoleListings = keys.refused(defaultCredential)
    ? []
    : await probeConsole(config, deps.clientFor({}), listedProjects, deps.clusters, deps.ownKeyClient);
  const billing = config.billing.enabled ? await probeBilling(deps) : undefined;
  return {
    keys: keys.list(),
    clusters,
    sparkJobs,
    jobs,
    ...(clusterDiscovery ? { clusterDiscovery } : {}),
    ...(backups.length > 0 ? { backups } : {}),
    ...(consoleListings.length > 0 ? { console: consoleListings } : {}),
    ...(projects ? { projects } : {}),
    ...(billing ? { billing } : {}),
  };
}

/** List Backups page 1 once per credential of the configured clusters (not for refused keys). */
async function probeBackups(config: Config, deps: ProbeDeps, keys: KeyBook): Promise<BackupProbe[]> {
  if (!config.backups.enabled) return [];
  const byCredential = new Map<string, ClusterConfig>();
  for (const c of deps.clusters) {
    const credential = deps.credentialOf(c);
    if (!byCredential.has(credential) && !keys.refused(credential)) byCredential.set(credential, c);
  }
  const out: BackupProbe[] = [];
  for (const [credential, cluster] of byCredential) {
    try {
      await deps.clientFor(cluster).listBackups({ pageSize: 1, currentPage: 1 });
      out.push({ credential, state: "permitted" });
    } catch (err) {
      const r = failure(err);
      const message = r.ok ? "" : r.message;
      out.push({
        credential,
        state: refusalOf(err) === "not_permitted" ? "not_permitted" : "failed",
        message,
      });
    }
  }
  return out;
}

/**
 * Whether the billing key reads billing data: Query Daily Usage for yesterday and today, one
 * row. A refusal here says nothing of the monitoring key, so it is not noted as that key's.
 */
async function probeBilling(deps: ProbeDeps): Promise<BillingProbe> {
  const credential = ownKeyCredential(BILLING_SECTION);
  const client = deps.billingClient;
  if (client === undefined) return { credential, result: { skipped: "no billing client" } };
  const today = new Date(deps.now()).toISOString().slice(0, 10);
  const yesterday = new Date(deps.now() - DAY).toISOString().slice(0, 10);
  const result = await call(() =>
    client.queryDailyUsage({ start: yesterday, end: today, pageSize: 1, currentPage: 1 }),
  );
  return { credential, result };
}
