/**
 * Options of the simulator: defaults and validation.
 */
import { API_KEY_PATHS, API_KEY_SHAPES, type ApiKeyPath, type ApiKeyShape } from "./api-keys.js";

const API_KEY_PATH_NAMES = Object.keys(API_KEY_PATHS) as ApiKeyPath[];

import { resolveCanaryOptions, type SimCanaryOptions } from "./canary.js";
import { SimulatorError } from "./errors.js";
import {
  METRIC_CATALOG_MODES,
  METRIC_STAT_POLICIES,
  type MetricCatalogMode,
  type MetricStatPolicy,
} from "./metric-catalog.js";
import { PIPELINE_SHAPES, PIPELINES_GONE, type PipelineShape, type PipelinesGone } from "./pipelines.js";
import { resolveQuirks, type SimQuirks } from "./quirks.js";
import { RATE_LIMIT_MODES, type RateLimitMode } from "./rate-limiter.js";
import { DAY_MS } from "./time.js";

/** Options of startSimulator; every field is optional. */
export interface SimulatorOptions {
  /** Default "127.0.0.1". */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Number of generated clusters, default 6; IDs like "in01-" + 16 hex digits, from the seed. */
  clusters?: number;
  /** Default 1. */
  seed?: number;
  /** Injectable clock (epoch ms), default Date.now. */
  now?: () => number;
  /** Per API key per endpoint template, default 20; 0 disables. */
  rateLimitPerSecond?: number;
  /**
   * How the per-second limit is counted (rate-limiter.ts): "sliding" (default, the strictest
   * reading of the spec: any one-second window), "fixed" (calendar seconds) or "token_bucket".
   */
  rateLimitMode?: RateLimitMode;
  /** Accepted Bearer keys; default: any non-empty key. */
  apiKeys?: string[];
  /** Keys accepted for everything but backups: List Backups and Get Backup Policy answer HTTP 403. */
  backupDeniedKeys?: string[];
  /**
   * Keys with the billing role (Organization Owner or Billing Admin). Default: none set, and
   * every accepted key reads billing. When set, billing endpoints refuse every other key with
   * HTTP 403, and every other endpoint refuses these.
   */
  billingKeys?: string[];
  /** List Clusters `data` shape: the documented array, or the sampled object (default). */
  listClustersShape?: "array" | "object";
  /**
   * Global clusters at least, default 0: beyond the one or two the world makes, more are made on
   * the dedicated clusters (a listing longer than a page).
   */
  globalClusters?: number;
  /** Spark jobs generated per project, default 6 (one per scenario). */
  sparkJobsPerProject?: number;
  /**
   * Spark jobs added to the first cluster, default 0: listings longer than a page, a third long
   * finished, a third finished recently, a third in flight (spark-jobs.ts busyClusterSparkJobs).
   */
  busyClusterSparkJobs?: number;
  /**
   * The console's alert rules per project, default 4 (List Alert Rules): 112 make a listing of
   * two pages of the largest size.
   */
  alertRulesPerProject?: number;
  /**
   * Private endpoints per project, default 2 (List Private Endpoints): 112 make a listing of two
   * pages of the largest size.
   */
  privateEndpointsPerProject?: number;
  /**
   * Storage integrations per project, default 2 (List Storage Integrations): 112 make a listing
   * of two pages of the largest size.
   */
  storageIntegrationsPerProject?: number;
  /**
   * The demo's bad cases of the account's lists, default none (every listed thing healthy): the
   * first project's second storage integration in ERROR with the service's reason, its second
   * private endpoint PENDING, and the last known project and region's on-demand compute
   * abnormal. Each collector's part of the demo asks for its own.
   */
  storageIntegrationError?: boolean;
  privateEndpointPending?: boolean;
  onDemandComputeAbnormal?: boolean;
  /**
   * List API Keys (api-keys.ts): the demo's bad cases (the exporter's own key also Admin in the
   * first project, the Owner and billing keys over a year old), default false; the shape, the
   * reference's "current" (default) or the "older" one its sample shows; the listing refused
   * (96013 under HTTP 403, a key that is neither Organization Owner nor Project Admin), default
   * false; and keys beyond the world's five, default 0 (112 make two pages of the largest size).
   */
  apiKeysBadCases?: boolean;
  apiKeysShape?: ApiKeyShape;
  apiKeysRefused?: boolean;
  apiKeysExtra?: number;
  /**
   * The keys that may list API keys (an Organization Owner's): when set, List API Keys refuses
   * every other key as apiKeysRefused does (96013 under HTTP 403), while the other endpoints
   * take any accepted key. Default: none set, every accepted key may list keys.
   */
  apiKeysListers?: string[];
  /**
   * Where List API Keys is routed: "reference" (`/v2/api-keys`, default) or "gateway"
   * (`/v2/apiKeys`, the live gateway's spelling); the other path answers HTTP 404.
   */
  apiKeysPath?: ApiKeyPath;
  /**
   * Pipelines (pipelines.ts): the shape List Pipelines and Describe Pipeline answer in, the
   * samples' "sample" (default), the "schema" or the "oldest" sample's; a service without
   * pipelines, whose every such call answers HTTP 404 ("404") or code 80002 ("80002"), default
   * unset (pipelines offered); and the demo's bad case, the first project's search pipeline
   * FAILED, default false.
   */
  pipelineShape?: PipelineShape;
  noPipelines?: PipelinesGone;
  pipelineNotServing?: boolean;
  /**
   * The data planes' canary endpoints (canary.ts): Describe Collection's `params` shape, the
   * reference's sample "array" (default) or its schema's "object"; and degraded data planes by
   * cluster ID, "#n" or "*" (latency, a share of errors and of timeouts, a refused key).
   */
  canary?: SimCanaryOptions;
  /** Import jobs listed per cluster, default 8. */
  importJobsPerCluster?: number;
  /**
   * Clusters that are importing: the first cluster and every `every`-th after it each list
   * `perCluster` more import jobs that never finish (running or pending), on top of the
   * generated ones, e.g. `{ every: 3, perCluster: 5 }` for a third of the clusters with five
   * unfinished imports each. Default: none.
   */
  unfinishedImports?: { readonly every: number; readonly perCluster: number };
  /** Speeds up job timelines (the demo uses 10); default 1. */
  timeScale?: number;
  /** Collections per cluster (scopes of second-form queries), default 3, spread over two databases. */
  collectionsPerCluster?: number;
  /**
   * The first cluster's last collection exists in every other period of this length, so
   * discovery sees a collection vanish and come back. Default 0: none.
   */
  collectionChurnMs?: number;
  /** When true, a metric query may not mix items with and without `stat`. Default false. */
  rejectMixedMetricForms?: boolean;
  /**
   * Which reference Query Cluster Metrics follows (metric-catalog.ts): "current" (default: the
   * reference as it reads today, name only, one bad item refuses the request with code 96000,
   * names the plan lacks all-null), "2024" (the 2024 reference's enum, `stat` required; "strict"
   * is accepted for it, its earlier name) or "permissive" (every name either form was ever seen
   * with).
   */
  metricCatalog?: MetricCatalogMode | "strict";
  /** In the "current" catalog: a `stat` in a query is "ignored" (default) or "refused". */
  metricStat?: MetricStatPolicy;
  /**
   * How far back metric data is kept (ms): buckets that started more than this before now are
   * null, as beyond a real service's retention. Default DEFAULT_METRIC_RETENTION_MS (30 days).
   */
  metricRetentionMs?: number;
  /**
   * Largest number of points (buckets x metric queries) one Query Cluster Metrics answer may
   * hold; a larger window is refused with INVALID_PARAMETER "too many data points". Default 0:
   * no limit beyond the bucket guard of window.ts.
   */
  maxMetricPoints?: number;
  /**
   * The control plane's v1 endpoints (List Import Jobs v1, List Projects v1) answer as removed
   * endpoints: HTTP 404, as an unknown path does. Default false. Also a switch of `SimState`.
   */
  retireV1?: boolean;
  /** List Import Jobs (V2) answers as a removed endpoint (HTTP 404). Default false. */
  removeV2ImportList?: boolean;
  /**
   * Count distinct requests per endpoint too (`stats.distinctByEndpoint`: what a first pass
   * needs, without re-polls and retries); each is remembered, so memory grows. Default false.
   */
  countDistinctRequests?: boolean;
  /**
   * The service's own Prometheus endpoint also sends _sum and _count of its latency histogram,
   * which its documentation's sample does not show. Default false.
   */
  nativeHistogramSumCount?: boolean;
  /** Upstream behaviours to imitate (see quirks.ts); default: none. */
  quirks?: Partial<SimQuirks>;
  /** Receives one line per request and any internal error. Default: silent. */
  logger?: (line: string) => void;
  /** Called once per API request when its answer has been sent (for harnesses that attribute requests). */
  onRequestDone?: (done: RequestDone) => void;
}

/** One answered API request, as `onRequestDone` reports it. */
export interface RequestDone {
  /** The endpoint template, e.g. `POST /v2/clusters/{id}/metrics/query`. */
  readonly template: string;
  readonly clusterId: string | undefined;
  /** The parsed JSON body (undefined without one). */
  readonly body: unknown;
  readonly status: number;
}

/** Default `metricRetentionMs`: 30 days. */
const DEFAULT_METRIC_RETENTION_MS = 30 * DAY_MS;

/** Options with every default applied. */
type ResolvedOptions = Required<
  Omit<
    SimulatorOptions,
    | "apiKeys"
    | "billingKeys"
    | "apiKeysListers"
    | "quirks"
    | "unfinishedImports"
    | "metricCatalog"
    | "noPipelines"
    | "canary"
  >
> & {
  canary: Required<SimCanaryOptions>;
  noPipelines: PipelinesGone | undefined;
  metricCatalog: MetricCatalogMode;
  unfinishedImports: { readonly every: number; readonly perCluster: number } | undefined;
  apiKeys: string[] | undefined;
  billingKeys: string[] | undefined;
  apiKeysListers: string[] | undefined;
  quirks: SimQuirks;
};

function count(name: string, value: number | undefined, fallback: number, max: number): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 0 || v > max) {
    throw new SimulatorError(
      "INVALID_OPTION",
      `${name} must be an integer from 0 to ${max}, got ${String(value)}`,
    );
  }
  return v;
}

function catalogMode(mode: MetricCatalogMode | "strict" | undefined): MetricCatalogMode {
  const m = mode === "strict" ? "2024" : (mode ?? "current");
  if (!METRIC_CATALOG_MODES.includes(m)) {
    throw new SimulatorError(
      "INVALID_OPTION",
      `metricCatalog must be one of ${METRIC_CATALOG_MODES.join(", ")}, got ${String(mode)}`,
    );
  }
  return m;
}

function statPolicy(policy: MetricStatPolicy | undefined): MetricStatPolicy {
  const p = policy ?? "ignored";
  if (!METRIC_STAT_POLICIES.includes(p)) {
    throw new SimulatorError(
      "INVALID_OPTION",
      `metricStat must be one of ${METRIC_STAT_POLICIES.join(", ")}, got ${String(policy)}`,
    );
  }
  return p;
}

/** `value` when it is one of `allowed`, `fallback` when unset; throws INVALID_OPTION otherwise. */
function oneOf<T extends string>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T;
function oneOf<T extends string>(name: string, value: T | undefined, allowed: readonly T[]): T | undefined;
function oneOf<T extends string>(name: string, value: T | undefined, allowed: readonly T[], fallback?: T) {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) {
    throw new SimulatorError(
      "INVALID_OPTION",
      `${name} must be one of ${allowed.join(", ")}, got ${String(value)}`,
    );
  }
  return value;
}

function unfinishedImports(
  opts: SimulatorOptions["unfinishedImports"],
): ResolvedOptions["unfinishedImports"] {
  if (opts === undefined) return undefined;
  const every = count("unfinishedImports.every", opts.every, 1, 100_000);
  if (every < 1) {
    throw new SimulatorError("INVALID_OPTION", `unfinishedImports.every must be at least 1, got ${every}`);
  }
  return { every, perCluster: count("unfinishedImports.perCluster", opts.perCluster, 5, 1000) };
}

/** Applies defaults and checks ranges; throws `SimulatorError` (INVALID_OPTION). */
export function resolveOptions(opts: SimulatorOptions = {}): ResolvedOptions {
  const timeScale = opts.timeScale ?? 1;
  if (!(Number.isFinite(timeScale) && timeScale > 0)) {
    throw new SimulatorError(
      "INVALID_OPTION",
      `timeScale must be a positive number, got ${String(opts.timeScale)}`,
    );
  }
  const rate = opts.rateLimitPerSecond ?? 20;
  if (!(Number.isFinite(rate) && rate >= 0)) {
    throw new SimulatorError("INVALID_OPTION", `rateLimitPerSecond must be >= 0, got ${String(rate)}`);
  }
  const mode = opts.rateLimitMode ?? "sliding";
  if (!RATE_LIMIT_MODES.includes(mode)) {
    throw new SimulatorError(
      "INVALID_OPTION",
      `rateLimitMode must be one of ${RATE_LIMIT_MODES.join(", ")}, got ${String(opts.rateLimitMode)}`,
    );
  }
  const shape = opts.listClustersShape ?? "object";
  if (shape !== "array" && shape !== "object") {
    throw new SimulatorError(
      "INVALID_OPTION",
      `listClustersShape must be "array" or "object", got ${String(shape)}`,
    );
  }
  if (opts.billingKeys?.some((k) => typeof k !== "string" || k === "")) {
    throw new SimulatorError("INVALID_OPTION", "billingKeys must be non-empty strings");
  }
  if (opts.apiKeys?.some((k) => typeof k !== "string" || k === "")) {
    throw new SimulatorError("INVALID_OPTION", "apiKeys must be non-empty strings");
  }
  if (opts.apiKeysListers?.some((k) => typeof k !== "string" || k === "")) {
    throw new SimulatorError("INVALID_OPTION", "apiKeysListers must be non-empty strings");
  }
  return {
    host: opts.host ?? "127.0.0.1",
    port: count("port", opts.port, 0, 65_535),
    clusters: count("clusters", opts.clusters, 6, 100_000),
    seed: count("seed", opts.seed, 1, 0xffff_ffff),
    now: opts.now ?? Date.now,
    rateLimitPerSecond: rate,
    rateLimitMode: mode,
    apiKeys: opts.apiKeys,
    backupDeniedKeys: opts.backupDeniedKeys ?? [],
    billingKeys: opts.billingKeys,
    listClustersShape: shape,
    globalClusters: count("globalClusters", opts.globalClusters, 0, 100_000),
    sparkJobsPerProject: count("sparkJobsPerProject", opts.sparkJobsPerProject, 6, 1000),
    busyClusterSparkJobs: count("busyClusterSparkJobs", opts.busyClusterSparkJobs, 0, 100_000),
    importJobsPerCluster: count("importJobsPerCluster", opts.importJobsPerCluster, 8, 10_000),
    unfinishedImports: unfinishedImports(opts.unfinishedImports),
    alertRulesPerProject: count("alertRulesPerProject", opts.alertRulesPerProject, 4, 100_000),
    privateEndpointsPerProject: count(
      "privateEndpointsPerProject",
      opts.privateEndpointsPerProject,
      2,
      100_000,
    ),
    storageIntegrationsPerProject: count(
      "storageIntegrationsPerProject",
      opts.storageIntegrationsPerProject,
      2,
      100_000,
    ),
    storageIntegrationError: opts.storageIntegrationError ?? false,
    privateEndpointPending: opts.privateEndpointPending ?? false,
    onDemandComputeAbnormal: opts.onDemandComputeAbnormal ?? false,
    apiKeysBadCases: opts.apiKeysBadCases ?? false,
    apiKeysShape: oneOf("apiKeysShape", opts.apiKeysShape, API_KEY_SHAPES, "current"),
    apiKeysRefused: opts.apiKeysRefused ?? false,
    apiKeysExtra: count("apiKeysExtra", opts.apiKeysExtra, 0, 100_000),
    apiKeysListers: opts.apiKeysListers,
    apiKeysPath: oneOf("apiKeysPath", opts.apiKeysPath, API_KEY_PATH_NAMES, "reference"),
    pipelineShape: oneOf("pipelineShape", opts.pipelineShape, PIPELINE_SHAPES, "sample"),
    noPipelines: oneOf("noPipelines", opts.noPipelines, PIPELINES_GONE),
    pipelineNotServing: opts.pipelineNotServing ?? false,
    timeScale,
    collectionsPerCluster: count("collectionsPerCluster", opts.collectionsPerCluster, 3, 1000),
    collectionChurnMs: count("collectionChurnMs", opts.collectionChurnMs, 0, DAY_MS),
    rejectMixedMetricForms: opts.rejectMixedMetricForms ?? false,
    metricCatalog: catalogMode(opts.metricCatalog),
    metricStat: statPolicy(opts.metricStat),
    metricRetentionMs: count(
      "metricRetentionMs",
      opts.metricRetentionMs,
      DEFAULT_METRIC_RETENTION_MS,
      2 ** 52,
    ),
    maxMetricPoints: count("maxMetricPoints", opts.maxMetricPoints, 0, 2 ** 52),
    retireV1: opts.retireV1 ?? false,
    removeV2ImportList: opts.removeV2ImportList ?? false,
    countDistinctRequests: opts.countDistinctRequests ?? false,
    nativeHistogramSumCount: opts.nativeHistogramSumCount ?? false,
    quirks: resolveQuirks(opts.quirks),
    canary: resolveCanaryOptions(opts.canary),
    logger: opts.logger ?? (() => {}),
    onRequestDone: opts.onRequestDone ?? (() => {}),
  };
}
