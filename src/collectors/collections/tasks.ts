/**
 * Collections: per cluster, list its databases and collections through the cluster's own data
 * plane, read the load state, row count and indexes of the collections it keeps
 * (include/exclude, at most max_per_cluster, sorted), and hand those collections to the
 * exporter, which makes each a per-collection metrics scope of the cluster metrics collector.
 * One task per cluster (target = cluster ID); its failure (unreachable data plane, refused
 * credential, unknown database) sets only that target down.
 */

import type { ClusterConfig, Config } from "../../config/types.js";
import { CLUSTER_FAMILIES } from "../../metrics/families.js";
import { familyFilter } from "../../metrics/familyFilter.js";
import { clusterTask } from "../../polling/clusterTask.js";
import { clusterMetricFamilies } from "../../polling/metricFamilies.js";
import {
  type CallEstimate,
  type CollectorEnv,
  type CollectorTask,
  defineCollector,
} from "../../polling/model.js";
import { mergeMappings, putData } from "../../polling/runtime.js";
import type { CollectionRef, DataPlaneApi, LoadState } from "../../upstream/dataPlane.js";
import { CloudError } from "../../upstream/errors.js";
import { DATA_PLANE_ENDPOINT, ENDPOINT } from "../../upstream/types.js";
import { listAllCollections } from "./collectionDiscovery.js";
import { COLLECTIONS_SECTION } from "./config.js";
import { COLLECTION_FAMILIES, INDEX_FAMILIES } from "./families.js";
import { pollIndexes } from "./indexes.js";
import { mapIndexes } from "./indexMapping.js";
import { INDEX_MEMORY } from "./indexMemory.js";
import { mapCollections } from "./mapping.js";
import { COLLECTION_SCOPES, KEPT_COLLECTIONS, recordKept } from "./scopes.js";
import { collectionPath, selectCollections } from "./select.js";

const COLLECTOR = "collections";

/**
 * Whether a run asks for indexes: collections.indexes, and one index family exposed (the family
 * lists spare the calls of families that are all denied).
 */
function asksIndexes(config: Config): boolean {
  const filter = familyFilter(config.families);
  return config.collections.indexes && Object.values(INDEX_FAMILIES).some((f) => filter.exposes(f.name));
}

/** Reads the load state, or not_exist when the collection vanished since it was listed. */
async function loadStateOf(dp: DataPlaneApi, ref: CollectionRef, signal: AbortSignal): Promise<LoadState> {
  try {
    return await dp.getLoadState(ref, signal);
  } catch (error) {
    if (error instanceof CloudError && error.code === "not_found" && error.httpStatus !== 404) {
      return { state: "LoadStateNotExist", progress: null };
    }
    throw error;
  }
}

async function rowCountOf(dp: DataPlaneApi, ref: CollectionRef, signal: AbortSignal): Promise<number | null> {
  try {
    return await dp.getRowCount(ref, signal);
  } catch (error) {
    if (error instanceof CloudError && error.code === "not_found" && error.httpStatus !== 404) return null;
    throw error;
  }
}

/**
 * The calls one run makes, for the plan: listings are per database and Describe Index per index,
 * so "at least" (one index per collection is counted).
 */
function callsOf(env: CollectorEnv, cluster: ClusterConfig): CallEstimate[] {
  const cfg = env.config.collections;
  return [
    ...(cluster.dataPlaneEndpoint === undefined
      ? [{ endpoint: ENDPOINT.describeCluster, count: 1, atLeast: false }]
      : []),
    { endpoint: DATA_PLANE_ENDPOINT.listDatabases, count: 1, atLeast: false },
    { endpoint: DATA_PLANE_ENDPOINT.listCollections, count: 1, atLeast: true },
    ...(cfg.loadState
      ? [
          {
            endpoint: DATA_PLANE_ENDPOINT.getLoadState,
            count: cfg.maxPerCluster,
            atLeast: false,
          },
        ]
      : []),
    ...(cfg.rowCount
      ? [
          {
            endpoint: DATA_PLANE_ENDPOINT.getStats,
            count: cfg.maxPerCluster,
            atLeast: false,
          },
        ]
      : []),
    ...(asksIndexes(env.config)
      ? [
          { endpoint: DATA_PLANE_ENDPOINT.listIndexes, count: cfg.maxPerCluster, atLeast: false },
          { endpoint: DATA_PLANE_ENDPOINT.describeIndex, count: cfg.maxPerCluster, atLeast: true },
        ]
      : []),
  ];
}

/** One task per cluster of this replica, when `collections.enabled`. */
function collectionsTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.collections;
  const indexes = asksIndexes(env.config);
  const indexMemory = env.state.get(INDEX_MEMORY);
  indexMemory.retain(new Set(cfg.enabled && indexes ? env.clusters.map((c) => c.id) : []));
  env.state.get(KEPT_COLLECTIONS).retain(new Set(cfg.enabled ? env.clusters.map((c) => c.id) : []));
  if (!cfg.enabled) return [];
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return env.clusters.map((cluster) =>
    clusterTask(env, cluster, {
      collector: COLLECTOR,
      calls: callsOf(env, cluster),
      intervalMs: cfg.intervalMs,
      poll: async ({ dataPlane, run, signal }) => {
        const runMs = env.ctx.now();
        const dp = await dataPlane();
        const { all, countsByDb } = await listAllCollections(dp, signal);
        const selection = selectCollections(all, cfg);
        const loadStates = new Map<string, LoadState>();
        const rows = new Map<string, number | null>();
        for (const ref of selection.polled) {
          if (cfg.loadState) loadStates.set(collectionPath(ref), await loadStateOf(dp, ref, signal));
          if (cfg.rowCount) rows.set(collectionPath(ref), await rowCountOf(dp, ref, signal));
        }
        const described = indexes
          ? await pollIndexes({
              dp,
              clusterId: cluster.id,
              collections: selection.polled,
              rows,
              memory: indexMemory,
              runMs,
              intervalMs: cfg.intervalMs,
              keepMs: ttlMs,
              run,
              logger: env.ctx.logger,
              signal,
            })
          : [];
        const collections = mapCollections({
          clusterId: cluster.id,
          countsByDb,
          listed: selection.listed,
          notPolled: selection.notPolled,
          loadStates,
          rows,
        });
        putData(
          env.ctx,
          COLLECTOR,
          cluster.id,
          mergeMappings(collections, mapIndexes(cluster.id, described)),
          ttlMs,
        );
        recordKept(env, cluster.id, { polled: selection.polled, notPolled: selection.notPolled });
      },
    }),
  );
}

/**
 * The collections collector: collection discovery through each cluster's data plane. Its listing also
 * feeds the cluster metrics' per-collection scopes (`collections.scopes`), so it runs while
 * those families are exposed, even when its own are all denied.
 */
export const collectionsCollector = defineCollector(COLLECTOR, collectionsTasks, {
  polls: "each cluster's data plane: databases, collections, load state, rows, indexes",
  config: COLLECTIONS_SECTION,
  demo: {
    settings: ({ full, scopeSettings }) =>
      full ? { enabled: true, interval: "PT30S", row_count: true, ...scopeSettings } : undefined,
  },
  scopes: COLLECTION_SCOPES,
  notes: (config) => {
    const cfg = config.collections;
    if (!cfg.enabled) return [];
    return [
      ...(cfg.scopes && config.metrics.enabled
        ? [
            `collections: each cluster's metric calls are counted at max_per_cluster (${cfg.maxPerCluster}) discovered collections`,
          ]
        : []),
      ...(cfg.indexes
        ? [
            "collections: data-plane calls count a List Indexes per polled collection and a Describe Index per index, at one index per collection (more indexes, more calls; a finished index at rest is described at most once per collections.interval)",
          ]
        : []),
    ];
  },
  areas: [
    { title: "Collections", families: COLLECTION_FAMILIES },
    { title: "Indexes", families: INDEX_FAMILIES },
  ],
  families: (config) => [
    ...Object.values(COLLECTION_FAMILIES),
    CLUSTER_FAMILIES.collections,
    ...(config.collections.indexes ? Object.values(INDEX_FAMILIES) : []),
    ...(config.collections.scopes ? clusterMetricFamilies(config) : []),
  ],
});
