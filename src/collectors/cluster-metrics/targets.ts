/**
 * The metrics targets of a set of clusters (each cluster, plus one per scope) with the requests
 * each sends, and the request for one window. The live collector and the history backfill both
 * build their calls here, so they ask the same targets the same queries.
 */

import { queriesForTarget } from "../../config/queries.js";
import type { ClusterConfig, MetricsConfig, ScopeConfig } from "../../config/types.js";
import type { ClusterMetricsRequest, MetricQuery } from "../../upstream/types.js";
import { buildMetricQueries, type MetricQueryBatch } from "./batches.js";
import type { MetricScope } from "./mapping.js";

/** The label-free identity of a metrics target: the cluster, or cluster/db/collection. */
export function metricsTargetName(clusterId: string, scope?: MetricScope): string {
  if (!scope) return clusterId;
  return `${clusterId}/${scope.dbName ?? ""}/${scope.collectionName ?? ""}`;
}

/** One target of Query Cluster Metrics: never without a batch. */
export interface MetricsTarget {
  readonly cluster: ClusterConfig;
  /** Absent for the cluster-wide target. */
  readonly scope?: MetricScope;
  /** `metricsTargetName` of the cluster and scope. */
  readonly name: string;
  /** The queries configured for the target (a scope's own, or derived from `metrics.queries`). */
  readonly queries: readonly MetricQuery[];
  /** The requests one window takes (one, or two when both request forms are configured). */
  readonly batches: readonly MetricQueryBatch[];
}

/**
 * Every metrics target of `clusters`, in order (each cluster, then its scopes). A target left
 * with no query to send is omitted.
 */
export function metricsTargets(cfg: MetricsConfig, clusters: readonly ClusterConfig[]): MetricsTarget[] {
  const out: MetricsTarget[] = [];
  for (const cluster of clusters) {
    const scopes: (ScopeConfig | undefined)[] = [undefined, ...cluster.scopes];
    for (const scopeConfig of scopes) {
      // A scope's own query list is config; the mapping reads only its db/collection names.
      const scope: MetricScope | undefined = scopeConfig;
      const queries = queriesForTarget(cfg.queries, scopeConfig);
      const batches = buildMetricQueries(queries);
      if (batches.length === 0) continue;
      out.push({
        cluster,
        ...(scope ? { scope } : {}),
        name: metricsTargetName(cluster.id, scope),
        queries,
        batches,
      });
    }
  }
  return out;
}

/** The request of `queries` (one batch, or a part of one) of `target` for [startMs, endMs). */
export function metricsRequest(
  target: Pick<MetricsTarget, "cluster" | "scope">,
  queries: readonly MetricQuery[],
  window: { readonly startMs: number; readonly endMs: number; readonly granularityMs: number },
): ClusterMetricsRequest {
  const scope = target.scope;
  return {
    clusterId: target.cluster.id,
    startMs: window.startMs,
    endMs: window.endMs,
    granularityMs: window.granularityMs,
    ...(scope?.dbName !== undefined ? { dbName: scope.dbName } : {}),
    ...(scope?.collectionName !== undefined ? { collectionName: scope.collectionName } : {}),
    queries: [...queries],
  };
}
