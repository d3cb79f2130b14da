/**
 * The strict zod schema of the YAML config file (docs/design.md section 4, snake_case), and the
 * single description of the camelCase `Config` (types.ts derives every type from it). It
 * checks shapes, ranges and cross-field rules, applies defaults (including the ones that depend
 * on other fields), turns durations into milliseconds and, in each section's transform, renames
 * to camelCase. It reads no files: API keys are only located here (see secrets.ts).
 * Cross-field rules run even when unrelated fields are wrong, so one run reports every
 * problem: they read the partially parsed value defensively.
 *
 * This file is the whole file's schema; each top-level section has its own module in schema/
 * (one file per section, shared pieces in schema/common.ts).
 */
import { resolve } from "node:path";
import * as z from "zod";
import { intField } from "./fields.js";
import { checkScopeQuery, scopeQueries } from "./queries.js";
import { alertRulesSchema } from "./schema/alertRules.js";
import { apiSchema } from "./schema/api.js";
import { billingSchema } from "./schema/billing.js";
import { clustersSchema } from "./schema/clusters.js";
import { collectionsSchema } from "./schema/collections.js";
import type { ResolvePath } from "./schema/common.js";
import { backupsSchema, globalClustersSchema } from "./schema/dataProtection.js";
import { familiesSchema } from "./schema/families.js";
import { groupsSchema } from "./schema/groups.js";
import { importJobsSchema } from "./schema/importJobs.js";
import { inventorySchema } from "./schema/inventory.js";
import { jobsSchema } from "./schema/jobs.js";
import { metricsSchema } from "./schema/metrics.js";
import { checkScopeMetricNames } from "./schema/names.js";
import { checkNativeExport, nativeExportSchema } from "./schema/nativeExport.js";
import { queriesSchema } from "./schema/queries.js";
import { serverSchema } from "./schema/server.js";
import { sparkJobsSchema } from "./schema/sparkJobs.js";
import { always, type DeepReadonly, optional, sectionError } from "./schemaKit.js";

export { jobIdListSchema } from "./schema/jobs.js";
export type { MetricQuery } from "./schema/queries.js";
export { sparkJobListSchema } from "./schema/sparkJobs.js";

/**
 * The whole file, with relative paths (key files, `spark_jobs.jobs_file`, `jobs.ids_file`,
 * `server.web_config_file`) resolved against `baseDir`, the config file's directory. An empty
 * document is a valid file (every default, key from the environment). Output: a `ConfigDraft`,
 * the camelCase config without its credentials plus where each credential comes from.
 */
export function configSchema(baseDir: string) {
  const resolvePath: ResolvePath = (path) => resolve(baseDir, path);
  return z
    .preprocess(
      (v) => (v === null || v === undefined ? {} : v),
      z
        .strictObject(
          {
            api: apiSchema(resolvePath),
            clusters: clustersSchema(resolvePath),
            metrics: metricsSchema,
            import_jobs: importJobsSchema,
            spark_jobs: sparkJobsSchema(resolvePath),
            jobs: jobsSchema(resolvePath),
            inventory: inventorySchema,
            collections: collectionsSchema(queriesSchema("collections.queries", checkScopeQuery)),
            groups: groupsSchema,
            backups: backupsSchema,
            global_clusters: globalClustersSchema,
            alert_rules: alertRulesSchema,
            billing: billingSchema(resolvePath),
            native_export: nativeExportSchema,
            families: familiesSchema,
            server: serverSchema(resolvePath),
            staleness_intervals: intField(2, 100).default(5),
          },
          { error: sectionError },
        )
        .check(z.superRefine(checkScopeMetricNames, always))
        .check(z.superRefine(checkNativeExport, always)),
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
        jobs: file.jobs,
        inventory: file.inventory,
        collections: (({ queries, ...collections }) => ({
          ...collections,
          /** Per-collection queries, expanded like a scope's own list; absent: the scope defaults. */
          ...optional(
            "queries",
            queries === undefined ? undefined : scopeQueries(file.metrics.queries, queries),
          ),
        }))(file.collections),
        groups: file.groups,
        backups: file.backups,
        globalClusters: file.global_clusters,
        alertRules: file.alert_rules,
        billing: file.billing.settings,
        nativeExport: file.native_export,
        families: file.families,
        server: file.server,
        /** A series older than this many intervals of its collector disappears. Default 5. */
        stalenessIntervals: file.staleness_intervals,
      },
      /** The default credential (`api.api_key` / `api.api_key_file`). */
      apiKey: { at: "api", ...file.api.key },
      /** The billing credential (`billing.api_key` / `billing.api_key_file`); none: the default. */
      billingKey: { at: "billing", ...file.billing.key },
      /** One source per cluster, same order as `config.clusters`. */
      clusterKeys: file.clusters.map(({ key }, index) => ({ at: `clusters[${index}]`, ...key })),
      /** Each cluster's data-plane token file, same order as `config.clusters`. */
      dataPlaneTokenFiles: file.clusters.map(({ tokenFile }) => tokenFile),
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
