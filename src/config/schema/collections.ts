/**
 * The `collections:` section (collection discovery through each cluster's data plane), a cluster's
 * `data_plane` (docs/design.md section 4). Kept beside schema.ts, which
 * assembles them; the metric query item schema is passed in, so the scope query rules stay in
 * one place.
 */
import type * as z from "zod";
import { DEFAULT_DATA_PLANE_RATE_LIMIT } from "../../upstream/dataPlane.js";
import { boolField, durationField, httpUrlField, intField, regexField, textField } from "../fields.js";
import { list, nullAsAbsent, optional, section } from "../schemaKit.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `clusters[].data_plane`: where the cluster's own endpoint is and which credential it takes. */
export const dataPlaneSchema = section({
  endpoint: httpUrlField().optional(),
  token_file: textField().optional(),
});

/**
 * `collections:`. `queries` is the per-collection query list schema of schema.ts (the same rules
 * as a configured scope's `queries`).
 */
export function collectionsSchema<Q extends z.ZodType>(queries: Q) {
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
