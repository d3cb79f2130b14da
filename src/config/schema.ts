/**
 * The strict zod schema of the YAML config file (design.md section 4, snake_case), and the
 * single description of the camelCase `Config` (types.ts derives every type from it). It
 * checks shapes, ranges and cross-field rules, applies defaults (including the ones that depend
 * on other fields), turns durations into milliseconds and, in each section's transform, renames
 * to camelCase. It reads no files: API keys are only located here (see secrets.ts).
 * Cross-field rules run even when unrelated fields are wrong, so one run reports every
 * problem: they read the partially parsed value defensively.
 */
import { resolve } from "node:path";
import * as z from "zod";
import { DEFAULT_RATE_LIMIT_MARGIN_MS } from "../cloud/rateLimiter.js";
import {
  boolField,
  durationField,
  httpUrlField,
  intField,
  listenField,
  regionUrlTemplateField,
  textField,
} from "./fields.js";
import {
  checkQuery,
  checkScopeQuery,
  DEFAULT_METRIC_QUERIES,
  expandQueries,
  METRIC_NAME,
  type QueryProblem,
  queryKey,
  scopeQueries,
} from "./queries.js";
import {
  always,
  type Ctx,
  type DeepReadonly,
  isRecord,
  list,
  nullAsAbsent,
  optional,
  section,
  sectionError,
  text,
  uniqueList,
} from "./schemaKit.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Default values the file may omit (also quoted in config/example.yaml). */
export const DEFAULTS = {
  baseUrl: "https://api.cloud.zilliz.com",
  controllerUrl: "https://controller.api.{region}.zillizcloud.com",
  listen: { host: "0.0.0.0", port: 9474 },
} as const;

/** Smallest metric granularity the upstream accepts. */
export const MIN_GRANULARITY_MS = 30 * SECOND;

/**
 * Default `metrics.lookback`: five minutes, and never less than two buckets, so the window
 * always holds a closed bucket before the newest one (which is often still empty upstream).
 */
export function defaultLookbackMs(granularityMs: number): number {
  return Math.max(5 * MINUTE, 2 * granularityMs);
}

/** Turns a path written in the file into an absolute one (relative to the file's directory). */
type ResolvePath = (path: string) => string;

function rejectBothKeys(value: unknown, ctx: Ctx): void {
  if (isRecord(value) && value.api_key !== undefined && value.api_key_file !== undefined) {
    ctx.addIssue({
      code: "custom",
      message: "set either api_key or api_key_file, not both",
      path: ["api_key_file"],
      input: undefined,
    });
  }
}

const apiKeyFields = {
  api_key: textField().optional(),
  api_key_file: textField().optional(),
};

/** Where a credential comes from; secrets.ts reads it after validation. */
function keySource(
  fields: { api_key?: string | undefined; api_key_file?: string | undefined },
  resolvePath: ResolvePath,
) {
  return {
    /** The key written inline (possibly from a `${VAR}`). */
    ...optional("value", fields.api_key),
    /** Absolute path of the file holding the key. */
    ...optional("file", fields.api_key_file === undefined ? undefined : resolvePath(fields.api_key_file)),
  };
}

function apiSchema(resolvePath: ResolvePath) {
  return section({
    base_url: httpUrlField().default(DEFAULTS.baseUrl),
    controller_url: regionUrlTemplateField().default(DEFAULTS.controllerUrl),
    ...apiKeyFields,
    request_timeout: durationField({ min: 100, max: 10 * MINUTE }).default(10 * SECOND),
    rate_limit: intField(1, 1000).default(20),
    // Why 100 ms: DEFAULT_RATE_LIMIT_MARGIN_MS. Half a second already costs a third of the budget.
    rate_limit_margin: durationField({ min: 0, max: 500 }).default(DEFAULT_RATE_LIMIT_MARGIN_MS),
    max_retries: intField(0, 10).default(3),
    max_response_bytes: intField(1024, 1024 ** 3).default(16 * 1024 ** 2),
    max_in_flight: intField(1, 1000).default(16),
    send_request_timeout_header: boolField().default(true),
  })
    .check(z.superRefine(rejectBothKeys, always))
    .transform((api) => ({
      settings: {
        baseUrl: api.base_url,
        /** Template with `{region}`, e.g. https://controller.api.{region}.zillizcloud.com */
        controllerUrl: api.controller_url,
        requestTimeoutMs: api.request_timeout,
        /** Requests per second per endpoint per credential. */
        rateLimit: api.rate_limit,
        /**
         * Added to the one-second window the limiter keeps `rateLimit` requests in, for network
         * jitter; the usable rate is rateLimit / (1 s + margin).
         */
        rateLimitMarginMs: api.rate_limit_margin,
        maxRetries: api.max_retries,
        /** Responses larger than this are refused. */
        maxResponseBytes: api.max_response_bytes,
        /** Cap on concurrent upstream requests per credential. */
        maxInFlight: api.max_in_flight,
        /** Send the documented `Request-Timeout` header (seconds) with each request. */
        sendRequestTimeoutHeader: api.send_request_timeout_header,
      },
      key: keySource(api, resolvePath),
    }));
}

type QueryCheck = (q: { name: string; stat?: "AVG" | "P99" }) => QueryProblem[];

/** A metric query item; `check` applies the form rules (cluster-wide or per-scope ones). */
function querySchema(check: QueryCheck) {
  return z
    .strictObject(
      {
        name: textField({
          regex: METRIC_NAME,
          description: "an upper-case metric name such as CU_COMPUTATION",
        }),
        stat: z.enum(["AVG", "P99"], { error: "must be AVG or P99" }).optional(),
      },
      { error: sectionError },
    )
    .transform((query) => ({
      /** Upstream metric name, upper snake case (e.g. CU_COMPUTATION, REQ_SEARCH_LATENCY_P99). */
      name: query.name,
      /** First request form only. P99 is valid only for latency metrics. */
      ...optional("stat", query.stat),
    }))
    .superRefine((query, ctx) => {
      for (const problem of check(query)) {
        ctx.addIssue({ code: "custom", message: problem.message, path: [problem.field], input: query });
      }
    });
}

/** The camelCase output of one metric query (types.ts `MetricQueryConfig`). */
export type MetricQuery = DeepReadonly<z.output<ReturnType<typeof querySchema>>>;

/** A list of metric queries without duplicates; `where` names the list in the duplicate message. */
function queriesSchema(where: string, check: QueryCheck) {
  return uniqueList(
    querySchema(check),
    (q) => {
      const name = text(q.name);
      if (name === undefined || !METRIC_NAME.test(name)) return undefined;
      return queryKey(q.stat === "AVG" || q.stat === "P99" ? { name, stat: q.stat } : { name });
    },
    (first) => `duplicate of ${where}[${first}]`,
  );
}

const REGION = {
  regex: /^[a-z0-9-]+$/,
  description: "a region ID of lower-case letters, digits and - (aws-us-west-2)",
};

const scopeSchema = z
  .strictObject(
    {
      db_name: textField().optional(),
      collection_name: textField().optional(),
      // Absent: every metric of metrics.queries that a scope can carry.
      queries: nullAsAbsent(queriesSchema("queries", checkScopeQuery).optional()),
    },
    { error: sectionError },
  )
  .superRefine((scope, ctx) => {
    if (scope.db_name === undefined && scope.collection_name === undefined) {
      ctx.addIssue({ code: "custom", message: "needs db_name, collection_name or both", input: scope });
    }
    if (scope.queries !== undefined && scope.queries.length === 0) {
      ctx.addIssue({
        code: "custom",
        message:
          "must list at least one query (omit it for every metric of metrics.queries a scope can carry)",
        path: ["queries"],
        input: scope.queries,
      });
    }
  });

// Lists rename their items after the duplicate check, which reads the file's own keys.
const scopesSchema = nullAsAbsent(
  uniqueList(
    scopeSchema,
    (s) => JSON.stringify([text(s.db_name) ?? null, text(s.collection_name) ?? null]),
    (first) => `duplicate of scopes[${first}]`,
  )
    .transform((scopes) =>
      scopes.map((scope) => ({
        ...optional("dbName", scope.db_name),
        ...optional("collectionName", scope.collection_name),
        /**
         * The scope's own query list, already expanded and in second-form names; absent means
         * every metric of `metrics.queries` a scope can carry (config/queries.ts `scopeQueries`).
         * Here still as written: the file's transform expands it against the cluster-wide list.
         */
        ...optional("queries", scope.queries),
      })),
    )
    .default([]),
);

const CLUSTER_ID = /^[A-Za-z0-9-]+$/;

const clusterSchema = z
  .strictObject(
    {
      id: textField({
        regex: CLUSTER_ID,
        description: "a cluster ID of letters, digits and - (in01-0123456789abcdef)",
      }),
      region: textField(REGION).optional(),
      project_id: textField().optional(),
      scopes: scopesSchema,
      ...apiKeyFields,
    },
    { error: sectionError },
  )
  .check(z.superRefine(rejectBothKeys, always));

function clustersSchema(resolvePath: ResolvePath) {
  return nullAsAbsent(
    uniqueList(
      clusterSchema,
      // Only well-formed IDs are quoted back in the message.
      (c) => {
        const id = text(c.id);
        return id !== undefined && CLUSTER_ID.test(id) ? id : undefined;
      },
      (first, id) => `duplicate cluster id "${id}" (also at clusters[${first}].id)`,
      (index) => [index, "id"],
    )
      .transform((clusters) =>
        clusters.map((cluster) => ({
          settings: {
            id: cluster.id,
            /** Cloud region ID (e.g. aws-us-west-2); needed for v1 calls through the controller URL. */
            ...optional("region", cluster.region),
            ...optional("projectId", cluster.project_id),
            scopes: cluster.scopes,
          },
          /** Optional per-cluster credential; clusters with another key get their own rate budget. */
          key: keySource(cluster, resolvePath),
        })),
      )
      .default([]),
  );
}

function checkMetricWindows(metrics: unknown, ctx: Ctx): void {
  if (!isRecord(metrics)) return;
  const { granularity, interval, lookback, delay, queries, enabled } = metrics;
  if (typeof granularity === "number") {
    if (granularity % SECOND !== 0) {
      ctx.addIssue({
        code: "custom",
        message: "must be a whole number of seconds",
        path: ["granularity"],
        input: granularity,
      });
    }
    const floor = `must be at least the granularity`;
    if (typeof interval === "number" && interval < granularity) {
      ctx.addIssue({ code: "custom", message: floor, path: ["interval"], input: interval });
    }
    if (typeof lookback === "number" && lookback < granularity) {
      ctx.addIssue({ code: "custom", message: floor, path: ["lookback"], input: lookback });
    }
    const effectiveLookback = typeof lookback === "number" ? lookback : defaultLookbackMs(granularity);
    if (typeof delay === "number" && delay >= effectiveLookback) {
      ctx.addIssue({
        code: "custom",
        message: "must be shorter than metrics.lookback (the window would hold no bucket)",
        path: ["delay"],
        input: delay,
      });
    }
  }
  if (enabled !== false && Array.isArray(queries) && queries.length === 0) {
    ctx.addIssue({
      code: "custom",
      message: "must list at least one query (omit it for the default list, or set metrics.enabled: false)",
      path: ["queries"],
      input: queries,
    });
  }
}

const metricsSchema = section({
  enabled: boolField().default(true),
  granularity: durationField({ min: MIN_GRANULARITY_MS, max: DAY }).default(MINUTE),
  // Absent: the granularity.
  interval: durationField({ min: MIN_GRANULARITY_MS, max: DAY }).optional(),
  // Absent: defaultLookbackMs(granularity).
  lookback: durationField({ min: MIN_GRANULARITY_MS, max: DAY }).optional(),
  delay: durationField({ min: 0, max: HOUR }).default(0),
  queries: nullAsAbsent(queriesSchema("metrics.queries", checkQuery).optional()),
})
  .check(z.superRefine(checkMetricWindows, always))
  .transform((metrics) => ({
    enabled: metrics.enabled,
    granularityMs: metrics.granularity,
    intervalMs: metrics.interval ?? metrics.granularity,
    lookbackMs: metrics.lookback ?? defaultLookbackMs(metrics.granularity),
    /** Settle time subtracted from now before the window's end is aligned (late-arriving data). */
    delayMs: metrics.delay,
    /** What the cluster-wide target sends: expanded (config/queries.ts `expandQuery`), each once. */
    queries: metrics.queries === undefined ? DEFAULT_METRIC_QUERIES : expandQueries(metrics.queries),
  }));

const importJobsSchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: SECOND, max: DAY }).default(MINUTE),
  page_size: intField(5, 100).default(100),
  retention: durationField({ min: 0 }).default(HOUR),
  max_jobs_per_cluster: intField(1, 100_000).default(1000),
}).transform((imports) => ({
  enabled: imports.enabled,
  intervalMs: imports.interval,
  pageSize: imports.page_size,
  retentionMs: imports.retention,
  /** Cap on per-job series per cluster; jobs over it are counted, not exposed. */
  maxJobsPerCluster: imports.max_jobs_per_cluster,
}));

/** One Spark job reference; also the item shape of `spark_jobs.jobs_file`. */
export const sparkJobSchema = z.strictObject(
  {
    project_id: textField(),
    job_id: textField(),
  },
  { error: sectionError },
);

/**
 * A list of Spark job references without duplicates, output in camelCase (`SparkJobRef`);
 * `where` prefixes the duplicate message.
 */
export function sparkJobListSchema(where: string) {
  return uniqueList(
    sparkJobSchema,
    (j) => {
      const project = text(j.project_id);
      const job = text(j.job_id);
      return project === undefined || job === undefined ? undefined : JSON.stringify([project, job]);
    },
    (first) => `duplicate of ${where}[${first}]`,
  ).transform((jobs) => jobs.map((job) => ({ projectId: job.project_id, jobId: job.job_id })));
}

function sparkJobsSchema(resolvePath: ResolvePath) {
  return section({
    interval: durationField({ min: SECOND, max: DAY }).default(30 * SECOND),
    retention: durationField({ min: 0 }).default(HOUR),
    // prefault, not default: the JSON Schema (input side) keeps documenting the empty default.
    jobs: nullAsAbsent(sparkJobListSchema("spark_jobs.jobs").prefault([])),
    jobs_file: textField().optional(),
  }).transform((spark) => ({
    intervalMs: spark.interval,
    retentionMs: spark.retention,
    jobs: spark.jobs,
    /** Watched YAML file (absolute path) with the same shape as `jobs` (a list, or `{ jobs: [...] }`). */
    ...optional("jobsFile", spark.jobs_file === undefined ? undefined : resolvePath(spark.jobs_file)),
  }));
}

const inventorySchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: SECOND, max: DAY }).default(MINUTE),
  discovery: section({
    enabled: boolField().default(false),
    project_ids: nullAsAbsent(list(textField()).default([])),
    region_ids: nullAsAbsent(list(textField(REGION)).default([])),
  }).transform((discovery) => ({
    enabled: discovery.enabled,
    projectIds: discovery.project_ids,
    regionIds: discovery.region_ids,
  })),
}).transform((inventory) => ({
  enabled: inventory.enabled,
  intervalMs: inventory.interval,
  discovery: inventory.discovery,
}));

/** A null `web_config_file` (e.g. from an unset `${VAR:-}`) means none. */
function webConfigFile(path: string | null | undefined, resolvePath: ResolvePath): string | undefined {
  return path === null || path === undefined ? undefined : resolvePath(path);
}

function serverSchema(resolvePath: ResolvePath) {
  return section({
    listen: listenField().default(DEFAULTS.listen),
    web_config_file: textField().nullable().optional(),
  }).transform((server) => ({
    host: server.listen.host,
    port: server.listen.port,
    /** Prometheus exporter-toolkit web config (TLS + basic auth), absolute path; absent: plain HTTP. */
    ...optional("webConfigFile", webConfigFile(server.web_config_file, resolvePath)),
  }));
}

/**
 * The whole file, with relative paths (key files, `spark_jobs.jobs_file`,
 * `server.web_config_file`) resolved against `baseDir`, the config file's directory. An empty
 * document is a valid file (every default, key from the environment). Output: a `ConfigDraft`,
 * the camelCase config without its credentials plus where each credential comes from.
 */
export function configSchema(baseDir: string) {
  const resolvePath: ResolvePath = (path) => resolve(baseDir, path);
  return z
    .preprocess(
      (v) => (v === null || v === undefined ? {} : v),
      z.strictObject(
        {
          api: apiSchema(resolvePath),
          clusters: clustersSchema(resolvePath),
          metrics: metricsSchema,
          import_jobs: importJobsSchema,
          spark_jobs: sparkJobsSchema(resolvePath),
          inventory: inventorySchema,
          server: serverSchema(resolvePath),
          staleness_intervals: intField(2, 100).default(5),
        },
        { error: sectionError },
      ),
    )
    .transform((file) => ({
      config: {
        api: file.api.settings,
        // A scope's own list is expanded against the cluster-wide one.
        clusters: file.clusters.map(({ settings }) => ({
          ...settings,
          scopes: settings.scopes.map(({ queries, ...scope }) => ({
            ...scope,
            ...optional(
              "queries",
              queries === undefined ? undefined : scopeQueries(file.metrics.queries, queries),
            ),
          })),
        })),
        metrics: file.metrics,
        importJobs: file.import_jobs,
        sparkJobs: file.spark_jobs,
        inventory: file.inventory,
        server: file.server,
        /** A series older than this many intervals of its collector disappears. Default 5. */
        stalenessIntervals: file.staleness_intervals,
      },
      /** The default credential (`api.api_key` / `api.api_key_file`). */
      apiKey: { at: "api", ...file.api.key },
      /** One source per cluster, same order as `config.clusters`. */
      clusterKeys: file.clusters.map(({ key }, index) => ({ at: `clusters[${index}]`, ...key })),
    }));
}

/**
 * The file's schema for questions about its shape (JSON Schema, known keys, tests); relative
 * paths resolve against the working directory. Loading uses `configSchema(baseDir)`.
 */
export const configFileSchema = configSchema(process.cwd());

/**
 * A validated file: every camelCase setting except the credentials, and where to find those.
 * secrets.ts turns it into the final `Config`.
 */
export type ConfigDraft = DeepReadonly<z.output<ReturnType<typeof configSchema>>>;

/** Where one credential comes from: an inline value, an absolute file path to read, or nothing. */
export type SecretSlot = ConfigDraft["apiKey"];
