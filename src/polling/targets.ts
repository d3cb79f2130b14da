/**
 * What one replica polls: the same selection for the running exporter and for the plan of
 * `--check-config`, so the two cannot pick different targets.
 */

import { inShard, type Shard } from "../config/shard.js";
import type { ClusterConfig, Config, ScopeConfig } from "../config/types.js";
import type { ClusterDescription } from "../upstream/types.js";
import type { Collector, CollectorStates } from "./model.js";

/**
 * The clusters a replica polls: the configured ones, then the discovered ones that are not
 * configured (no scopes, default credential), those of its shard only.
 */
export function replicaClusters(
  config: Config,
  discovered: readonly ClusterDescription[],
  shard: Shard,
): ClusterConfig[] {
  const byId = new Map<string, ClusterConfig>();
  for (const c of config.clusters) byId.set(c.id, c);
  for (const d of discovered) {
    // Two sources merged, not a listing's repeat: a configured cluster keeps its configuration.
    if (byId.has(d.clusterId)) continue;
    byId.set(d.clusterId, {
      id: d.clusterId,
      ...(d.regionId !== null ? { region: d.regionId } : {}),
      ...(d.projectId !== null ? { projectId: d.projectId } : {}),
      scopes: [],
    });
  }
  return [...byId.values()].filter((c) => inShard(c.id, shard));
}

/**
 * Adds each cluster's found scopes after its configured scopes; a scope that is also configured
 * (same database and collection) keeps its configured form only.
 */
export function withFoundScopes(
  clusters: readonly ClusterConfig[],
  found: ReadonlyMap<string, readonly ScopeConfig[]>,
): ClusterConfig[] {
  return clusters.map((cluster) => {
    const scopes = found.get(cluster.id);
    if (scopes === undefined || scopes.length === 0) return cluster;
    const key = (s: ScopeConfig) => JSON.stringify([s.dbName, s.collectionName]);
    const configured = new Set(cluster.scopes.map(key));
    const added = scopes.filter((s) => !configured.has(key(s)));
    return added.length === 0 ? cluster : { ...cluster, scopes: [...cluster.scopes, ...added] };
  });
}

/** Every collector's found scopes, merged by cluster (in registry order). */
export function foundScopes(
  collectors: readonly Collector[],
  config: Config,
  state: CollectorStates,
): Map<string, ScopeConfig[]> {
  const merged = new Map<string, ScopeConfig[]>();
  for (const c of collectors) {
    for (const [id, scopes] of c.scopes?.found(config, state) ?? [])
      merged.set(id, [...(merged.get(id) ?? []), ...scopes]);
  }
  return merged;
}
