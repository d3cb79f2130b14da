/**
 * Pure mapping of Query Cluster Metrics results to samples: per series the newest non-null
 * bucket, converted to base units, labelled by cluster (and scope), named by the catalog.
 */
import type { MetricPoint, MetricResult } from "../cloud/types.js";
import { MappingBuilder, seriesKey } from "./builder.js";
import { lookupFamily } from "./catalog.js";
import type { DropReason, FamilyDef, MappingResult } from "./sample.js";
import { toBaseUnit } from "./units.js";

export { buildMetricQueries, type MetricQueryBatch } from "./metricQueries.js";

/** A per-database / per-collection target (second request form). */
export interface MetricScope {
  readonly dbName?: string;
  readonly collectionName?: string;
}

export interface ClusterMetricsInput {
  readonly clusterId: string;
  readonly scope?: MetricScope;
  readonly results: readonly MetricResult[];
}

export interface ClusterMetricsMapping extends MappingResult {
  /** Newest non-null bucket over all results (epoch ms), null when every value was null. */
  readonly newestBucketMs: number | null;
}

/** A parsed upstream value, or why it cannot be used. */
export type ParsedValue =
  | { readonly ok: true; readonly value: number }
  | { readonly ok: false; readonly reason: Extract<DropReason, "unparsable_value" | "non_finite_value"> };

// Decimal notation only: Number() would also accept "", "0x1F", "0b1" and " ", none of which is
// a metric value the upstream documents.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const NON_FINITE = /^[+-]?(?:nan|inf|infinity)$/i;

/**
 * Parses an upstream metric value (a decimal string). NaN and infinities, spelled out or
 * overflowing, are "non_finite_value"; anything else that is not a decimal is "unparsable_value".
 */
export function parseMetricValue(raw: string): ParsedValue {
  const s = raw.trim();
  if (NON_FINITE.test(s)) return { ok: false, reason: "non_finite_value" };
  if (!DECIMAL.test(s)) return { ok: false, reason: "unparsable_value" };
  const value = Number(s);
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, reason: "non_finite_value" };
}

/**
 * The newest bucket with a non-null value, by timestamp rather than array order (the API does
 * not document an order). On equal timestamps the first one in the array wins.
 */
export function newestNonNull(
  values: readonly MetricPoint[],
): { readonly timestampMs: number; readonly value: string } | undefined {
  let best: { timestampMs: number; value: string } | undefined;
  for (const { timestampMs, value } of values) {
    if (value === null || !Number.isFinite(timestampMs)) continue;
    if (best === undefined || timestampMs > best.timestampMs) best = { timestampMs, value };
  }
  return best;
}

/**
 * The leading labels of every series of a target: cluster_id, then db_name and collection_name
 * when scoped (only the ones present and non-empty).
 */
export function clusterLabels(clusterId: string, scope?: MetricScope): Record<string, string> {
  const labels: Record<string, string> = { cluster_id: clusterId };
  // An empty label value is the same series as no label, so an empty scope part is left out.
  if (scope?.dbName) labels.db_name = scope.dbName;
  if (scope?.collectionName) labels.collection_name = scope.collectionName;
  return labels;
}

interface Candidate {
  readonly family: FamilyDef;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly timestampMs: number;
}

/**
 * Maps the results of one target's Query Cluster Metrics request(s) to samples.
 *
 * Per result the newest non-null bucket is the value; a result with no non-null bucket (empty
 * or all null) gives no sample and is not counted, since "no data" is normal upstream. When the
 * newest non-null value is unusable (unparsable, not finite, or a unit that does not convert
 * to the family's unit) the series is dropped for this cycle and counted under that reason. It
 * does not fall back to an older bucket: that would present old data as current while the
 * freshness gauge says otherwise, and hide an upstream change that the drop counter exposes.
 *
 * Labels, in order: cluster_id, db_name and collection_name when scoped (those present), then
 * the family's own labels. When two results land on the same series (e.g. REQ_SEARCH_LATENCY
 * with stat P99 and REQ_SEARCH_LATENCY_P99) the one with the newer bucket is kept, the first
 * one on a tie.
 */
export function mapClusterMetrics(input: ClusterMetricsInput): ClusterMetricsMapping {
  const out = new MappingBuilder();
  const base = clusterLabels(input.clusterId, input.scope);
  const chosen = new Map<string, Candidate>();
  let newestBucketMs: number | null = null;

  for (const result of input.results) {
    const point = newestNonNull(result.values);
    if (point === undefined) continue;
    if (newestBucketMs === null || point.timestampMs > newestBucketMs) newestBucketMs = point.timestampMs;

    const found = lookupFamily(result.name, result.stat, result.unit);
    if (!found.ok) {
      out.drop(found.reason);
      continue;
    }
    const parsed = parseMetricValue(point.value);
    if (!parsed.ok) {
      out.drop(parsed.reason);
      continue;
    }
    const { family, labels: extra, kind } = found.entry;
    const value = toBaseUnit(parsed.value, result.unit, kind);
    if (value === undefined) {
      out.drop("unknown_unit");
      continue;
    }
    if (!Number.isFinite(value)) {
      out.drop("non_finite_value");
      continue;
    }
    const labels = { ...base, ...extra };
    const key = seriesKey(family.name, labels);
    const previous = chosen.get(key);
    if (previous === undefined || point.timestampMs > previous.timestampMs) {
      chosen.set(key, { family, labels, value, timestampMs: point.timestampMs });
    }
  }

  for (const c of chosen.values()) out.add(c.family, c.labels, c.value);
  return { ...out.result(), newestBucketMs };
}
