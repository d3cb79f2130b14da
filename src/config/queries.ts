/**
 * Metric query rules of Query Cluster Metrics, and the default query list. Two request forms
 * exist upstream: the first names a metric and a `stat` (AVG, or P99 for latency metrics); the
 * second (current) form bakes the statistic into the name (REQ_SEARCH_LATENCY_P99) and takes no
 * `stat`. A query with `stat` is sent in the first form, one without in the second. A plain
 * name is valid for every documented metric: the exporter picks the form (`expandQuery`), and
 * per-collection scopes, which exist in the second form only, get second-form names
 * (`toSecondForm`).
 */
import type { MetricQueryConfig, ScopeConfig } from "./types.js";

/** Upper snake case, as the upstream names metrics. */
export const METRIC_NAME = /^[A-Z][A-Z0-9_]*$/;

const TYPES_ALL = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"] as const;
const TYPES_VECTOR = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH"] as const;
const TYPES_LATENCY = ["INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"] as const;

/**
 * Every documented second-form metric (docs/design.md section 7), queried when the config lists
 * no `metrics.queries`. Second form means no `stat`: each name carries its statistic.
 */
export const DEFAULT_METRIC_QUERIES: readonly MetricQueryConfig[] = Object.freeze(
  [
    "CU_COMPUTATION",
    "CU_CAPACITY",
    "STORAGE_USE",
    "READ_VCU",
    "WRITE_VCU",
    ...TYPES_ALL.map((t) => `REQ_${t}_COUNT`),
    ...TYPES_VECTOR.map((t) => `VECTOR_REQ_${t}_COUNT`),
    ...TYPES_LATENCY.flatMap((t) => [`REQ_${t}_LATENCY_AVG`, `REQ_${t}_LATENCY_P99`]),
    "SLOW_QUERY_COUNT",
    ...TYPES_ALL.map((t) => `REQ_FAIL_RATE_${t}`),
    "ENTITIES_LOADED",
    "ENTITIES_INDEXED",
    "ENTITIES_COUNT",
    "COLLECTIONS_COUNT",
    "CLUSTER_WRITE_CAPACITY",
    "UNLOADED_COLLECTIONS_COUNT",
    "FLUSH_COUNT",
  ].map((name) => Object.freeze({ name })),
);

// Documented only in the first form, where every non-latency metric takes stat AVG (latency
// ones are covered by the _LATENCY rule below).
const FIRST_FORM_ONLY = new Set(["REQ_SUCCESS_RATE", "REQ_FAIL_RATE", "ENTITIES_INSERT_RATE"]);

const SECOND_FORM_NAMES: ReadonlySet<string> = new Set(DEFAULT_METRIC_QUERIES.map((q) => q.name));

// First-form latency names whose request type has no second-form latency (bulk insert).
const DOCUMENTED_FIRST_FORM_LATENCY: ReadonlySet<string> = new Set(TYPES_ALL.map((t) => `REQ_${t}_LATENCY`));

/**
 * Cluster-level resource metrics: a database or collection has no CU, vCU or collection count
 * of its own, so scopes do not ask for them unless a scope lists them itself.
 */
export const CLUSTER_LEVEL_METRICS: ReadonlySet<string> = new Set([
  "CU_COMPUTATION",
  "CU_CAPACITY",
  "CLUSTER_WRITE_CAPACITY",
  "READ_VCU",
  "WRITE_VCU",
  "COLLECTIONS_COUNT",
  "UNLOADED_COLLECTIONS_COUNT",
]);

/**
 * What a configured query sends: itself, except that a plain first-form-only name gets
 * `stat: AVG` (the only statistic of non-latency metrics) and a plain REQ_{T}_LATENCY asks both
 * AVG and P99. Call on queries that passed `checkQuery`.
 */
export function expandQuery(query: MetricQueryConfig): MetricQueryConfig[] {
  if (query.stat !== undefined) return [query];
  if (isFirstFormLatency(query.name)) {
    return [
      { name: query.name, stat: "AVG" },
      { name: query.name, stat: "P99" },
    ];
  }
  if (FIRST_FORM_ONLY.has(query.name)) return [{ name: query.name, stat: "AVG" }];
  return [query];
}

/** `expandQuery` over a list, keeping order and sending each (name, stat) once. */
export function expandQueries(queries: readonly MetricQueryConfig[]): MetricQueryConfig[] {
  const seen = new Set<string>();
  const out: MetricQueryConfig[] = [];
  for (const q of queries.flatMap(expandQuery)) {
    const key = queryKey(q);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(q);
  }
  return out;
}

/**
 * The second-form query asking the same thing, or undefined when the second form (and so a
 * per-collection scope) cannot carry it: REQ_{T}_LATENCY + stat becomes REQ_{T}_LATENCY_{stat}
 * (none is documented for bulk insert), another name with stat AVG becomes the plain name, and
 * the first-form-only metrics have no equivalent. Undocumented names follow the same rules.
 */
export function toSecondForm(query: MetricQueryConfig): MetricQueryConfig | undefined {
  const { name, stat } = query;
  if (FIRST_FORM_ONLY.has(name)) return undefined;
  if (isFirstFormLatency(name)) {
    const suffixed = `${name}_${stat ?? "AVG"}`;
    if (SECOND_FORM_NAMES.has(suffixed)) return { name: suffixed };
    return DOCUMENTED_FIRST_FORM_LATENCY.has(name) ? undefined : { name: suffixed };
  }
  return { name };
}

/**
 * The queries of a per-collection scope: its own list when it has one, else every configured
 * metric the second form can carry except the cluster-level ones; translated to second-form
 * names, each sent once, in order.
 */
export function scopeQueries(
  metricQueries: readonly MetricQueryConfig[],
  own: readonly MetricQueryConfig[] | undefined,
): MetricQueryConfig[] {
  const source = own ?? metricQueries.filter((q) => !CLUSTER_LEVEL_METRICS.has(q.name));
  const seen = new Set<string>();
  const out: MetricQueryConfig[] = [];
  for (const q of source.flatMap(expandQuery)) {
    const second = toSecondForm(q);
    if (second === undefined || seen.has(second.name)) continue;
    seen.add(second.name);
    out.push(second);
  }
  return out;
}

/** First-form latency metric (REQ_SEARCH_LATENCY): the only kind that accepts `stat: P99`. */
export function isFirstFormLatency(name: string): boolean {
  return name.endsWith("_LATENCY");
}

/** Second-form name with a built-in statistic (…_AVG, …_P99): must not carry a `stat`. */
export function hasStatInName(name: string): boolean {
  return name.endsWith("_AVG") || name.endsWith("_P99");
}

/** A problem with one query: which field is wrong (`name` or `stat`) and why. */
export interface QueryProblem {
  readonly field: "name" | "stat";
  readonly message: string;
}

/**
 * Checks the form rules of one syntactically valid query (name already upper snake case,
 * stat already AVG/P99 or absent). Returns no problems for an acceptable query. Unknown names
 * are accepted: the exporter maps any upstream name generically. A plain name is always
 * acceptable (see `expandQuery`).
 */
export function checkQuery(query: MetricQueryConfig): QueryProblem[] {
  const { name, stat } = query;
  if (stat !== undefined && hasStatInName(name)) {
    return [{ field: "stat", message: `${name} already names its statistic (second form); remove stat` }];
  }
  if (stat === "P99" && !isFirstFormLatency(name)) {
    return [
      {
        field: "stat",
        message: `P99 is only available for latency metrics (names ending in _LATENCY); use AVG for ${name}`,
      },
    ];
  }
  return [];
}

/**
 * Checks a query of `clusters[].scopes[].queries`: on top of `checkQuery`, it must have a
 * second-form equivalent, because scopes exist only in the second form.
 */
export function checkScopeQuery(query: MetricQueryConfig): QueryProblem[] {
  const problems = checkQuery(query);
  if (problems.length > 0) return problems;
  const untranslatable = expandQuery(query).find((q) => toSecondForm(q) === undefined);
  if (untranslatable === undefined) return [];
  return [
    {
      field: "name",
      message: `${query.name}${query.stat === undefined ? "" : ` with stat ${query.stat}`} has no per-collection (second) form; list it under metrics.queries instead`,
    },
  ];
}

/** Identity of a query for duplicate detection: the same name with the same (or no) stat. */
export function queryKey(query: MetricQueryConfig): string {
  return query.stat === undefined ? query.name : `${query.name}/${query.stat}`;
}

/**
 * The queries one metrics target sends: the cluster-wide list (`metrics.queries`, expanded)
 * for a cluster, the scope's own or derived list for a scope. The poller and `--check-config`
 * both use this, so the plan prints what is sent.
 */
export function queriesForTarget(
  metricQueries: readonly MetricQueryConfig[],
  scope?: ScopeConfig,
): readonly MetricQueryConfig[] {
  if (scope === undefined) return metricQueries;
  return scope.queries ?? scopeQueries(metricQueries, undefined);
}
