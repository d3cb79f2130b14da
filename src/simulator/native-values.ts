/**
 * The values of the service's own Prometheus endpoint for one simulated cluster (the families of
 * docs/design.md section 7), from the same value profile as Query Cluster Metrics:
 *
 * - gauges are the newest PT1M bucket Query Cluster Metrics has data for, as a ratio (percent /
 *   100) or in bytes, rounded as its answer is: for the same cluster they equal what the exporter
 *   reads from the metric query;
 * - counters grow with the traffic since the cluster was created: the integral of the profile's
 *   daily load curve (without its per-second noise, so that it is a closed form and never goes
 *   back), times each request type's rate; failures are the type's base failure ratio of them;
 * - the latency histogram spreads each type's requests over a log-normal distribution around the
 *   profile's latency at the mean load.
 * Pure: the same profile and time give the same values.
 */
import { resolveMetricQuery } from "./metric-catalog.js";
import { type ClusterProfile, formatValue, metricValue, scopeKey } from "./metric-values.js";
import { DAY_MS, MINUTE_MS } from "./time.js";
import type { SimCluster } from "./world.js";

const TWO_PI = Math.PI * 2;

/** The bucket the gauges read: Query Cluster Metrics' PT1M. */
export const NATIVE_GAUGE_GRANULARITY_MS = MINUTE_MS;

/** Request types of zilliz_requests_total (lower case, as the endpoint labels them). */
export const NATIVE_REQUEST_TYPES = [
  "insert",
  "upsert",
  "delete",
  "bulk_insert",
  "flush",
  "search",
  "query",
] as const;
/** Request types of zilliz_request_vectors_total (the documentation's sample). */
const VECTOR_TYPES = ["bulk_insert", "delete", "insert", "search", "upsert"] as const;
/** Request types of the latency histogram. */
const LATENCY_TYPES = ["insert", "upsert", "delete", "bulk_insert", "search", "query"] as const;
/** The histogram's upper bounds, in seconds (+Inf follows). */
export const NATIVE_LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** Spread of the latency distribution (log-normal sigma): P99 is about 4 x the median. */
const LATENCY_SIGMA = 0.6;

type LatencyType = (typeof LATENCY_TYPES)[number];

/** The profile's traffic parameters of a lower-case request type. */
function typeProfile(p: ClusterProfile, type: LatencyType) {
  return p.types[type.toUpperCase() as keyof ClusterProfile["types"]];
}

/**
 * Traffic-weighted seconds from the cluster's creation to `t`: the integral of the profile's
 * traffic factor 0.5 + 0.5 x load / baseLoad, with load = baseLoad + amplitude x sin(daily
 * phase); it is at least 1/3 at every instant, so the integral only grows.
 */
export function trafficSeconds(p: ClusterProfile, t: number): number {
  const from = p.createTimeMs;
  if (t <= from) return 0;
  const w = TWO_PI / DAY_MS;
  const k = (0.5 * p.amplitude) / p.baseLoad;
  return (t - from + (k / w) * (Math.cos(w * from + p.phase) - Math.cos(w * t + p.phase))) / 1000;
}

/** Requests of one type since creation (before rounding); bulk inserts only on clusters that make them. */
function requests(p: ClusterProfile, type: (typeof NATIVE_REQUEST_TYPES)[number], t: number): number {
  const seconds = trafficSeconds(p, t);
  if (type === "flush") {
    const insert = p.types.INSERT.qps;
    return ((0.2 + (3 * insert) / (insert + 20)) / 60) * seconds;
  }
  if (type === "bulk_insert" && !p.bulkInsert) return 0;
  return typeProfile(p, type).qps * seconds;
}

/** The share of a type's requests that fail, from the profile's failure rate at its mean load. */
function failRatio(p: ClusterProfile, type: string): number {
  const base = type === "bulk_insert" ? 0.5 : 0.02;
  return (base + 0.6 * p.baseLoad ** 6) / 100;
}

/** Standard normal CDF (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return 0.5 * (1 + (x < 0 ? -erf : erf));
}

/** One counter or histogram series: its labels beyond the cluster's, and its value. */
export interface NativeSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A type's requests by outcome: zilliz_requests_total. */
export function requestCounters(p: ClusterProfile, t: number): NativeSample[] {
  return NATIVE_REQUEST_TYPES.flatMap((type) => {
    const total = requests(p, type, t);
    if (total === 0) return [];
    const f = failRatio(p, type);
    // Each rounded on its own: both only grow.
    return [
      { labels: { request_type: type, status: "success" }, value: Math.floor(total * (1 - f)) },
      { labels: { request_type: type, status: "fail" }, value: Math.floor(total * f) },
    ];
  });
}

/** Vectors carried by each type's requests: zilliz_request_vectors_total. */
export function vectorCounters(p: ClusterProfile, t: number): NativeSample[] {
  return VECTOR_TYPES.flatMap((type) => {
    const total = requests(p, type, t);
    return total === 0
      ? []
      : [{ labels: { request_type: type }, value: Math.floor(total * typeProfile(p, type).vectors) }];
  });
}

/** Searches slower than 5 s: zilliz_slow_queries_total (the profile's rate at its mean load). */
export function slowQueries(p: ClusterProfile, t: number): number {
  return Math.floor(p.types.SEARCH.qps * 5e-4 * p.baseLoad ** 2 * trafficSeconds(p, t));
}

/** The median latency of a type at the mean load, in seconds. */
function medianSeconds(p: ClusterProfile, type: LatencyType): number {
  return (typeProfile(p, type).latencyMs * (1 + 2 * p.baseLoad ** 3)) / 1000;
}

/** A type's latency histogram: cumulative bucket counts by `le`, then the count and sum. */
export interface NativeHistogram {
  readonly requestType: LatencyType;
  readonly buckets: readonly { readonly le: string; readonly count: number }[];
  readonly count: number;
  readonly sumSeconds: number;
}

/** zilliz_request_duration_seconds: one histogram per request type that has requests. */
export function latencyHistograms(p: ClusterProfile, t: number): NativeHistogram[] {
  return LATENCY_TYPES.flatMap((type) => {
    const total = requests(p, type, t);
    if (total === 0) return [];
    const median = medianSeconds(p, type);
    const buckets = NATIVE_LATENCY_BUCKETS.map((le) => ({
      le: String(le),
      count: Math.floor(total * normalCdf(Math.log(le / median) / LATENCY_SIGMA)),
    }));
    return [
      {
        requestType: type,
        buckets: [...buckets, { le: "+Inf", count: Math.floor(total) }],
        count: Math.floor(total),
        sumSeconds: total * median * Math.exp((LATENCY_SIGMA * LATENCY_SIGMA) / 2),
      },
    ];
  });
}

/** The start of the newest PT1M bucket Query Cluster Metrics has data for at `nowMs`. */
export function newestGaugeBucket(p: ClusterProfile, nowMs: number): number {
  const g = NATIVE_GAUGE_GRANULARITY_MS;
  return Math.floor((nowMs - g - p.lagMs) / g) * g;
}

/** A metric's value as Query Cluster Metrics answers it for one bucket (rounded as on the wire). */
function answered(name: string, p: ClusterProfile, t: number, scope?: string): number | null {
  const resolved = resolveMetricQuery(name, undefined);
  if (typeof resolved === "string") throw new Error(resolved);
  const scopeProfile = scope === undefined ? undefined : p.scopes.get(scope);
  const v = metricValue(resolved.def, "AVG", p, scopeProfile, t, NATIVE_GAUGE_GRANULARITY_MS);
  return v === null ? null : Number(formatValue(resolved.def.kind, v));
}

/** The cluster-wide gauges: ratios 0..1 (percent / 100), bytes, counts. */
export function clusterGauges(p: ClusterProfile, t: number): Record<string, number | null> {
  const percent = (name: string) => {
    const v = answered(name, p, t);
    return v === null ? null : v / 100;
  };
  const storage = answered("STORAGE_USE", p, t);
  return {
    zilliz_cluster_computation: percent("CU_COMPUTATION"),
    zilliz_cluster_capacity: percent("CU_CAPACITY"),
    zilliz_storage_bytes: storage === null ? null : storage * 1e9,
    zilliz_cluster_write_capacity: percent("CLUSTER_WRITE_CAPACITY"),
    zilliz_collections: answered("COLLECTIONS_COUNT", p, t),
    zilliz_unloaded_collections: answered("UNLOADED_COLLECTIONS_COUNT", p, t),
  };
}

/** Per collection: entities, loaded and indexed entities (the collection scope's values). */
export function collectionGauges(
  cluster: SimCluster,
  p: ClusterProfile,
  t: number,
): { readonly family: string; readonly collection: string; readonly value: number }[] {
  const families = [
    ["zilliz_entities", "ENTITIES_COUNT"],
    ["zilliz_loaded_entities", "ENTITIES_LOADED"],
    ["zilliz_indexed_entities", "ENTITIES_INDEXED"],
  ] as const;
  return families.flatMap(([family, name]) =>
    cluster.collections.flatMap((c) => {
      const v = answered(name, p, t, scopeKey(c.dbName, c.collectionName));
      return v === null ? [] : [{ family, collection: c.collectionName, value: v }];
    }),
  );
}
