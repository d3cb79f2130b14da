/**
 * The strict zod schema of the YAML config file (design.md section 4, snake_case). It checks
 * shapes, ranges and cross-field rules, applies defaults, and turns durations into
 * milliseconds; it does not rename fields or read files (see normalize.ts and secrets.ts).
 * Cross-field rules run even when unrelated fields are wrong, so one run reports every
 * problem: they read the partially parsed value defensively.
 */
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
import { checkQuery, checkScopeQuery, METRIC_NAME, type QueryProblem, queryKey } from "./queries.js";

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

type Ctx = z.core.$RefinementCtx;
const always = { when: () => true } as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function sectionError(issue: { code?: string; input?: unknown }): string | undefined {
  if (issue.code !== "invalid_type") return undefined;
  return issue.input === undefined ? "is required" : "must be a mapping of keys to values";
}

/**
 * A strict mapping (unknown keys are errors). An absent or empty (`key:` with nothing after
 * it) section means "all defaults".
 */
function section<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.preprocess(
    (v) => (v === null || v === undefined ? {} : v),
    z.strictObject(shape, { error: sectionError }),
  );
}

/** A list with a plain-words type error (wrap in nullAsAbsent to accept an empty `key:`). */
function list<T extends z.core.$ZodType>(item: T) {
  return z.array(item, {
    error: (issue) => (issue.code === "invalid_type" ? "must be a list" : undefined),
  });
}

/** An empty `key:` (YAML null) counts as absent, so the default applies. */
function nullAsAbsent<T extends z.core.$ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema);
}

/** Reports the later of two equal items, naming where the first one is. */
function rejectDuplicates(
  items: unknown,
  ctx: Ctx,
  identify: (item: Record<string, unknown>) => string | undefined,
  describe: (firstIndex: number, key: string) => string,
  pathOf: (index: number) => PropertyKey[] = (index) => [index],
): void {
  if (!Array.isArray(items)) return;
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    if (!isRecord(item)) return;
    const key = identify(item);
    if (key === undefined) return;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else ctx.addIssue({ code: "custom", message: describe(first, key), path: pathOf(index), input: item });
  });
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

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

const apiSchema = section({
  base_url: httpUrlField().default(DEFAULTS.baseUrl),
  controller_url: regionUrlTemplateField().default(DEFAULTS.controllerUrl),
  ...apiKeyFields,
  request_timeout: durationField({ min: 100, max: 10 * MINUTE }).default(10 * SECOND),
  rate_limit: intField(1, 1000).default(20),
  // Why 40 ms: DEFAULT_RATE_LIMIT_MARGIN_MS. Half a second already costs a third of the budget.
  rate_limit_margin: durationField({ min: 0, max: 500 }).default(DEFAULT_RATE_LIMIT_MARGIN_MS),
  max_retries: intField(0, 10).default(3),
  max_response_bytes: intField(1024, 1024 ** 3).default(16 * 1024 ** 2),
  max_in_flight: intField(1, 1000).default(16),
  send_request_timeout_header: boolField().default(true),
}).check(z.superRefine(rejectBothKeys, always));

/** A metric query item; `check` applies the form rules (cluster-wide or per-scope ones). */
function querySchema(check: (q: { name: string; stat?: "AVG" | "P99" }) => QueryProblem[]) {
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
    .superRefine((query, ctx) => {
      const q = query.stat === undefined ? { name: query.name } : { name: query.name, stat: query.stat };
      for (const problem of check(q)) {
        ctx.addIssue({ code: "custom", message: problem.message, path: [problem.field], input: query });
      }
    });
}

/** A list of metric queries without duplicates; `where` names the list in the duplicate message. */
function queriesSchema(where: string, check: (q: { name: string; stat?: "AVG" | "P99" }) => QueryProblem[]) {
  return list(querySchema(check)).check(
    z.superRefine(
      (queries, ctx) =>
        rejectDuplicates(
          queries,
          ctx,
          (q) => {
            const name = text(q.name);
            if (name === undefined || !METRIC_NAME.test(name)) return undefined;
            return queryKey(q.stat === "AVG" || q.stat === "P99" ? { name, stat: q.stat } : { name });
          },
          (first) => `duplicate of ${where}[${first}]`,
        ),
      always,
    ),
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
  });

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
      scopes: nullAsAbsent(
        list(scopeSchema)
          .check(
            z.superRefine(
              (scopes, ctx) =>
                rejectDuplicates(
                  scopes,
                  ctx,
                  (s) => JSON.stringify([text(s.db_name) ?? null, text(s.collection_name) ?? null]),
                  (first) => `duplicate of scopes[${first}]`,
                ),
              always,
            ),
          )
          .default([]),
      ),
      ...apiKeyFields,
    },
    { error: sectionError },
  )
  .check(z.superRefine(rejectBothKeys, always));

const clustersSchema = nullAsAbsent(
  list(clusterSchema)
    .check(
      z.superRefine(
        (clusters, ctx) =>
          rejectDuplicates(
            clusters,
            ctx,
            // Only well-formed IDs are quoted back in the message.
            (c) => {
              const id = text(c.id);
              return id !== undefined && CLUSTER_ID.test(id) ? id : undefined;
            },
            (first, id) => `duplicate cluster id "${id}" (also at clusters[${first}].id)`,
            (index) => [index, "id"],
          ),
        always,
      ),
    )
    .default([]),
);

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
  interval: durationField({ min: MIN_GRANULARITY_MS }).optional(),
  // Absent: defaultLookbackMs(granularity), filled in by normalize.ts.
  lookback: durationField({ min: MIN_GRANULARITY_MS, max: DAY }).optional(),
  delay: durationField({ min: 0, max: HOUR }).default(0),
  queries: nullAsAbsent(queriesSchema("metrics.queries", checkQuery).optional()),
}).check(z.superRefine(checkMetricWindows, always));

const importJobsSchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: SECOND }).default(MINUTE),
  page_size: intField(5, 100).default(100),
  retention: durationField({ min: 0 }).default(HOUR),
  max_jobs_per_cluster: intField(1, 100_000).default(1000),
});

/** One Spark job reference; also the item shape of `spark_jobs.jobs_file`. */
export const sparkJobSchema = z.strictObject(
  {
    project_id: textField(),
    job_id: textField(),
  },
  { error: sectionError },
);

/** A list of Spark job references without duplicates; `where` prefixes the duplicate message. */
export function sparkJobListSchema(where: string) {
  return list(sparkJobSchema).check(
    z.superRefine(
      (jobs, ctx) =>
        rejectDuplicates(
          jobs,
          ctx,
          (j) => {
            const project = text(j.project_id);
            const job = text(j.job_id);
            return project === undefined || job === undefined ? undefined : JSON.stringify([project, job]);
          },
          (first) => `duplicate of ${where}[${first}]`,
        ),
      always,
    ),
  );
}

const sparkJobsSchema = section({
  interval: durationField({ min: SECOND }).default(30 * SECOND),
  retention: durationField({ min: 0 }).default(HOUR),
  jobs: nullAsAbsent(sparkJobListSchema("spark_jobs.jobs").default([])),
  jobs_file: textField().optional(),
});

const inventorySchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: SECOND }).default(MINUTE),
  discovery: section({
    enabled: boolField().default(false),
    project_ids: nullAsAbsent(list(textField()).default([])),
    region_ids: nullAsAbsent(list(textField(REGION)).default([])),
  }),
});

const serverSchema = section({
  listen: listenField().default(DEFAULTS.listen),
  web_config_file: textField().nullable().optional(),
});

/**
 * The whole file. An empty document is a valid file (every default, key from the
 * environment). Output: snake_case keys, defaults applied, durations in milliseconds, the
 * listen address split, `metrics.interval`, `metrics.lookback` and `metrics.queries` possibly absent (their
 * defaults depend on other fields; normalize.ts fills them in).
 */
export const configFileSchema = z.preprocess(
  (v) => (v === null || v === undefined ? {} : v),
  z.strictObject(
    {
      api: apiSchema,
      clusters: clustersSchema,
      metrics: metricsSchema,
      import_jobs: importJobsSchema,
      spark_jobs: sparkJobsSchema,
      inventory: inventorySchema,
      server: serverSchema,
      staleness_intervals: intField(2, 100).default(5),
    },
    { error: sectionError },
  ),
);

/** The validated file, before renaming to the camelCase `Config` and resolving secrets. */
export type ConfigFile = z.output<typeof configFileSchema>;
