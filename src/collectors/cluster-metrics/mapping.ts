/**
 * Pure mapping of Query Cluster Metrics results to samples: per series the newest closed,
 * usable bucket, converted to base units, labelled by cluster (and scope), named by the catalog.
 */

import { MappingBuilder, seriesKey } from "../../metrics/builder.js";
import { TARGET_SELF_FAMILIES } from "../../metrics/families.js";
import { lookupFamily } from "../../metrics/familyLookup.js";
import type { DropReason, FamilyDef, MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import { toBaseUnit } from "../../metrics/units.js";
import { QUERY_FORMS, type QueryForm } from "../../upstream/catalog.js";
import type { MetricPoint, MetricResult } from "../../upstream/types.js";

/** A per-database / per-collection target (second request form). */
export interface MetricScope {
  readonly dbName?: string;
  readonly collectionName?: string;
}

/**
 * The window a request asked for, and when: a bucket that starts at or after `endMs`, or ends
 * after `nowMs`, has not ended and holds partial data.
 */
export interface QueryWindow {
  readonly endMs: number;
  readonly granularityMs: number;
  /** When the request was built (epoch ms). */
  readonly nowMs: number;
}

export interface ClusterMetricsInput {
  readonly clusterId: string;
  readonly scope?: MetricScope;
  readonly results: readonly MetricResult[];
  readonly window: QueryWindow;
}

interface ClusterMetricsMapping extends MappingResult {
  /** Newest usable bucket over all results (epoch ms), null when there was none. */
  readonly newestBucketMs: number | null;
}

/** A parsed upstream value, or why it cannot be used. */
type ParsedValue =
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
  const v = metricValue(raw);
  return typeof v === "number" ? { ok: true, value: v } : { ok: false, reason: v };
}

/** parseMetricValue without an object per call: the value, or why there is none. */
function metricValue(raw: string): number | "unparsable_value" | "non_finite_value" {
  const s = raw.trim();
  if (NON_FINITE.test(s)) return "non_finite_value";
  if (!DECIMAL.test(s)) return "unparsable_value";
  const value = Number(s);
  return Number.isFinite(value) ? value : "non_finite_value";
}

/** Why a point of a result cannot be the series' value. */
type PointProblem = Extract<
  DropReason,
  "open_bucket" | "bad_timestamp" | "unparsable_value" | "non_finite_value"
>;

/** The point a series shows, and the problems of the newer points passed over to reach it. */
interface PointChoice {
  readonly point: { readonly timestampMs: number; readonly value: number } | undefined;
  /** One entry per skipped point newer than the chosen one (older ones never mattered). */
  readonly skipped: readonly PointProblem[];
}

/** Whether a bucket starting at `timestampMs` had ended when the request was made. */
function isClosedBucket(timestampMs: number, window: QueryWindow): boolean {
  return timestampMs < window.endMs && timestampMs + window.granularityMs <= window.nowMs;
}

/**
 * The newest usable point of a result, by timestamp rather than array order (the API does not
 * document an order); on equal timestamps the first one wins. Null values are "no data" and
 * never a problem. A point is passed over, and reported in `skipped` when it is newer than the
 * chosen one, if its bucket has not ended (its value is partial), its timestamp is missing or
 * unreadable, or its value does not parse: an older closed bucket then still wins, because
 * it is a true value of a finished bucket and the freshness gauge shows its age.
 */
export function newestUsablePoint(values: readonly MetricPoint[], window: QueryWindow): PointChoice {
  // Plain numbers, and a problem list only once there is a problem: this runs for every result
  // of every answer, ten points each at the default lookback.
  let bestMs = Number.NEGATIVE_INFINITY;
  let bestValue = 0;
  let problems: { readonly timestampMs: number; readonly reason: PointProblem }[] | undefined;
  const problem = (timestampMs: number, reason: PointProblem): void => {
    if (problems === undefined) problems = [];
    problems.push({ timestampMs, reason });
  };
  for (const { timestampMs, value } of values) {
    if (value === null) continue;
    if (!Number.isFinite(timestampMs)) {
      problem(Number.POSITIVE_INFINITY, "bad_timestamp");
      continue;
    }
    if (!isClosedBucket(timestampMs, window)) {
      problem(timestampMs, "open_bucket");
      continue;
    }
    if (timestampMs <= bestMs) continue;
    const parsed = metricValue(value);
    if (typeof parsed !== "number") {
      problem(timestampMs, parsed);
      continue;
    }
    bestMs = timestampMs;
    bestValue = parsed;
  }
  const point = bestMs === Number.NEGATIVE_INFINITY ? undefined : { timestampMs: bestMs, value: bestValue };
  if (problems === undefined) return { point, skipped: NO_PROBLEMS };
  return { point, skipped: problems.filter((p) => p.timestampMs > bestMs).map((p) => p.reason) };
}

const NO_PROBLEMS: readonly PointProblem[] = [];

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
 * Per result the newest usable point is the value (see `newestUsablePoint`); a result with no
 * non-null point gives no sample and is not counted, since "no data" is normal upstream. The
 * points passed over on the way are counted by reason. A whole result is dropped and counted
 * when its unit does not convert to the family's unit, when its name cannot be mapped, or when
 * it is a first-form latency without a known statistic (labelling it avg could show a P99
 * as an average, so it is never guessed).
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
  const bucketSeconds = input.window.granularityMs / 1000;
  let newestBucketMs: number | null = null;

  for (const result of input.results) {
    const { point, skipped } = newestUsablePoint(result.values, input.window);
    for (const reason of skipped) out.drop(reason);
    if (point === undefined) continue;

    const found = lookupFamily(result.name, result.stat, result.unit);
    if (!found.ok) {
      out.drop(found.reason);
      continue;
    }
    const { family, labels: extra, kind } = found.entry;
    const value = toBaseUnit(point.value, result.unit, kind, bucketSeconds);
    if (value === undefined) {
      out.drop("unknown_unit");
      continue;
    }
    if (!Number.isFinite(value)) {
      out.drop("non_finite_value");
      continue;
    }
    if (newestBucketMs === null || point.timestampMs > newestBucketMs) newestBucketMs = point.timestampMs;
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

/**
 * vdbcloud_metrics_newest_bucket_timestamp_seconds{cluster_id[,db_name,collection_name]} from
 * the `newestBucketMs` of mapClusterMetrics; no sample when there was no non-null bucket.
 */
export function newestBucketSamples(
  clusterId: string,
  scope: MetricScope | undefined,
  newestBucketMs: number | null,
): MappingResult {
  const out = new MappingBuilder();
  if (newestBucketMs !== null)
    out.add(TARGET_SELF_FAMILIES.newestBucket, clusterLabels(clusterId, scope), newestBucketMs / 1000);
  return out.result();
}

/**
 * vdbcloud_metric_query_rejected{cluster_id[,db_name,collection_name],metric,stat} 1 per
 * quarantined query; `stat` is the configured statistic, empty for a second-form query.
 */
export function rejectedQuerySamples(
  clusterId: string,
  scope: MetricScope | undefined,
  held: readonly { readonly query: { readonly name: string; readonly stat?: string } }[],
): MappingResult {
  const out = new MappingBuilder();
  for (const { query } of held) {
    const labels = { ...clusterLabels(clusterId, scope), metric: query.name, stat: query.stat ?? "" };
    out.add(TARGET_SELF_FAMILIES.metricQueryRejected, labels, 1);
  }
  return out.result();
}

/**
 * Maps the form a key speaks to the vdbcloud_metrics_query_form{credential,form} state set:
 * one series per form (current, 2024), 1 for `form`.
 */
export function queryFormSamples(credential: string, form: QueryForm): MappingResult {
  const out = new MappingBuilder();
  const family = TARGET_SELF_FAMILIES.metricsQueryForm;
  out.addSamples(family, stateSet(family, { credential }, "form", QUERY_FORMS, form));
  return out.result();
}
