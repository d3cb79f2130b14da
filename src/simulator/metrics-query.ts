/**
 * Query Cluster Metrics: validates a request body (both documented forms) and computes the
 * results. Pure apart from its inputs, so it can be tested without HTTP.
 */
import { ApiCode, SimApiError } from "./errors.js";
import {
  type MetricCatalogMode,
  type MetricStatPolicy,
  planOffers,
  type ResolvedQuery,
  resolve2024MetricQuery,
  resolveCurrentMetricQuery,
  resolveMetricQuery,
} from "./metric-catalog.js";
import {
  type ClusterProfile,
  formatValue,
  metricValue,
  type ScopeProfile,
  scopeKey,
} from "./metric-values.js";
import type { SimQuirks } from "./quirks.js";
import { MINUTE_MS } from "./time.js";
import { resolveWindow } from "./window.js";
import type { SimCluster } from "./world.js";

/** One result of the response, as sent on the wire. */
export interface WireMetricResult {
  name: string;
  stat?: "AVG" | "P99";
  unit: string;
  values: Array<{ timestamp: string; value: string | null }>;
}

/** Statuses in which a cluster reports metrics; any other status yields all-null values. */
export const REPORTING_STATUSES = new Set([
  "RUNNING",
  "ABNORMAL",
  "MODIFYING",
  "RESUMING",
  // Planned operations of the current reference: the cluster keeps serving, and reporting.
  "RESIZING",
  "UPGRADING",
  "MIGRATING",
  "RESTORE_BACKUP",
  "WRITING_OPERATION",
  "SET_PRIVATE_LINK",
  "UNFREEZED",
]);

/** What answering one metrics query needs besides the body. */
export interface MetricsQueryContext {
  readonly cluster: SimCluster;
  readonly profile: ClusterProfile;
  readonly nowMs: number;
  /** Metrics made all-null by a test (`SimState.setMetricNull`). */
  readonly isNulled: (clusterId: string, metricName: string) => boolean;
  /** When true, one request may not mix items with and without `stat`. */
  readonly rejectMixedForms: boolean;
  /** Which reference the server follows (metric-catalog.ts); default "permissive". */
  readonly catalog?: MetricCatalogMode;
  /** In the "current" catalog: a `stat` ignored (default) or refused. */
  readonly statPolicy?: MetricStatPolicy;
  /** Buckets that started more than this before `nowMs` are null (beyond retention); default none. */
  readonly retentionMs?: number;
  /** Largest answer in points (buckets x queries); 0 or absent: no limit. */
  readonly maxPoints?: number;
  /** Upstream behaviours switched on; default none. */
  readonly quirks?: Pick<SimQuirks, "openBucket" | "statlessResults" | "countUnits">;
}

/** Metric kinds the service counts per time unit (count/min): the ones `countUnits` rewrites. */
const COUNTED_KINDS = new Set(["req_count", "vector_req_count", "slow_query", "flush"]);

function invalid(message: string): SimApiError {
  return new SimApiError(ApiCode.INVALID_PARAMETER, message);
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalid(`${key} must be a string`);
  return v;
}

function parseQueries(
  raw: unknown,
  catalog: MetricCatalogMode,
  statPolicy: MetricStatPolicy,
): ResolvedQuery[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalid("metricQueries must be a non-empty array");
  return raw.map((item: unknown, i) => {
    if (typeof item !== "object" || item === null) throw invalid(`metricQueries[${i}] must be an object`);
    const rec = item as Record<string, unknown>;
    // The spec labels the field `name` in one form and `metricName` in the other: accept both.
    const name = rec.name ?? rec.metricName;
    if (typeof name !== "string" || name === "") throw invalid(`metricQueries[${i}].name is required`);
    const stat = rec.stat;
    if (stat !== undefined && stat !== null && typeof stat !== "string") {
      throw invalid(`metricQueries[${i}].stat must be a string`);
    }
    // One refused item refuses the whole request, as the service does.
    if (catalog !== "permissive") {
      const resolved =
        catalog === "2024"
          ? resolve2024MetricQuery(name, stat ?? undefined)
          : resolveCurrentMetricQuery(name, stat ?? undefined, statPolicy);
      if (typeof resolved === "string") throw new SimApiError(ApiCode.INVALID_METRIC, resolved);
      return resolved;
    }
    const resolved = resolveMetricQuery(name, stat ?? undefined);
    if (typeof resolved === "string") throw new SimApiError(ApiCode.UNKNOWN_METRIC, resolved);
    return resolved;
  });
}

function resolveScope(
  profile: ClusterProfile,
  dbName: string | undefined,
  collectionName: string | undefined,
): ScopeProfile | undefined {
  if (dbName === undefined && collectionName === undefined) return undefined;
  const db = dbName ?? "default";
  const scope = profile.scopes.get(scopeKey(db, collectionName));
  if (scope) return scope;
  const what = collectionName === undefined ? `database ${db}` : `collection ${db}.${collectionName}`;
  throw new SimApiError(ApiCode.COLLECTION_NOT_FOUND, `${what} not found`);
}

function isoSeconds(t: number): string {
  return new Date(t).toISOString().replace(".000Z", "Z");
}

/**
 * Answers one Query Cluster Metrics body for `ctx.cluster`: `{results}` with one result per
 * query item, in request order, one value per aligned bucket. Throws `SimApiError` for every
 * invalid request (INVALID_PARAMETER, UNKNOWN_METRIC, COLLECTION_NOT_FOUND).
 */
export function answerMetricsQuery(body: unknown, ctx: MetricsQueryContext): { results: WireMetricResult[] } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalid("the request body must be a JSON object");
  }
  const rec = body as Record<string, unknown>;
  const window = resolveWindow(
    {
      start: optionalString(rec, "start"),
      end: optionalString(rec, "end"),
      period: optionalString(rec, "period"),
      granularity: optionalString(rec, "granularity"),
    },
    ctx.nowMs,
  );
  const catalog = ctx.catalog ?? "permissive";
  const strict = catalog !== "permissive";
  const queries = parseQueries(rec.metricQueries, catalog, ctx.statPolicy ?? "ignored");
  const dbName = optionalString(rec, "dbName");
  const collectionName = optionalString(rec, "collectionName");
  const scope = resolveScope(ctx.profile, dbName, collectionName);
  const firstForm = queries.some((q) => q.firstForm);
  // Both references' catalogs take their own form per collection too.
  if (scope && firstForm && !strict)
    throw invalid("stat is not supported with dbName/collectionName (use the _AVG/_P99 names)");
  if (ctx.rejectMixedForms && firstForm && queries.some((q) => !q.firstForm)) {
    throw invalid("metricQueries mix items with and without stat");
  }

  const points = window.buckets.length * queries.length;
  if (ctx.maxPoints !== undefined && ctx.maxPoints > 0 && points > ctx.maxPoints) {
    throw invalid(`too many data points: the answer would hold ${points}, more than ${ctx.maxPoints}`);
  }

  const { cluster, profile, nowMs } = ctx;
  const g = window.granularityMs;
  const reporting = REPORTING_STATUSES.has(cluster.status);
  const stamps = window.buckets.map(isoSeconds);
  const oldest = ctx.retentionMs === undefined ? Number.NEGATIVE_INFINITY : nowMs - ctx.retentionMs;
  // Buckets with data: the cluster reports, existed then, is within the retention, and the
  // bucket is past the data lag.
  const hasData = window.buckets.map(
    (t) => reporting && t >= profile.createTimeMs && t >= oldest && t + g + profile.lagMs <= nowMs,
  );

  const quirks = ctx.quirks;
  // An open bucket: the one starting at the window's end, if it has started, holding only the
  // part of its data seen so far (a partial count or average), as a server with an inclusive
  // `end` would answer.
  const openAt = window.endMs;
  const openShare = Math.min(1, Math.max(0.05, (nowMs - openAt) / g));
  const withOpen =
    quirks?.openBucket === true && reporting && openAt <= nowMs && openAt >= profile.createTimeMs;

  const results = queries.map((q): WireMetricResult => {
    // A current-reference server answers a name the cluster's plan lacks with nulls.
    const nulled =
      ctx.isNulled(cluster.id, q.def.name) || (catalog === "current" && !planOffers(q.def, cluster.plan));
    const perBucket = quirks?.countUnits === true && COUNTED_KINDS.has(q.def.kind);
    // A per-bucket count is the per-minute value (as the plain answer rounds it) times the
    // bucket's minutes, unrounded: converted back it gives the plain answer's rate, bit for bit when
    // the bucket's minutes are a power of two (PT30S, PT1M, PT2M...), within rounding otherwise.
    const shown = (v: number): string =>
      perBucket ? String(Number(formatValue(q.def.kind, v)) * (g / MINUTE_MS)) : formatValue(q.def.kind, v);
    const values = window.buckets.map((t, i) => {
      const v = nulled || !hasData[i] ? null : metricValue(q.def, q.stat, profile, scope, t, g);
      return { timestamp: stamps[i] ?? isoSeconds(t), value: v === null ? null : shown(v) };
    });
    if (withOpen && !nulled) {
      const v = metricValue(q.def, q.stat, profile, scope, openAt, g);
      if (v !== null) values.push({ timestamp: isoSeconds(openAt), value: shown(v * openShare) });
    }
    const unit = perBucket ? "count" : q.def.unit;
    return q.firstForm && quirks?.statlessResults !== true
      ? { name: q.def.name, stat: q.stat, unit, values }
      : { name: q.def.name, unit, values };
  });
  return { results };
}
