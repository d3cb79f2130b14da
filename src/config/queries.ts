/**
 * Metric query rules of the config file, over the one upstream catalog (upstream/catalog.ts):
 * the default list, which form a configured query is sent in, what a per-collection scope can
 * carry, and the checks of `metrics.queries` and `clusters[].scopes[].queries`.
 */

import {
  DEFAULT_QUERIES,
  expandQuery,
  hasStatInName,
  isClusterOnly,
  isLatencyName,
  queryKey,
  toCurrentForm,
  UPSTREAM_METRICS,
  upstreamMetric,
} from "../upstream/catalog.js";
import type { MetricQuery as MetricQueryConfig } from "../upstream/types.js";
import { editDistance } from "./issues.js";

/** A scope as `queriesForTarget` reads it (structural, so this module needs no schema type). */
export interface ScopeQueries {
  readonly dbName?: string | undefined;
  readonly collectionName?: string | undefined;
  readonly queries?: readonly MetricQueryConfig[] | undefined;
}

export { expandQuery, queryKey, toCurrentForm };

/** Upper snake case, as the upstream names metrics. */
export const METRIC_NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * The queries sent when the config lists no `metrics.queries`: the current public reference's
 * enum, name only (upstream/catalog.ts `DEFAULT_QUERIES`).
 */
export const DEFAULT_METRIC_QUERIES: readonly MetricQueryConfig[] = DEFAULT_QUERIES;

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
 * The queries of a per-collection scope: its own list when it has one, else every configured
 * metric the current form can carry except the cluster-level ones; written in the current
 * form, each sent once, in order. A key whose server speaks the 2024 form sends the same
 * questions in that form (collectors/cluster-metrics/forms.ts).
 */
export function scopeQueries(
  metricQueries: readonly MetricQueryConfig[],
  own: readonly MetricQueryConfig[] | undefined,
): MetricQueryConfig[] {
  const source = own ?? metricQueries.filter((q) => !isClusterOnly(q.name));
  const seen = new Set<string>();
  const out: MetricQueryConfig[] = [];
  for (const q of source.flatMap(expandQuery)) {
    const current = toCurrentForm(q);
    if (current === undefined || seen.has(current.name)) continue;
    seen.add(current.name);
    out.push(current);
  }
  return out;
}

/** A problem with one query: which field is wrong (`name` or `stat`) and why. */
export interface QueryProblem {
  readonly field: "name" | "stat";
  readonly message: string;
}

/**
 * Checks the form rules of one syntactically valid query (name already upper snake case,
 * stat already AVG/P99 or absent). Returns no problems for an acceptable query. Whether the
 * name is known is `checkQueryName`'s business. A plain name is always acceptable (see
 * `expandQuery`).
 */
export function checkQuery(query: MetricQueryConfig): QueryProblem[] {
  const { name, stat } = query;
  if (stat !== undefined && hasStatInName(name)) {
    return [{ field: "stat", message: `${name} already names its statistic (current form); remove stat` }];
  }
  const known = upstreamMetric(name);
  const takesP99 = known === undefined ? isLatencyName(name) : known.stats.includes("P99");
  if (stat === "P99" && !takesP99) {
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
 * current-form equivalent: per-collection values exist only for names the current form has.
 */
export function checkScopeQuery(query: MetricQueryConfig): QueryProblem[] {
  const problems = checkQuery(query);
  if (problems.length > 0) return problems;
  const untranslatable = expandQuery(query).find((q) => toCurrentForm(q) === undefined);
  if (untranslatable === undefined) return [];
  return [
    {
      field: "name",
      message: `${query.name}${query.stat === undefined ? "" : ` with stat ${query.stat}`} has no per-collection (current) form; list it under metrics.queries instead`,
    },
  ];
}

const KNOWN_NAMES: readonly string[] = UPSTREAM_METRICS.map((e) => e.name);

/**
 * The catalog names closest to `name` by edit distance (at most `max`, closest first), among
 * those within a third of its length: a typo's likely intent, never an unrelated name.
 */
function nearestMetricNames(name: string, max = 3): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return KNOWN_NAMES.map((known) => ({ known, d: editDistance(name, known) }))
    .filter((c) => c.d <= limit)
    .sort((a, b) => a.d - b.d || a.known.localeCompare(b.known))
    .slice(0, max)
    .map((c) => c.known);
}

/**
 * A name outside the catalog is a problem unless `allowUnknown` (`metrics.allow_unknown_names`)
 * lets it through; the message suggests the nearest known names.
 */
export function checkQueryName(name: string, allowUnknown: boolean): QueryProblem[] {
  if (allowUnknown || upstreamMetric(name) !== undefined) return [];
  const near = nearestMetricNames(name);
  const hint =
    near.length > 0 ? `did you mean ${near.join(" or ")}?` : "not in the metric catalog (docs/metrics.md)";
  return [
    {
      field: "name",
      message: `unknown metric ${name} (${hint}; metrics.allow_unknown_names: true sends it anyway)`,
    },
  ];
}

/**
 * The queries one metrics target sends: the cluster-wide list (`metrics.queries`, expanded)
 * for a cluster, the scope's own or derived list for a scope. The poller and `--check-config`
 * both use this, so the polling schedule prints what is sent.
 */
export function queriesForTarget(
  metricQueries: readonly MetricQueryConfig[],
  scope?: ScopeQueries,
): readonly MetricQueryConfig[] {
  if (scope === undefined) return metricQueries;
  return scope.queries ?? scopeQueries(metricQueries, undefined);
}
