/**
 * The validated, normalized configuration the rest of the exporter consumes. The YAML file is
 * snake_case with ISO 8601 durations (design.md section 4); `config/` turns it into this
 * camelCase shape with durations in milliseconds and every default applied, or fails with a
 * `ConfigError` listing each problem as `path.to.field: what is wrong`.
 */

export interface MetricQueryConfig {
  /** Upstream metric name, upper snake case (e.g. CU_COMPUTATION, REQ_SEARCH_LATENCY_P99). */
  readonly name: string;
  /** First request form only. P99 is valid only for latency metrics. */
  readonly stat?: "AVG" | "P99";
}

export interface ScopeConfig {
  readonly dbName?: string;
  readonly collectionName?: string;
  /**
   * The scope's own query list, already expanded and in second-form names; absent means
   * every metric of `metrics.queries` a scope can carry (config/queries.ts `scopeQueries`).
   */
  readonly queries?: readonly MetricQueryConfig[];
}

export interface ClusterConfig {
  readonly id: string;
  /** Cloud region ID (e.g. aws-us-west-2); needed for v1 calls through the controller URL. */
  readonly region?: string;
  readonly projectId?: string;
  readonly scopes: readonly ScopeConfig[];
  /** Optional per-cluster credential; clusters with another key get their own rate budget. */
  readonly apiKey?: string;
}

export interface ApiConfig {
  readonly baseUrl: string;
  /** Template with `{region}`, e.g. https://controller.api.{region}.zillizcloud.com */
  readonly controllerUrl: string;
  /** Resolved secret (from api_key, api_key_file or VDBCLOUD_API_KEY). Never log it. */
  readonly apiKey: string;
  readonly requestTimeoutMs: number;
  /** Requests per second per endpoint per credential. */
  readonly rateLimit: number;
  /**
   * Added to the one-second window the limiter keeps `rateLimit` requests in, for network
   * jitter; the usable rate is rateLimit / (1 s + margin). Config loading always sets it.
   */
  readonly rateLimitMarginMs?: number;
  readonly maxRetries: number;
  /** Responses larger than this are refused. */
  readonly maxResponseBytes: number;
  /** Cap on concurrent upstream requests per credential. */
  readonly maxInFlight: number;
  /**
   * Send the documented `Request-Timeout` header (seconds) with each request. Config loading
   * always sets it (default true); absent means true.
   */
  readonly sendRequestTimeoutHeader?: boolean;
}

export interface MetricsConfig {
  readonly enabled: boolean;
  readonly granularityMs: number;
  readonly intervalMs: number;
  readonly lookbackMs: number;
  /** Settle time subtracted from now before the window's end is aligned (late-arriving data). */
  readonly delayMs: number;
  /** What the cluster-wide target sends: expanded (config/queries.ts `expandQuery`), each once. */
  readonly queries: readonly MetricQueryConfig[];
}

export interface ImportJobsConfig {
  readonly enabled: boolean;
  readonly intervalMs: number;
  readonly pageSize: number;
  readonly retentionMs: number;
  /** Cap on per-job series per cluster; jobs over it are counted, not exposed. */
  readonly maxJobsPerCluster: number;
}

export interface SparkJobRef {
  readonly projectId: string;
  readonly jobId: string;
}

export interface SparkJobsConfig {
  readonly intervalMs: number;
  readonly retentionMs: number;
  readonly jobs: readonly SparkJobRef[];
  /** Watched YAML file with the same shape as `jobs` (a list, or `{ jobs: [...] }`). */
  readonly jobsFile?: string;
}

export interface InventoryConfig {
  readonly enabled: boolean;
  readonly intervalMs: number;
  readonly discovery: {
    readonly enabled: boolean;
    readonly projectIds: readonly string[];
    readonly regionIds: readonly string[];
  };
}

export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Prometheus exporter-toolkit web config (TLS + basic auth), or undefined. */
  readonly webConfigFile?: string;
}

export interface Config {
  readonly api: ApiConfig;
  readonly clusters: readonly ClusterConfig[];
  readonly metrics: MetricsConfig;
  readonly importJobs: ImportJobsConfig;
  readonly sparkJobs: SparkJobsConfig;
  readonly inventory: InventoryConfig;
  readonly server: ServerConfig;
  /** A series older than this many intervals of its collector disappears. Default 5. */
  readonly stalenessIntervals: number;
}
