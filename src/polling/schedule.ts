/**
 * The polling schedule printed by `--check-config`: which targets this exporter polls, and per
 * endpoint and credential how many upstream calls one collection cycle makes, as an average
 * rate compared with the usable rate: `api.rate_limit` per second plus `api.rate_limit_margin`
 * (the upstream limits each endpoint per credential; the client's limiter keeps that margin).
 *
 * The calls are not estimated from the config: they are read off the very tasks the scheduler
 * would run (`tasksOf` the collectors the caller hands in, the registry's, with the same shard
 * filter and credentials as the exporter), so the schedule and the runtime cannot disagree. Each
 * row is judged against this replica's share of its key's budget (budgets.ts), which the schedule
 * states with its reason.
 */

import { queriesForTarget } from "../config/queries.js";
import { ownKeySections } from "../config/section.js";
import type { Shard } from "../config/shard.js";
import type { ClusterConfig, Config, MetricQueryConfig, ScopeConfig } from "../config/types.js";
import { ENDPOINT_ORDER } from "../upstream/endpoints/table.js";
import { DEFAULT_RATE_LIMIT_MARGIN_MS, RATE_WINDOW_MS, usableRate } from "../upstream/rateLimiter.js";
import { DATA_PLANE_ENDPOINT, ENDPOINT, type EndpointTemplate } from "../upstream/types.js";
import { type BudgetLine, dataPlaneRateLimit as dataPlaneRateOf, replicaBudgets } from "./budgets.js";
import { credentialLabeler, ownKeyCredential } from "./credentials.js";
import { type Collector, selectCollectors } from "./model.js";
import { type ScheduleFamilies, scheduleFamilies } from "./scheduleFamilies.js";
import {
  type CallRate,
  type CountedTask,
  countedTask,
  type NativeSchedule,
  nativeSaves,
  nativeSchedule,
} from "./scheduleNative.js";
import { METRICS_FORM_NOTES, RUN_TIME_COUNTS } from "./scheduleNotes.js";
import { type ListedOnReplica, type ScheduleOptions, scheduledTasks } from "./scheduleTasks.js";

const DATA_PLANE_ENDPOINTS: ReadonlySet<EndpointTemplate> = new Set(Object.values(DATA_PLANE_ENDPOINT));
const METRICS_ENDPOINT: EndpointTemplate = ENDPOINT.queryClusterMetrics;

/** One polled cluster. `credential` is a label ("default", "cluster key #1"), never a key. */
interface ScheduleTarget {
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
export interface ScheduleRow extends CallRate {
  /** More calls are possible (extra pages, jobs read from jobs_file at run time). */
  readonly atLeast: boolean;
  /** The budget it is judged against: this replica's share of the key's, per second. */
  readonly rateLimit: number;
  /** requestsPerSecond is within the usable rate of that budget. */
  readonly fits: boolean;
  /** Smallest interval that fits the usable rate, in whole seconds. Only when it does not fit. */
  readonly minimumIntervalMs?: number;
  /** What to configure: the minimum, for metrics rounded up to whole granularity steps. */
  readonly suggestedIntervalMs?: number;
}

/**
 * Data-plane calls of one cluster per cycle of the collectors that call it at one interval,
 * against that endpoint's own budget, which every collector calling it shares.
 */
interface DataPlaneRow {
  readonly clusterId: string;
  /** The collectors (their `collector` labels) whose calls the row counts. */
  readonly collectors: readonly string[];
  readonly callsPerCycle: number;
  /** Listings are per database: more calls when a cluster has several. */
  readonly atLeast: boolean;
  readonly intervalMs: number;
  readonly requestsPerSecond: number;
  /** The cluster's data-plane calls of every interval together fit its budget. */
  readonly fits: boolean;
}

/** The whole schedule. `fits` is true when every row fits. */
export interface Schedule {
  readonly shard?: Shard;
  readonly targets: readonly ScheduleTarget[];
  readonly discoveredClusters: number;
  /** Each list's targets on this replica (the config's, and its file's when read). */
  readonly listed: readonly ListedOnReplica[];
  /** Every task the scheduler would run, with its calls: what the rows add up. */
  readonly tasks: readonly CountedTask[];
  readonly rateLimit: number;
  readonly rateLimitMarginMs: number;
  /** rateLimit requests per (1 s + margin): what the limiter sustains, per endpoint and credential. */
  readonly usableRate: number;
  /** Which share of each key's budget this replica uses, and why (several replicas per key). */
  readonly budgets: readonly BudgetLine[];
  readonly rows: readonly ScheduleRow[];
  /** Per cluster whose data plane is polled; each judged against `dataPlaneRateLimit`. */
  readonly dataPlaneRows: readonly DataPlaneRow[];
  /** Every data-plane client's requests per second per cluster endpoint (budgets.ts). */
  readonly dataPlaneRateLimit: number;
  readonly families: ScheduleFamilies;
  readonly notes: readonly string[];
  /** native_export: the clusters the service's own endpoint serves, and the calls that saves. */
  readonly native: NativeSchedule;
  readonly fits: boolean;
}

function describeQueries(queries: readonly MetricQueryConfig[]): string[] {
  return queries.map((q) => (q.stat === undefined ? q.name : `${q.name} stat=${q.stat}`));
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
 * Computes the schedule of `collectors` (the registry's: the framework names none). `shard`
 * restricts clusters and Spark jobs to those this exporter owns (account-wide calls go to shard 0); `discoveredClusters` adds that many clusters found by
 * cluster discovery (no scopes, default credential, region known), which a static config cannot know;
 * `fileJobs` are the Spark jobs of `spark_jobs.jobs_file`.
 */
export function computeSchedule(
  collectors: readonly Collector[],
  config: Config,
  opts: ScheduleOptions = {},
): Schedule {
  const { shard } = opts;
  const discovered = opts.discoveredClusters ?? 0;
  const rateLimit = config.api.rateLimit;
  const marginMs = config.api.rateLimitMarginMs ?? DEFAULT_RATE_LIMIT_MARGIN_MS;
  // The limiter grants rateLimit per window of this length; integer arithmetic below keeps
  // "exactly at the usable rate" a fit, without float noise.
  const windowMs = RATE_WINDOW_MS + marginMs;
  const { tasks, env, clusters, listed } = scheduledTasks(collectors, config, opts);
  const credentialOf = credentialLabeler(config.api.apiKey, clusters);
  const budgets = replicaBudgets(config, shard ?? { index: 0, total: 1 });
  // A credential's budget, by its label: the key of the first cluster that carries it.
  const byLabel = new Map<string, Pick<ClusterConfig, "apiKey">>([["default", {}]]);
  for (const c of clusters) if (!byLabel.has(credentialOf(c))) byLabel.set(credentialOf(c), c);
  // A section's own key is only used on shard 0, at the whole budget (budgets.ts).
  const ownKeys = new Set(ownKeySections().map(ownKeyCredential));
  const rateFor = (credential: string, endpoint: EndpointTemplate): number =>
    ownKeys.has(credential) ? rateLimit : budgets.rateOf(byLabel.get(credential) ?? {}, endpoint);
  const notes: string[] = [...budgets.problems];

  // One row per endpoint, credential and interval: the calls of every task that shares them.
  const rowsByKey = new Map<
    string,
    { endpoint: EndpointTemplate; credential: string; intervalMs: number; calls: number; atLeast: boolean }
  >();
  const dataPlane = new Map<
    string,
    { clusterId: string; collectors: string[]; calls: number; atLeast: boolean; intervalMs: number }
  >();
  const saved = nativeSaves(config);
  for (const task of tasks) {
    for (const call of task.calls) {
      // Shown apart, as calls the service's own endpoint saves (planNative.ts).
      if (saved(task, call.endpoint)) continue;
      if (DATA_PLANE_ENDPOINTS.has(call.endpoint)) {
        const key = `${task.id.target}\u0000${task.intervalMs}`;
        const row = dataPlane.get(key) ?? {
          clusterId: task.id.target,
          collectors: [],
          calls: 0,
          atLeast: false,
          intervalMs: task.intervalMs,
        };
        row.calls += call.count;
        row.atLeast ||= call.atLeast;
        if (!row.collectors.includes(task.id.collector)) row.collectors.push(task.id.collector);
        dataPlane.set(key, row);
        continue;
      }
      const key = `${call.endpoint}\u0000${task.credential}\u0000${task.intervalMs}`;
      const row = rowsByKey.get(key) ?? {
        endpoint: call.endpoint,
        credential: task.credential,
        intervalMs: task.intervalMs,
        calls: 0,
        atLeast: false,
      };
      row.calls += call.count;
      row.atLeast ||= call.atLeast;
      rowsByKey.set(key, row);
    }
  }

  if (config.metrics.enabled) {
    const idle = clusters.flatMap((c) =>
      c.scopes
        .filter((scope) => queriesForTarget(config.metrics.queries, scope).length === 0)
        .map((scope) => `${c.id} ${describeScope(scope)}`),
    );
    if (idle.length > 0) {
      notes.push(
        `scopes with no metric to ask (metrics.queries holds only cluster-level or first-form-only metrics; give them queries): ${idle.join(", ")}`,
      );
    }
  }
  for (const { list } of listed) {
    const path = list.file(config);
    if (path !== undefined && !opts.files?.has(list)) {
      notes.push(`${list.title} listed in ${path} are read at run time and add one call each`);
    }
  }
  if (config.metrics.enabled) notes.push(METRICS_FORM_NOTES[config.metrics.form]);
  const scheduled = new Set([...rowsByKey.values()].map((r) => r.endpoint));
  for (const [endpoint, note] of RUN_TIME_COUNTS) if (scheduled.has(endpoint)) notes.push(note);
  const view = { clusters, discovered };
  for (const c of selectCollectors(collectors, config).running) notes.push(...c.notes(config, view));

  const rows: ScheduleRow[] = [];
  const ordered = [...rowsByKey.values()].sort(
    (a, b) => ENDPOINT_ORDER.indexOf(a.endpoint) - ENDPOINT_ORDER.indexOf(b.endpoint),
  );
  for (const { endpoint, credential, intervalMs, calls: n, atLeast } of ordered) {
    if (n <= 0) continue;
    const rate = rateFor(credential, endpoint);
    const fits = n * windowMs <= rate * intervalMs;
    const row: ScheduleRow = {
      endpoint,
      credential,
      callsPerCycle: n,
      atLeast,
      intervalMs,
      requestsPerSecond: (n * 1000) / intervalMs,
      rateLimit: rate,
      fits,
    };
    if (fits) rows.push(row);
    else {
      const minimumIntervalMs = Math.ceil((n * windowMs) / rate / 1000) * 1000;
      const step = endpoint === METRICS_ENDPOINT ? config.metrics.granularityMs : 1000;
      rows.push({
        ...row,
        minimumIntervalMs,
        suggestedIntervalMs: Math.ceil(minimumIntervalMs / step) * step,
      });
    }
  }
  const dataPlaneRateLimit = dataPlaneRateOf(config);
  // A cluster's endpoint has one budget, whichever collectors and intervals spend it.
  const perSecondOf = new Map<string, number>();
  for (const r of dataPlane.values())
    perSecondOf.set(r.clusterId, (perSecondOf.get(r.clusterId) ?? 0) + (r.calls * 1000) / r.intervalMs);
  const dataPlaneRows: DataPlaneRow[] = [...dataPlane.values()].map((r) => ({
    clusterId: r.clusterId,
    collectors: r.collectors,
    callsPerCycle: r.calls,
    atLeast: r.atLeast,
    intervalMs: r.intervalMs,
    requestsPerSecond: (r.calls * 1000) / r.intervalMs,
    fits: ((perSecondOf.get(r.clusterId) ?? 0) * windowMs) / 1000 <= dataPlaneRateLimit,
  }));
  if (clusters.length + discovered === 0 && listed.every((l) => l.items.length === 0)) {
    const titles = ["clusters", ...listed.map((l) => l.list.title)];
    notes.push(
      `no ${titles.slice(0, -1).join(", ")} or ${titles.at(-1)} to poll: list clusters, enable discovery, or add ${listed.map((l) => l.list.configuredAt).join(" or ")}`,
    );
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
    listed,
    tasks: tasks.map(countedTask),
    rateLimit,
    rateLimitMarginMs: marginMs,
    usableRate: usableRate(rateLimit, marginMs),
    budgets: budgets.lines(clusters, credentialOf),
    rows,
    dataPlaneRows,
    dataPlaneRateLimit,
    families: scheduleFamilies(collectors, env),
    notes,
    native: nativeSchedule(config, tasks, clusters),
    fits: rows.every((r) => r.fits) && dataPlaneRows.every((r) => r.fits) && budgets.problems.length === 0,
  };
}
