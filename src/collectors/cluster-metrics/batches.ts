/**
 * Which Query Cluster Metrics requests to send per target. One request per target and cycle
 * carries all its queries, except where the two request forms (upstream/catalog.ts) must not mix.
 */
import { queryKey } from "../../upstream/catalog.js";
import type { MetricQuery } from "../../upstream/types.js";

/** The queries of one Query Cluster Metrics request. */
export interface MetricQueryBatch {
  readonly queries: MetricQuery[];
}

/**
 * Splits `queries` into the requests to send for one target: first-form queries (with `stat`)
 * in one request and second-form queries (without) in another, because a server may refuse a
 * request mixing the two; at most two requests, none empty. A scope's configured queries are
 * all second form (config/queries.ts `scopeQueries`), so it sends one request, and the first
 * form only once a server refused the second (refusedQueries.ts). Repeated queries (same name and
 * stat) are sent once. Order is kept. Returns [] when nothing is left to ask.
 */
export function buildMetricQueries(queries: readonly MetricQuery[]): MetricQueryBatch[] {
  // Kept: the repeats come from a configured list (metrics.queries or a scope's queries may
  // name a query twice; the probe and backfill pass their own lists), not from a listing, and
  // a repeat would be sent in the request, before any series exists for the builder to drop.
  const seen = new Set<string>();
  const first: MetricQuery[] = [];
  const second: MetricQuery[] = [];
  for (const q of queries) {
    const key = queryKey(q);
    if (seen.has(key)) continue;
    seen.add(key);
    if (q.stat === undefined) second.push({ name: q.name });
    else first.push({ name: q.name, stat: q.stat });
  }
  return [first, second].filter((b) => b.length > 0).map((b) => ({ queries: b }));
}
