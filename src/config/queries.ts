/**
 * Metric query rules of Query Cluster Metrics, and the default query list. Two request forms
 * exist upstream: the first names a metric and a `stat` (AVG, or P99 for latency metrics); the
 * second (current) form bakes the statistic into the name (REQ_SEARCH_LATENCY_P99) and takes no
 * `stat`. A query with `stat` is sent in the first form, one without in the second.
 */
import type { MetricQueryConfig } from "./types.js";

/** Upper snake case, as the upstream names metrics. */
export const METRIC_NAME = /^[A-Z][A-Z0-9_]*$/;

const TYPES_ALL = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"] as const;
const TYPES_VECTOR = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH"] as const;
const TYPES_LATENCY = ["INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"] as const;

/**
 * Every documented second-form metric (design.md section 7), queried when the config lists
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

// Documented only in the first form, so they need a `stat` (latency ones are covered by the
// _LATENCY rule below).
const FIRST_FORM_ONLY = new Set(["REQ_SUCCESS_RATE", "REQ_FAIL_RATE", "ENTITIES_INSERT_RATE"]);

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
 * are accepted: the exporter maps any upstream name generically.
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
  if (stat === undefined && isFirstFormLatency(name)) {
    return [
      {
        field: "stat",
        message: `is required for ${name} (first form): AVG or P99; or use ${name}_AVG / ${name}_P99 without stat`,
      },
    ];
  }
  if (stat === undefined && FIRST_FORM_ONLY.has(name)) {
    return [
      {
        field: "stat",
        message: `is required for ${name}, which exists only in the first form: add stat: AVG`,
      },
    ];
  }
  return [];
}

/** Identity of a query for duplicate detection: the same name with the same (or no) stat. */
export function queryKey(query: MetricQueryConfig): string {
  return query.stat === undefined ? query.name : `${query.name}/${query.stat}`;
}
