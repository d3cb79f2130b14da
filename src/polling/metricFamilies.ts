/**
 * The families Query Cluster Metrics can write under a config: what the cluster metrics
 * collector declares, and what the collections collector feeds through the scopes it finds
 * (it runs while these are exposed, even when its own families are denied).
 */
import { configuredMetricNames } from "../config/queries.js";
import type { Config } from "../config/types.js";
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
