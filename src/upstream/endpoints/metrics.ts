/**
 * Query Cluster Metrics: POST /v2/clusters/{CLUSTER_ID}/metrics/query.
 *
 * Two request forms (upstream/catalog.ts): the first sends `stat` per query, the second has no
 * `stat`; either may carry a `dbName`/`collectionName` scope. The builder sends what it is given. On the
 * way back, a result names its metric `name` or `metricName`, carries `stat` or not (then the
 * request tells it), and each value is a string, a number or null; a malformed point is kept
 * as unusable (NaN timestamp or "" value) for the mapping to drop and count.
 */
import { z } from "zod";
import { formatDuration } from "../../shared/duration.js";
import { parseStat } from "../catalog.js";
import { formatIsoUtcSeconds, parseTimestamp } from "../iso.js";
import type { ClusterMetricsRequest, MetricPoint, MetricQuery, MetricResult } from "../results.js";
import { defineEndpoint, V2 } from "./define.js";

// Points are read one by one and never fail the response: one bad point (a missing or empty
// timestamp, a value of an odd type) must not cost the other metrics of the answer. The mapping
// drops and counts such points (NaN timestamp, "" value).
function readPoint(raw: unknown): MetricPoint {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return { timestampMs: Number.NaN, value: "" };
  const { timestamp, value } = raw as Record<string, unknown>;
  const ts =
    typeof timestamp === "string" || typeof timestamp === "number" ? parseTimestamp(timestamp) : undefined;
  let v: string | null;
  if (value === null || value === undefined) v = null;
  else if (typeof value === "string") v = value;
  else if (typeof value === "number") v = String(value);
  else v = "";
  return { timestampMs: ts ?? Number.NaN, value: v };
}

/** One result as read: a missing name is "", which the mapping drops as an unknown metric. */
interface ReadResult {
  readonly name: string;
  /** The raw statistic, when the result carries one (even one this exporter does not know). */
  readonly rawStat: string | undefined;
  readonly unit: string;
  readonly values: readonly MetricPoint[];
}

// lenientText's reading (a string, or a number as its decimal text; anything else is none)
// without a schema: four fields of every result of every answer, the hottest reading there is.
function text(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  return typeof v === "number" ? String(v) : undefined;
}

// Results are read one by one too: an odd field (a null or numeric name, unit or stat, a result
// that is not an object) costs that result, never the other metrics of the answer.
function readResult(raw: unknown): ReadResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { name: "", rawStat: undefined, unit: "", values: [] };
  }
  const r = raw as Record<string, unknown>;
  return {
    name: text(r.name) ?? text(r.metricName) ?? "",
    rawStat: text(r.stat),
    unit: text(r.unit) ?? "",
    values: Array.isArray(r.values) ? r.values.map(readPoint) : [],
  };
}

/**
 * The envelope's `data`: `{results: [...]}`; absent or null `results` means none. Each result
 * is read by `readResult`, so only a `data` that is not an object, or `results` that is not a
 * list, fails the answer.
 */
export const metricsDataSchema = z.object({
  results: z
    .array(z.unknown())
    .nullish()
    .transform((list) => (list ?? []).map(readResult)),
});

type MetricsData = z.infer<typeof metricsDataSchema>;

/** The JSON body sent upstream (both forms). */
interface MetricsRequestBody {
  start: string;
  end: string;
  granularity: string;
  metricQueries: Array<{ name: string; stat?: "AVG" | "P99" }>;
  dbName?: string;
  collectionName?: string;
}

/** Builds the request body: ISO UTC window without milliseconds, ISO duration granularity. */
export function metricsRequestBody(req: ClusterMetricsRequest): MetricsRequestBody {
  return {
    start: formatIsoUtcSeconds(req.startMs),
    end: formatIsoUtcSeconds(req.endMs),
    // Whole seconds: the upstream's granularities are whole seconds.
    granularity: formatDuration(Math.max(0, Math.round(req.granularityMs / 1000)) * 1000),
    metricQueries: req.queries.map((q) =>
      q.stat === undefined ? { name: q.name } : { name: q.name, stat: q.stat },
    ),
    ...(req.dbName === undefined ? {} : { dbName: req.dbName }),
    ...(req.collectionName === undefined ? {} : { collectionName: req.collectionName }),
  };
}

// Other statistics are not part of the API; dropping them keeps the result usable.
const normalizeStat = parseStat;

/**
 * The statistic of each result, taken from the response when it names one, else from the
 * query that asked for it. The response carries `stat` in one documented form only, so a
 * result without it is matched to the request: by name when one query has that name, else by
 * position among the queries and results of that name (AVG and P99 of one metric asked in one
 * request come back in request order). When that cannot tell (more results of a name than
 * queries), the result stays without a stat and the mapping drops it rather than guess. A
 * result that names a statistic this exporter does not know (`rawStat` set, `stat` not) is
 * not relabelled either: the server said what it is, and it is neither.
 */
export function attributeStats(
  queries: readonly MetricQuery[],
  results: readonly {
    readonly name: string;
    readonly stat?: "AVG" | "P99" | undefined;
    readonly rawStat?: string | undefined;
  }[],
): ("AVG" | "P99" | undefined)[] {
  const asked = new Map<string, ("AVG" | "P99" | undefined)[]>();
  for (const q of queries) {
    const key = q.name.toUpperCase();
    const list = asked.get(key) ?? [];
    list.push(q.stat);
    asked.set(key, list);
  }
  const seen = new Map<string, number>();
  return results.map((r) => {
    const key = r.name.trim().toUpperCase();
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    if (r.stat !== undefined || (r.rawStat !== undefined && r.rawStat.trim() !== "")) return r.stat;
    const stats = asked.get(key);
    if (stats === undefined) return undefined;
    return nth < stats.length ? stats[nth] : undefined;
  });
}

/**
 * Maps validated `data` to MetricResult[]: one name, an upper-case stat (from the result, else
 * from the request, see `attributeStats`), points read leniently.
 */
export function normalizeMetrics(data: MetricsData, req?: ClusterMetricsRequest): MetricResult[] {
  const parsed = data.results.map((r) => ({ ...r, stat: normalizeStat(r.rawStat) }));
  const stats = req === undefined ? parsed.map((r) => r.stat) : attributeStats(req.queries, parsed);
  return parsed.map((r, i) => {
    const stat = stats[i];
    return { name: r.name, ...(stat === undefined ? {} : { stat }), unit: r.unit, values: r.values };
  });
}

/** Query Cluster Metrics (v2). */
export const queryClusterMetricsEndpoint = defineEndpoint("POST /v2/clusters/{id}/metrics/query", {
  scope: "cluster",
  paging: "none",
  planOrder: 0,
}).as<ClusterMetricsRequest, MetricsData, MetricResult[]>({
  request: (req) => ({ target: V2, params: { id: req.clusterId }, body: metricsRequestBody(req) }),
  schema: metricsDataSchema,
  normalize: (data, req) => normalizeMetrics(data, req),
});
