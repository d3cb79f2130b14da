/**
 * The `collections` section (docs/configuration.md): collection discovery through each cluster's
 * data plane. Its `queries` follow the rules of a configured scope's `queries`, and are expanded
 * against `metrics.queries` like one.
 */
import type * as z from "zod";
import { boolField, durationField, intField, regexField } from "../../config/fields.js";
import { checkScopeQuery, scopeQueries } from "../../config/queries.js";
import { DAY, MINUTE, SECOND } from "../../config/schema/common.js";
import type { MetricQuery } from "../../config/schema/queries.js";
import { queriesSchema } from "../../config/schema/queries.js";
import { list, nullAsAbsent, optional, section } from "../../config/schemaKit.js";
import { configSection, type SectionSettings } from "../../config/section.js";
import { DEFAULT_DATA_PLANE_RATE_LIMIT } from "../../upstream/dataPlane.js";

/**
 * `collections:`. `queries` is the per-collection query list schema of schema.ts (the same rules
 * as a configured scope's `queries`).
 */
function collectionsSchema<Q extends z.ZodType>(queries: Q) {
  return section({
    enabled: boolField().default(false),
    interval: durationField({ min: 30 * SECOND, max: DAY }).default(5 * MINUTE),
    include: nullAsAbsent(list(regexField()).default([])),
    exclude: nullAsAbsent(list(regexField()).default([])),
    max_per_cluster: intField(1, 100_000).default(100),
    scopes: boolField().default(true),
    queries: nullAsAbsent(queries.optional()),
    load_state: boolField().default(true),
    row_count: boolField().default(false),
    indexes: boolField().default(true),
    rate_limit: intField(1, 1000).default(DEFAULT_DATA_PLANE_RATE_LIMIT),
  }).transform((c) => ({
    enabled: c.enabled,
    intervalMs: c.interval,
    /** Regexes on "<db>/<collection>"; empty: every collection. */
    include: c.include,
    exclude: c.exclude,
    /** Collections per cluster that get per-collection work; the rest are counted and logged. */
    maxPerCluster: c.max_per_cluster,
    /** Each polled collection becomes a per-collection metrics scope. */
    scopes: c.scopes,
    /** As written; the file's transform expands it like a scope's own list. */
    ...optional("queries", c.queries as z.output<Q> | undefined),
    loadState: c.load_state,
    rowCount: c.row_count,
    /** List Indexes, then Describe Index per index, per polled collection. */
    indexes: c.indexes,
    /** Data-plane requests per second per cluster endpoint (the data plane documents no limit). */
    rateLimit: c.rate_limit,
  }));
}

const schema = () => collectionsSchema(queriesSchema("collections.queries", checkScopeQuery));

type Parsed = z.output<ReturnType<typeof schema>>;

export const COLLECTIONS_SECTION = configSection("collections", schema, {
  finish: ({ queries, ...collections }: Parsed, core) => ({
    ...collections,
    /** Per-collection queries, expanded like a scope's own list; absent: the scope defaults. */
    ...optional("queries", queries === undefined ? undefined : scopeQueries(core.metrics.queries, queries)),
  }),
  metricQueries: (settings: { readonly queries?: readonly MetricQuery[] | undefined }) =>
    settings.queries ?? [],
  // Collection discovery is the only data-plane caller, so its section holds the rate of every
  // data-plane client; the key stays `collections.rate_limit` for existing files.
  dataPlane: (settings: Pick<Parsed, "enabled" | "rateLimit">) => ({
    rateLimit: settings.rateLimit,
    setting: "collections.rate_limit",
    inUse: settings.enabled,
  }),
});

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof COLLECTIONS_SECTION> {}
}
