/**
 * What one replica polls: the same selection for the running exporter and for the plan of
 * `--check-config`, so the two cannot pick different targets.
 */

import { inShard, type Shard } from "../config/shard.js";
import type { ClusterConfig, Config, MetricQueryConfig, SparkJobRef } from "../config/types.js";
import type { CollectionRef } from "../upstream/dataPlane.js";
import type { ClusterDescription } from "../upstream/types.js";

/** A Spark job's target name (and shard key): "projectId/jobId". */
export function sparkTargetName(ref: SparkJobRef): string {
  return `${ref.projectId}/${ref.jobId}`;
}

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

/** Every configured Spark job: the config's and the jobs file's, each once (every shard). */
export function configuredSparkJobs(config: Config, fileJobs: readonly SparkJobRef[]): SparkJobRef[] {
  const byKey = new Map<string, SparkJobRef>();
  for (const j of [...config.sparkJobs.jobs, ...fileJobs]) byKey.set(sparkTargetName(j), j);
  return [...byKey.values()];
}

/** The Spark jobs a replica polls: the config's and the jobs file's, each once, of its shard. */
export function replicaSparkJobs(
  config: Config,
  fileJobs: readonly SparkJobRef[],
  shard: Shard,
): SparkJobRef[] {
  return configuredSparkJobs(config, fileJobs).filter((j) => inShard(sparkTargetName(j), shard));
}

/**
 * The jobs by ID a replica polls: `jobs.ids` and the IDs file's, each once, of its shard (keyed
 * by job ID, as Spark jobs are by their target name).
 */
export function replicaJobIds(config: Config, fileIds: readonly string[], shard: Shard): string[] {
  return [...new Set([...config.jobs.ids, ...fileIds])].filter((id) => inShard(id, shard));
}

/**
 * Adds each cluster's discovered collections as per-collection scopes, after its configured
 * scopes; a collection that is also configured keeps its configured scope only. `queries` is
 * `collections.queries` (absent: the scope defaults).
 */
export function withCollectionScopes(
  clusters: readonly ClusterConfig[],
  discovered: ReadonlyMap<string, readonly CollectionRef[]>,
  queries: readonly MetricQueryConfig[] | undefined,
): ClusterConfig[] {
  return clusters.map((cluster) => {
    const found = discovered.get(cluster.id);
    if (found === undefined || found.length === 0) return cluster;
    const configured = new Set(cluster.scopes.map((s) => JSON.stringify([s.dbName, s.collectionName])));
    const added = found
      .filter((c) => !configured.has(JSON.stringify([c.dbName, c.collectionName])))
      .map((c) => ({
        dbName: c.dbName,
        collectionName: c.collectionName,
        ...(queries === undefined ? {} : { queries }),
      }));
    return added.length === 0 ? cluster : { ...cluster, scopes: [...cluster.scopes, ...added] };
  });
}
