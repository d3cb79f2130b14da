/**
 * The request plan printed by `--check-config`: which targets this exporter polls, and per
 * endpoint and credential how many upstream calls one collection cycle makes, as an average
 * rate compared with the usable rate: `api.rate_limit` per second plus `api.rate_limit_margin`
 * (the upstream limits each endpoint per credential; the client's limiter keeps that margin).
 */
import { DEFAULT_RATE_LIMIT_MARGIN_MS, RATE_WINDOW_MS, usableRate } from "../cloud/rateLimiter.js";
import type { EndpointTemplate } from "../cloud/types.js";
import { formatDuration } from "../shared/duration.js";
import { queriesForTarget } from "./queries.js";
import { inShard, ownsGlobalCalls, type Shard } from "./shard.js";
import type { ClusterConfig, Config, MetricQueryConfig, ScopeConfig, SparkJobRef } from "./types.js";

/** One polled cluster. `credential` is a label ("default", "cluster key #1"), never a key. */
export interface PlanTarget {
  readonly clusterId: string;
  readonly region?: string;
  readonly projectId?: string;
  /** "db=default collection=docs", one per scope. */
  readonly scopes: readonly string[];
  readonly credential: string;
  /** The metric queries the cluster-wide target sends ("NAME" or "NAME stat=P99"). */
  readonly queries: readonly string[];
  /** The metric queries each scope sends, in the order of `scopes`. */
  readonly scopeQueries: readonly (readonly string[])[];
}

/** Calls of one endpoint with one credential per cycle of its collector. */
export interface PlanRow {
  readonly endpoint: EndpointTemplate;
  readonly credential: string;
  readonly callsPerCycle: number;
  /** More calls are possible (extra pages, jobs read from jobs_file at run time). */
  readonly atLeast: boolean;
  readonly intervalMs: number;
  /** callsPerCycle / interval in seconds. */
  readonly requestsPerSecond: number;
  /** requestsPerSecond is within the plan's usable rate. */
  readonly fits: boolean;
  /** Smallest interval that fits the usable rate, in whole seconds. Only when it does not fit. */
  readonly minimumIntervalMs?: number;
  /** What to configure: the minimum, for metrics rounded up to whole granularity steps. */
  readonly suggestedIntervalMs?: number;
}

/** The whole plan. `fits` is true when every row fits. */
export interface Plan {
  readonly shard?: Shard;
  readonly targets: readonly PlanTarget[];
  readonly discoveredClusters: number;
  readonly sparkJobs: readonly SparkJobRef[];
  readonly rateLimit: number;
  readonly rateLimitMarginMs: number;
  /** rateLimit requests per (1 s + margin): what the limiter sustains, per endpoint and credential. */
  readonly usableRate: number;
  readonly rows: readonly PlanRow[];
  readonly notes: readonly string[];
  readonly fits: boolean;
}

/**
 * Query Cluster Metrics requests one cluster makes per cycle, as the collector sends them
 * (src/collect/metricQueries.ts): the cluster-wide target sends its first-form queries (with
 * `stat`) and its second-form queries as separate requests, because the two forms must not
 * mix; each scope with anything to ask sends one request of second-form queries (the first
 * form has no scopes; see `queriesForTarget`).
 */
export function metricRequestsPerCycle(
  cluster: Pick<ClusterConfig, "scopes">,
  queries: readonly MetricQueryConfig[],
): number {
  const firstForm = queries.some((q) => q.stat !== undefined) ? 1 : 0;
  const secondForm = queries.some((q) => q.stat === undefined) ? 1 : 0;
  const scopes = cluster.scopes.filter((scope) => queriesForTarget(queries, scope).length > 0).length;
  return firstForm + secondForm + scopes;
}

function describeQueries(queries: readonly MetricQueryConfig[]): string[] {
  return queries.map((q) => (q.stat === undefined ? q.name : `${q.name} stat=${q.stat}`));
}

/** Labels credentials without revealing them: clusters sharing a key share a label and a budget. */
function credentialLabels(clusters: readonly ClusterConfig[], defaultKey: string): Map<string, string> {
  const byKey = new Map<string, string>([[defaultKey, "default"]]);
  for (const cluster of clusters) {
    if (cluster.apiKey !== undefined && !byKey.has(cluster.apiKey)) {
      byKey.set(cluster.apiKey, `cluster key #${byKey.size}`);
    }
  }
  return byKey;
}

function describeScope(scope: ScopeConfig): string {
  return [
    scope.dbName === undefined ? undefined : `db=${scope.dbName}`,
    scope.collectionName === undefined ? undefined : `collection=${scope.collectionName}`,
  ]
    .filter((s) => s !== undefined)
    .join(" ");
}

/**
 * Computes the plan. `shard` restricts clusters and Spark jobs to those this exporter owns
 * (account-wide calls go to shard 0); `discoveredClusters` adds that many clusters found by
 * discovery (no scopes, default credential, region known), which a static config cannot know.
 */
export function computePlan(
  config: Config,
  opts: { readonly shard?: Shard; readonly discoveredClusters?: number } = {},
): Plan {
  const { shard } = opts;
  const discovered = opts.discoveredClusters ?? 0;
  const rateLimit = config.api.rateLimit;
  const marginMs = config.api.rateLimitMarginMs ?? DEFAULT_RATE_LIMIT_MARGIN_MS;
  // The limiter grants rateLimit per window of this length; integer arithmetic below keeps
  // "exactly at the usable rate" a fit, without float noise.
  const windowMs = RATE_WINDOW_MS + marginMs;
  const clusters = config.clusters.filter((c) => inShard(c.id, shard));
  const sparkJobs = config.sparkJobs.jobs.filter((j) => inShard(`${j.projectId}/${j.jobId}`, shard));
  const labels = credentialLabels(clusters, config.api.apiKey);
  const credentialOf = (c: ClusterConfig): string => labels.get(c.apiKey ?? config.api.apiKey) ?? "default";
  const notes: string[] = [];

  // calls[endpoint][credential]
  const calls = new Map<EndpointTemplate, Map<string, number>>();
  const add = (endpoint: EndpointTemplate, credential: string, n: number): void => {
    if (n <= 0) return;
    const perCredential = calls.get(endpoint) ?? new Map<string, number>();
    perCredential.set(credential, (perCredential.get(credential) ?? 0) + n);
    calls.set(endpoint, perCredential);
  };

  const metricsEndpoint: EndpointTemplate = "POST /v2/clusters/{id}/metrics/query";
  if (config.metrics.enabled) {
    for (const c of clusters)
      add(metricsEndpoint, credentialOf(c), metricRequestsPerCycle(c, config.metrics.queries));
    add(
      metricsEndpoint,
      "default",
      discovered * metricRequestsPerCycle({ scopes: [] }, config.metrics.queries),
    );
  }

  const importEndpoint: EndpointTemplate = "GET /v1/vector/collections/import/list";
  if (config.importJobs.enabled) {
    const withoutRegion = clusters.filter((c) => c.region === undefined).map((c) => c.id);
    for (const c of clusters) if (c.region !== undefined) add(importEndpoint, credentialOf(c), 1);
    add(importEndpoint, "default", discovered);
    if (withoutRegion.length > 0) {
      notes.push(`import jobs are not polled for clusters without a region: ${withoutRegion.join(", ")}`);
    }
  }

  const sparkEndpoint: EndpointTemplate = "GET /v2/projects/{projectId}/jobs/{jobId}";
  add(sparkEndpoint, "default", sparkJobs.length);
  if (config.sparkJobs.jobsFile !== undefined) {
    notes.push(
      `Spark jobs listed in ${config.sparkJobs.jobsFile} are read at run time and add one call each`,
    );
  }

  const discovery = config.inventory.discovery;
  if (config.inventory.enabled) {
    for (const c of clusters) add("GET /v2/clusters/{id}", credentialOf(c), 1);
    add("GET /v2/clusters/{id}", "default", discovered);
    if (ownsGlobalCalls(shard)) {
      add("GET /v1/projects", "default", 1);
      add("GET /v2/regions", "default", 1);
      if (discovery.enabled) {
        add(
          "GET /v2/clusters",
          "default",
          Math.max(1, discovery.projectIds.length) * Math.max(1, discovery.regionIds.length),
        );
      }
    }
  } else if (discovery.enabled) {
    notes.push("inventory.discovery.enabled has no effect while inventory.enabled is false");
  }

  const intervalOf: Record<EndpointTemplate, number> = {
    [metricsEndpoint]: config.metrics.intervalMs,
    [importEndpoint]: config.importJobs.intervalMs,
    [sparkEndpoint]: config.sparkJobs.intervalMs,
    "GET /v2/clusters/{id}": config.inventory.intervalMs,
    "GET /v2/clusters": config.inventory.intervalMs,
    "GET /v1/projects": config.inventory.intervalMs,
    "GET /v2/regions": config.inventory.intervalMs,
  };
  const atLeastOf = (endpoint: EndpointTemplate): boolean =>
    endpoint === importEndpoint ||
    endpoint === "GET /v2/clusters" ||
    (endpoint === sparkEndpoint && config.sparkJobs.jobsFile !== undefined);

  const rows: PlanRow[] = [];
  for (const [endpoint, perCredential] of calls) {
    for (const [credential, n] of perCredential) {
      const intervalMs = intervalOf[endpoint];
      const fits = n * windowMs <= rateLimit * intervalMs;
      const row: PlanRow = {
        endpoint,
        credential,
        callsPerCycle: n,
        atLeast: atLeastOf(endpoint),
        intervalMs,
        requestsPerSecond: (n * 1000) / intervalMs,
        fits,
      };
      if (fits) rows.push(row);
      else {
        const minimumIntervalMs = Math.ceil((n * windowMs) / rateLimit / 1000) * 1000;
        const step = endpoint === metricsEndpoint ? config.metrics.granularityMs : 1000;
        rows.push({
          ...row,
          minimumIntervalMs,
          suggestedIntervalMs: Math.ceil(minimumIntervalMs / step) * step,
        });
      }
    }
  }
  if (clusters.length + discovered === 0 && sparkJobs.length === 0) {
    notes.push("no clusters or Spark jobs to poll: list clusters, enable discovery, or add spark_jobs.jobs");
  }
  return {
    ...(shard === undefined ? {} : { shard }),
    targets: clusters.map((c) => ({
      clusterId: c.id,
      ...(c.region === undefined ? {} : { region: c.region }),
      ...(c.projectId === undefined ? {} : { projectId: c.projectId }),
      scopes: c.scopes.map(describeScope),
      credential: credentialOf(c),
      queries: config.metrics.enabled ? describeQueries(config.metrics.queries) : [],
      scopeQueries: c.scopes.map((scope) =>
        config.metrics.enabled ? describeQueries(queriesForTarget(config.metrics.queries, scope)) : [],
      ),
    })),
    discoveredClusters: discovered,
    sparkJobs,
    rateLimit,
    rateLimitMarginMs: marginMs,
    usableRate: usableRate(rateLimit, marginMs),
    rows,
    notes,
    fits: rows.every((r) => r.fits),
  };
}

function formatRate(perSecond: number): string {
  return perSecond.toFixed(3).replace(/\.?0+$/, "");
}

/** Renders the plan for humans: targets, one line per endpoint and credential, notes, verdict. */
export function formatPlan(plan: Plan): string {
  const lines: string[] = [];
  const shard = plan.shard === undefined ? "" : ` (shard ${plan.shard.index} of ${plan.shard.total})`;
  const discovered = plan.discoveredClusters > 0 ? ` + ${plan.discoveredClusters} discovered` : "";
  lines.push(
    `Targets${shard}: ${plan.targets.length} configured clusters${discovered}, ${plan.sparkJobs.length} Spark jobs`,
  );
  // Targets usually share a few query lists: each distinct list is printed once, named, and
  // every target says which one it sends.
  const querySets = new Map<string, string>();
  const setOf = (queries: readonly string[]): string => {
    if (queries.length === 0) return "none";
    const key = queries.join(", ");
    let name = querySets.get(key);
    if (name === undefined) {
      name = `Q${querySets.size + 1}`;
      querySets.set(key, name);
    }
    return name;
  };
  const targetLines: string[] = [];
  for (const t of plan.targets) {
    const details = [
      t.region === undefined ? undefined : `region=${t.region}`,
      t.projectId === undefined ? undefined : `project=${t.projectId}`,
      `credential=${t.credential}`,
    ].filter((d) => d !== undefined);
    targetLines.push(`  cluster ${t.clusterId} ${details.join(" ")} queries=${setOf(t.queries)}`);
    t.scopes.forEach((scope, i) => {
      targetLines.push(`    scope ${scope} queries=${setOf(t.scopeQueries[i] ?? [])}`);
    });
  }
  lines.push(...targetLines);
  for (const j of plan.sparkJobs) lines.push(`  spark job ${j.projectId}/${j.jobId}`);
  if (querySets.size > 0) {
    lines.push("");
    lines.push("Metric queries sent per target:");
    for (const [list, name] of querySets) {
      lines.push(`  ${name} (${list.split(", ").length}): ${list}`);
    }
  }
  lines.push("");
  lines.push(
    `API calls per cycle (budget: ${plan.rateLimit} requests/s per endpoint per credential; usable ` +
      `${formatRate(plan.usableRate)} req/s with the ${formatDuration(plan.rateLimitMarginMs)} margin):`,
  );
  for (const r of plan.rows) {
    const amount = `${r.atLeast ? "at least " : ""}${r.callsPerCycle} ${r.callsPerCycle === 1 ? "call" : "calls"}`;
    const rate = `${r.atLeast ? ">= " : ""}${formatRate(r.requestsPerSecond)} req/s`;
    let verdict = "fits";
    if (!r.fits) {
      verdict = `EXCEEDS the budget: needs an interval of at least ${formatDuration(r.minimumIntervalMs ?? 0)}`;
      if (r.suggestedIntervalMs !== r.minimumIntervalMs) {
        verdict += `, use ${formatDuration(r.suggestedIntervalMs ?? 0)} (whole granularity steps)`;
      }
    }
    lines.push(
      `  ${r.endpoint} [${r.credential}]: ${amount} every ${formatDuration(r.intervalMs)} = ${rate}: ${verdict}`,
    );
  }
  if (plan.rows.length === 0) lines.push("  (none)");
  if (plan.notes.length > 0) {
    lines.push("");
    lines.push("Notes:");
    for (const note of plan.notes) lines.push(`  - ${note}`);
  }
  lines.push("");
  lines.push(plan.fits ? "Result: fits the rate budget" : "Result: EXCEEDS the budget (see above)");
  return lines.join("\n");
}
