/**
 * The global-cluster collector: List Global Clusters (every page), then Get Global Cluster
 * Replication Lag per global cluster. Organisation data: only the replica that owns
 * account-wide calls (shard 0) runs it, with the default credential; one task, target
 * "organization".
 */
import { ownsGlobalCalls } from "../../config/shard.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { listEveryPage } from "../../polling/pager.js";
import { putData, runPoll } from "../../polling/runtime.js";
import { keepValidIds } from "../../polling/upstreamIds.js";
import type { CloudApi, GlobalCluster, ReplicationLag } from "../../upstream/types.js";
import { ENDPOINT } from "../../upstream/types.js";
import { GLOBAL_CLUSTERS_SECTION } from "./config.js";
import { GLOBAL_CLUSTER_FAMILY } from "./families.js";
import { GLOBAL_CLUSTER_FAMILIES, mapGlobalClusters } from "./mapping.js";

const COLLECTOR = "global_clusters";
const TARGET = "organization";

/** The page size asked for: the documented maximum. */
const GLOBAL_PAGE_SIZE = 100;

/** Every global cluster, each once. */
export function listAllGlobalClusters(client: CloudApi, signal?: AbortSignal): Promise<GlobalCluster[]> {
  return listEveryPage(
    {
      endpoint: ENDPOINT.listGlobalClusters,
      pageSize: GLOBAL_PAGE_SIZE,
      fetch: (page, s) => client.listGlobalClusters(page, s),
      items: (page) => page.globalClusters,
      key: (g) => g.globalClusterId,
    },
    signal,
  );
}

/** The one task (shard 0 only). */
function globalClusterTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.globalClusters;
  if (!cfg.enabled || !ownsGlobalCalls(env.shard)) return [];
  const client = env.clients.forCluster({});
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return [
    collectorTask({
      id: { collector: COLLECTOR, target: TARGET },
      credential: env.clients.credentialOf({}),
      calls: [
        { endpoint: ENDPOINT.listGlobalClusters, count: 1, atLeast: true },
        // One per global cluster: how many is known only after listing.
        { endpoint: ENDPOINT.getGlobalClusterReplicationLag, count: 0, atLeast: true },
      ],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(
          env.ctx,
          { collector: COLLECTOR, target: TARGET, credential: env.clients.credentialOf({}) },
          async () => {
            const clusters = keepValidIds(
              env.ctx,
              ENDPOINT.listGlobalClusters,
              await listAllGlobalClusters(client, signal),
              (g) => [g.globalClusterId],
            );
            const lags = new Map<string, ReplicationLag>();
            for (const g of clusters) {
              lags.set(
                g.globalClusterId,
                await client.getGlobalClusterReplicationLag(g.globalClusterId, signal),
              );
            }
            putData(env.ctx, COLLECTOR, TARGET, mapGlobalClusters(clusters, lags), ttlMs);
          },
        ),
    }),
  ];
}

/** List Global Clusters and each one's replication lag per secondary. */
export const globalClustersCollector = defineCollector(COLLECTOR, globalClusterTasks, {
  polls: "List Global Clusters and their replication lag (shard 0)",
  config: GLOBAL_CLUSTERS_SECTION,
  demo: { settings: () => ({ interval: "PT30S" }) },
  areas: [{ title: "Global clusters", families: GLOBAL_CLUSTER_FAMILY }],
  families: GLOBAL_CLUSTER_FAMILIES,
});
