/**
 * The service's own Prometheus endpoint (docs/design.md section 7): GET
 * {base_url}/v2/clusters/{id}/metrics/export with the API key as a Bearer token, for Enterprise
 * clusters only, scraped at most once a minute. The simulator serves the thirteen families of
 * the documentation's table (native-values.ts), every series labelled cluster_id, org_id and
 * project_id; it declares the latency histogram as the documentation's sample does (`# TYPE
 * zilliz_request_duration_seconds_bucket histogram`, no _sum or _count unless the option
 * `nativeHistogramSumCount` asks for them). Its refusals: a cluster of another plan (the
 * catalogue's 96028), and a scrape of the same cluster and key less than 60 s after the last one
 * it served (HTTP 429), with NATIVE_SCRAPE_TOLERANCE_MS of slack so that a Prometheus scraping
 * exactly every 60 s, whose timer wanders by milliseconds, is never refused.
 */
import type { SimContext } from "./context.js";
import { ApiCode, SimApiError } from "./errors.js";
import type { ClusterProfile } from "./metric-values.js";
import { REPORTING_STATUSES } from "./metrics-query.js";
import { NATIVE_MIN_SCRAPE_INTERVAL_MS, type NativeExportOptions } from "./native-guard.js";
import {
  clusterGauges,
  collectionGauges,
  latencyHistograms,
  type NativeSample,
  newestGaugeBucket,
  requestCounters,
  slowQueries,
  vectorCounters,
} from "./native-values.js";
import type { RouteDef } from "./route.js";
import { v2Cluster } from "./routes-read.js";
import type { SimCluster } from "./world.js";

/** The endpoint's template (stats, faults, the rate limiter). */
export const NATIVE_EXPORT_TEMPLATE = "GET /v2/clusters/{id}/metrics/export";
/** The catalogue's refusal of a feature of Enterprise clusters. */
export const ENTERPRISE_ONLY_CODE = 96028;
export const ENTERPRISE_ONLY_MESSAGE = "Feature only supported for enterprise plan clusters.";
/** The plan (Describe Cluster `plan`) the endpoint serves. */
const ENTERPRISE = "Enterprise";

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function series(name: string, labels: Readonly<Record<string, string>>, value: number): string {
  const body = Object.entries(labels)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(",");
  return `${name}{${body}} ${value}`;
}

const HELP: Readonly<Record<string, readonly [help: string, type: string]>> = {
  zilliz_cluster_computation: ["Cluster computation ratio", "gauge"],
  zilliz_cluster_capacity: ["Cluster capacity ratio", "gauge"],
  zilliz_storage_bytes: ["Cluster storage usage", "gauge"],
  zilliz_cluster_write_capacity: ["Cluster write capacity ratio", "gauge"],
  zilliz_requests_total: ["Total number of requests", "counter"],
  zilliz_request_vectors_total: ["Total number of vectors in requests", "counter"],
  zilliz_request_duration_seconds_bucket: ["Request latency in seconds", "histogram"],
  zilliz_slow_queries_total: ["Total number of slow queries", "counter"],
  zilliz_entities: ["Number of entities", "gauge"],
  zilliz_loaded_entities: ["Number of loaded entities", "gauge"],
  zilliz_indexed_entities: ["Number of indexed entities", "gauge"],
  zilliz_collections: ["Number of collections", "gauge"],
  zilliz_unloaded_collections: ["Number of unloaded collections", "gauge"],
};

/** Every family the endpoint declares, in the order it renders them. */
export const NATIVE_FAMILIES: readonly string[] = Object.keys(HELP);

/**
 * The endpoint's answer for `cluster` at `nowMs`: every family's HELP and TYPE, and its series
 * while the cluster reports metrics (a stopped or creating cluster has none, as Query Cluster
 * Metrics then answers nulls).
 */
export function renderNativeExport(
  cluster: SimCluster,
  profile: ClusterProfile,
  nowMs: number,
  opts: NativeExportOptions,
): string {
  const base = { cluster_id: cluster.id, org_id: opts.orgId, project_id: cluster.projectId };
  const reporting = REPORTING_STATUSES.has(cluster.status) && nowMs >= cluster.createTimeMs;
  const lines = new Map<string, string[]>(NATIVE_FAMILIES.map((f) => [f, []]));
  const add = (family: string, line: string) => lines.get(family)?.push(line);
  const counters = (family: string, samples: readonly NativeSample[]) => {
    for (const s of samples) add(family, series(family, { ...base, ...s.labels }, s.value));
  };
  if (reporting) {
    const t = newestGaugeBucket(profile, nowMs);
    for (const [family, value] of Object.entries(clusterGauges(profile, t))) {
      if (value !== null) add(family, series(family, base, value));
    }
    for (const g of collectionGauges(cluster, profile, t)) {
      add(g.family, series(g.family, { ...base, collection_name: g.collection }, g.value));
    }
    counters("zilliz_requests_total", requestCounters(profile, nowMs));
    counters("zilliz_request_vectors_total", vectorCounters(profile, nowMs));
    add("zilliz_slow_queries_total", series("zilliz_slow_queries_total", base, slowQueries(profile, nowMs)));
    const histogram = "zilliz_request_duration_seconds_bucket";
    for (const h of latencyHistograms(profile, nowMs)) {
      const labels = { ...base, request_type: h.requestType };
      for (const b of h.buckets) add(histogram, series(histogram, { ...labels, le: b.le }, b.count));
      if (opts.sumAndCount) {
        add(histogram, series("zilliz_request_duration_seconds_sum", labels, h.sumSeconds));
        add(histogram, series("zilliz_request_duration_seconds_count", labels, h.count));
      }
    }
  }
  const out: string[] = [];
  for (const [family, [help, type]] of Object.entries(HELP)) {
    out.push(`# HELP ${family} ${help}`, `# TYPE ${family} ${type}`, ...(lines.get(family) ?? []));
  }
  return `${out.join("\n")}\n`;
}

/** The endpoint as a route of the simulator. */
export function nativeExportRoutes(ctx: SimContext): RouteDef[] {
  return [
    {
      method: "GET",
      path: "/v2/clusters/:id/metrics/export",
      template: NATIVE_EXPORT_TEMPLATE,
      version: 2,
      mutating: false,
      dataShape: "object",
      exposition: true,
      clusterId: (r) => r.params.id,
      handle: (r) => {
        const cluster = v2Cluster(ctx, r.params.id);
        if (cluster.plan !== ENTERPRISE) throw new SimApiError(ENTERPRISE_ONLY_CODE, ENTERPRISE_ONLY_MESSAGE);
        if (!ctx.native.guard.admit(cluster.id, r.key ?? "", r.nowMs)) {
          throw new SimApiError(
            ApiCode.RATE_LIMITED,
            `too many requests: scrape each cluster at most once every ${NATIVE_MIN_SCRAPE_INTERVAL_MS / 1000} s`,
            { httpStatus: 429 },
          );
        }
        const profile = ctx.profiles.get(cluster.id);
        if (!profile) throw new Error(`no value profile for ${cluster.id}`);
        return renderNativeExport(cluster, profile, r.nowMs, ctx.native);
      },
    },
  ];
}
