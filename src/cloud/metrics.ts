/**
 * Query Cluster Metrics: POST /v2/clusters/{CLUSTER_ID}/metrics/query.
 *
 * Documented in two forms: the first sends `stat` per query, the second adds an optional
 * `dbName`/`collectionName` scope and has no `stat`. The builder accepts their union. On the
 * way back, a result names its metric `name` or `metricName`, carries `stat` or not, and each
 * value is a string, a number or null.
 */
import { z } from "zod";
import type { EndpointDef } from "./endpoint.js";
import { formatIsoDuration, formatIsoUtcSeconds } from "./iso.js";
import type { ClusterMetricsRequest, MetricPoint, MetricResult } from "./types.js";
import { segment } from "./urls.js";
import { timestampMs } from "./wire.js";

const valueSchema = z
  .union([z.string(), z.number().transform(String), z.null()])
  .optional()
  .transform((v) => v ?? null);

const pointSchema = z.object({ timestamp: timestampMs, value: valueSchema });

const resultSchema = z
  .object({
    name: z.string().optional(),
    metricName: z.string().optional(),
    stat: z.string().nullish(),
    unit: z.string().nullish(),
    values: z.array(pointSchema).nullish(),
  })
  .refine((r) => r.name !== undefined || r.metricName !== undefined, {
    message: "a result needs `name` or `metricName`",
  });

/** The envelope's `data`: `{results: [...]}`; absent or null `results` means none. */
export const metricsDataSchema = z.object({ results: z.array(resultSchema).nullish() });

export type MetricsData = z.infer<typeof metricsDataSchema>;

/** The JSON body sent upstream (both forms). */
export interface MetricsRequestBody {
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
    granularity: formatIsoDuration(req.granularityMs),
    metricQueries: req.queries.map((q) =>
      q.stat === undefined ? { name: q.name } : { name: q.name, stat: q.stat },
    ),
    ...(req.dbName === undefined ? {} : { dbName: req.dbName }),
    ...(req.collectionName === undefined ? {} : { collectionName: req.collectionName }),
  };
}

function normalizeStat(stat: string | null | undefined): "AVG" | "P99" | undefined {
  const upper = stat?.toUpperCase();
  // Other statistics are not part of the API; dropping them keeps the result usable.
  return upper === "AVG" || upper === "P99" ? upper : undefined;
}

/** Maps validated `data` to MetricResult[]: one name, an upper-case stat when known. */
export function normalizeMetrics(data: MetricsData): MetricResult[] {
  return (data.results ?? []).map((r) => {
    const stat = normalizeStat(r.stat);
    const values: MetricPoint[] = (r.values ?? []).map((p) => ({ timestampMs: p.timestamp, value: p.value }));
    return {
      name: r.name ?? r.metricName ?? "",
      ...(stat === undefined ? {} : { stat }),
      unit: r.unit ?? "",
      values,
    };
  });
}

/** Query Cluster Metrics (v2). */
export const queryClusterMetricsEndpoint: EndpointDef<ClusterMetricsRequest, MetricsData, MetricResult[]> = {
  endpoint: "POST /v2/clusters/{id}/metrics/query",
  build: (req) => ({
    endpoint: "POST /v2/clusters/{id}/metrics/query",
    method: "POST",
    target: { plane: "v2" },
    path: `/v2/clusters/${segment(req.clusterId)}/metrics/query`,
    body: metricsRequestBody(req),
  }),
  schema: metricsDataSchema,
  normalize: (data) => normalizeMetrics(data),
};
