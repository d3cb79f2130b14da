/**
 * The families Query Cluster Metrics can write under a config: what the cluster metrics
 * collector declares, and what the collections collector feeds through the scopes it finds
 * (it runs while these are exposed, even when its own families are denied).
 */
import type { ScopeQueries } from "../config/queries.js";
import { registeredSections } from "../config/section.js";
import type { Config, MetricQueryConfig } from "../config/types.js";
import { TARGET_SELF_FAMILIES } from "../metrics/families.js";
import { metricQueryFamilies } from "../metrics/familyLookup.js";

/**
 * Every cluster family, the families of configured names outside the catalog, and the
 * freshness and quarantine families of each metrics target; none with `metrics.enabled` false.
 */
export function clusterMetricFamilies(config: Config): string[] {
  if (!config.metrics.enabled) return [];
  return [
    ...metricQueryFamilies(configuredMetricNames(config)),
    TARGET_SELF_FAMILIES.newestBucket.name,
    TARGET_SELF_FAMILIES.metricQueryRejected.name,
    TARGET_SELF_FAMILIES.metricsQueryForm.name,
  ];
}

/** Where a config lists metric queries (structural, as `ScopeQueries`). */
interface QueryLists {
  readonly metrics: { readonly queries: readonly MetricQueryConfig[] };
  readonly clusters: readonly { readonly scopes: readonly ScopeQueries[] }[];
}

/**
 * Every metric name a config asks for, wherever it lists it: `metrics.queries`, each configured
 * scope's own list and each registered section's own list (`ConfigSection.metricQueries`;
 * scopes without a list ask the first's names).
 */
export function configuredMetricNames(config: QueryLists): Set<string> {
  const sections = config as unknown as Readonly<Record<string, unknown>>;
  const lists = [
    config.metrics.queries,
    ...config.clusters.flatMap((c) => c.scopes.map((s) => s.queries ?? [])),
    ...registeredSections().map((s) => s.metricQueries?.(sections[s.field] as never) ?? []),
  ];
  return new Set(lists.flatMap((list) => list.map((q) => q.name)));
}
