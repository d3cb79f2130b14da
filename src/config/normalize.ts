/**
 * Renames the validated snake_case file into the camelCase `Config` shape, fills in defaults
 * that depend on other fields, and resolves relative file paths against the config file's
 * directory. Secrets are only located here, not read (see secrets.ts).
 */
import { resolve } from "node:path";
import { DEFAULT_METRIC_QUERIES, expandQueries, scopeQueries } from "./queries.js";
import { type ConfigFile, defaultLookbackMs } from "./schema.js";
import type { ApiConfig, ClusterConfig, Config, MetricQueryConfig, ScopeConfig } from "./types.js";

/** Where one credential comes from: an inline value, a file to read, or nothing configured. */
export interface SecretSlot {
  /** Path prefix for problems: "api" or "clusters[2]". */
  readonly at: string;
  readonly value?: string;
  /** Absolute path. */
  readonly file?: string;
}

/** Everything of the final config except the credentials, plus where to find those. */
export interface ConfigDraft {
  readonly config: Omit<Config, "api" | "clusters"> & {
    readonly api: Omit<ApiConfig, "apiKey">;
    readonly clusters: readonly Omit<ClusterConfig, "apiKey">[];
  };
  readonly apiKey: SecretSlot;
  /** One slot per cluster, same order as `config.clusters`. */
  readonly clusterKeys: readonly SecretSlot[];
}

function slot(at: string, value: string | undefined, file: string | undefined, baseDir: string): SecretSlot {
  return {
    at,
    ...(value === undefined ? {} : { value }),
    ...(file === undefined ? {} : { file: resolve(baseDir, file) }),
  };
}

function queryOf(q: { name: string; stat?: "AVG" | "P99" | undefined }): MetricQueryConfig {
  return q.stat === undefined ? { name: q.name } : { name: q.name, stat: q.stat };
}

/**
 * Maps a validated file to a draft. `baseDir` is the directory relative paths resolve
 * against (the config file's directory). Pure: no I/O.
 */
export function normalize(file: ConfigFile, baseDir: string): ConfigDraft {
  const { api, metrics, import_jobs: imports, spark_jobs: spark, inventory, server } = file;
  const queries: readonly MetricQueryConfig[] =
    metrics.queries === undefined ? DEFAULT_METRIC_QUERIES : expandQueries(metrics.queries.map(queryOf));
  const webConfigFile = server.web_config_file ?? undefined;
  return {
    config: {
      api: {
        baseUrl: api.base_url,
        controllerUrl: api.controller_url,
        requestTimeoutMs: api.request_timeout,
        rateLimit: api.rate_limit,
        rateLimitMarginMs: api.rate_limit_margin,
        maxRetries: api.max_retries,
        maxResponseBytes: api.max_response_bytes,
        maxInFlight: api.max_in_flight,
        sendRequestTimeoutHeader: api.send_request_timeout_header,
      },
      clusters: file.clusters.map((c) => ({
        id: c.id,
        ...(c.region === undefined ? {} : { region: c.region }),
        ...(c.project_id === undefined ? {} : { projectId: c.project_id }),
        scopes: c.scopes.map(
          (s): ScopeConfig => ({
            ...(s.db_name === undefined ? {} : { dbName: s.db_name }),
            ...(s.collection_name === undefined ? {} : { collectionName: s.collection_name }),
            ...(s.queries === undefined ? {} : { queries: scopeQueries(queries, s.queries.map(queryOf)) }),
          }),
        ),
      })),
      metrics: {
        enabled: metrics.enabled,
        granularityMs: metrics.granularity,
        intervalMs: metrics.interval ?? metrics.granularity,
        lookbackMs: metrics.lookback ?? defaultLookbackMs(metrics.granularity),
        delayMs: metrics.delay,
        queries,
      },
      importJobs: {
        enabled: imports.enabled,
        intervalMs: imports.interval,
        pageSize: imports.page_size,
        retentionMs: imports.retention,
        maxJobsPerCluster: imports.max_jobs_per_cluster,
      },
      sparkJobs: {
        intervalMs: spark.interval,
        retentionMs: spark.retention,
        jobs: spark.jobs.map((j) => ({ projectId: j.project_id, jobId: j.job_id })),
        ...(spark.jobs_file === undefined ? {} : { jobsFile: resolve(baseDir, spark.jobs_file) }),
      },
      inventory: {
        enabled: inventory.enabled,
        intervalMs: inventory.interval,
        discovery: {
          enabled: inventory.discovery.enabled,
          projectIds: inventory.discovery.project_ids,
          regionIds: inventory.discovery.region_ids,
        },
      },
      server: {
        host: server.listen.host,
        port: server.listen.port,
        ...(webConfigFile === undefined ? {} : { webConfigFile: resolve(baseDir, webConfigFile) }),
      },
      stalenessIntervals: file.staleness_intervals,
    },
    apiKey: slot("api", api.api_key, api.api_key_file, baseDir),
    clusterKeys: file.clusters.map((c, i) => slot(`clusters[${i}]`, c.api_key, c.api_key_file, baseDir)),
  };
}
