/**
 * Which Query Cluster Metrics requests to send per target. One request per target and cycle
 * carries all its queries, except where the two documented request forms must not mix.
 */
import type { MetricQuery } from "../../cloud/types.js";

/** The queries of one Query Cluster Metrics request. */
export interface MetricQueryBatch {
  readonly queries: MetricQuery[];
}

/**
 * Splits the configured `queries` into the requests to send for one target.
 * - Cluster-wide (`scoped: false`): first-form queries (with `stat`) in one request and
 *   second-form queries (without) in another, because the API documents them as two forms of
 *   the request; at most two requests, none empty.
 * - Scoped (`scoped: true`, a db/collection target): second-form queries only, because scopes
 *   (dbName, collectionName) exist in the second form only; at most one request.
 * Repeated queries (same name and stat) are sent once. Order is kept. Returns [] when nothing
 * is left to ask.
 */
export function buildMetricQueries(
  queries: readonly MetricQuery[],
  options: { readonly scoped: boolean },
): MetricQueryBatch[] {
  const seen = new Set<string>();
  const first: MetricQuery[] = [];
  const second: MetricQuery[] = [];
  for (const q of queries) {
    const key = `${q.name}\u0000${q.stat ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (q.stat === undefined) second.push({ name: q.name });
    else first.push({ name: q.name, stat: q.stat });
  }
  const batches = options.scoped ? [second] : [first, second];
  return batches.filter((b) => b.length > 0).map((b) => ({ queries: b }));
}
