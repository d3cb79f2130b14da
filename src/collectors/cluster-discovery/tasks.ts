/**
 * Cluster discovery: List Clusters finds every cluster the key can see, and the other collectors poll
 * them. Its health is reported under the inventory collector, target "discovery".
 */

import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import { CLUSTER_KINDS, learnPlans } from "../../polling/clusterKinds.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { listEveryPage } from "../../polling/pager.js";
import { putData, runPoll } from "../../polling/runtime.js";
import { keepValidIds } from "../../polling/upstreamIds.js";
import { ChangeLog } from "../../shared/changeLog.js";
import { type CloudApi, type ClusterDescription, ENDPOINT } from "../../upstream/types.js";
import { CLUSTER_DISCOVERY_FAMILIES } from "./families.js";

// Cluster discovery's health has always been reported under the `collector` label "inventory", target
// "discovery" (dashboards and alerts select it so); cluster discovery is its own collector all the same.
const LABEL = "inventory";

/** Page size for List Clusters (documented range 1..100). */
export const LIST_CLUSTERS_PAGE_SIZE = 100;

/**
 * Lists every cluster visible to the key through List Clusters (paged), filtered by the
 * configured projects and regions (an empty filter list means all).
 */
export async function discoverClusters(
  client: CloudApi,
  filter: { projectIds: readonly string[]; regionIds: readonly string[] },
  signal?: AbortSignal,
): Promise<ClusterDescription[]> {
  const projectIds = filter.projectIds.length > 0 ? filter.projectIds : [undefined];
  const regionIds = filter.regionIds.length > 0 ? filter.regionIds : [undefined];
  // Kept: one listing per configured project and region, merged; each listing is de-duplicated
  // by the pager, but a cluster whose answer names no project or region passes the filter of
  // every listing that returned it, so the merge keys by cluster ID.
  const found = new Map<string, ClusterDescription>();
  for (const projectId of projectIds) {
    for (const regionId of regionIds) {
      const listed = await listEveryPage(
        {
          endpoint: ENDPOINT.listClusters,
          pageSize: LIST_CLUSTERS_PAGE_SIZE,
          fetch: (page, s) =>
            client.listClusters(
              {
                ...(projectId !== undefined ? { projectId } : {}),
                ...(regionId !== undefined ? { regionId } : {}),
                ...page,
              },
              s,
            ),
          items: (page) => page.clusters,
          key: (c) => c.clusterId,
        },
        signal,
      );
      for (const c of listed) {
        // The upstream may ignore a filter it does not know: apply it here as well.
        if (projectId !== undefined && c.projectId !== null && c.projectId !== projectId) continue;
        if (regionId !== undefined && c.regionId !== null && c.regionId !== regionId) continue;
        found.set(c.clusterId, c);
      }
    }
  }
  return [...found.values()];
}

/** What cluster discovery keeps of what it found: at most `max` clusters, the first by cluster ID. */
interface ClusterDiscoveryCap {
  readonly kept: ClusterDescription[];
  /** Found beyond `max`, not polled. */
  readonly notPolled: number;
}

/**
 * The first `max` clusters by cluster ID, so the same clusters are polled every cycle and on
 * every replica (each picks its own share of the same list). Pure.
 */
export function capDiscovered(found: readonly ClusterDescription[], max: number): ClusterDiscoveryCap {
  const sorted = [...found].sort((a, b) =>
    a.clusterId < b.clusterId ? -1 : a.clusterId > b.clusterId ? 1 : 0,
  );
  return { kept: sorted.slice(0, max), notPolled: Math.max(0, sorted.length - max) };
}

/** vdbcloud_discovered_clusters_not_polled, written after every successful listing. */
function capSamples(notPolled: number): MappingResult {
  const out = new MappingBuilder();
  out.add(CLUSTER_DISCOVERY_FAMILIES.clustersNotPolled, {}, notPolled);
  return out.result();
}

/**
 * The cluster discovery task: lists clusters every inventory interval and hands the result to
 * `env.onClustersDiscovered` (which rebuilds the other collectors' tasks). A failed listing keeps the
 * previous targets. It runs on every replica, whether or not inventory is enabled: each replica
 * needs the whole list to pick its own share of the clusters.
 */
function clusterDiscoveryTask(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.inventory;
  if (!cfg.discovery.enabled) return [];
  const client = env.clients.forCluster({});
  // One listing per project and region filter pair, of at least one page each.
  const listings = Math.max(1, cfg.discovery.projectIds.length) * Math.max(1, cfg.discovery.regionIds.length);
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  // Logged once per change of the number beyond the cap (a task lives until the next rebuild of the tasks).
  const notPolledLog = new ChangeLog<number>({ quiet: 0 });
  return [
    collectorTask({
      id: { collector: LABEL, target: "discovery" },
      credential: env.clients.credentialOf({}),
      calls: [{ endpoint: ENDPOINT.listClusters, count: listings, atLeast: true }],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(
          env.ctx,
          { collector: LABEL, target: "discovery", credential: env.clients.credentialOf({}) },
          async () => {
            // A cluster ID is the path of every per-cluster call: one outside the ID rule is dropped.
            const found = keepValidIds(
              env.ctx,
              ENDPOINT.listClusters,
              await discoverClusters(client, cfg.discovery, signal),
              (c) => [c.clusterId],
            );
            const { kept, notPolled } = capDiscovered(found, cfg.discovery.maxClusters);
            if (notPolledLog.changed(LABEL, notPolled) && notPolled > 0) {
              env.ctx.logger?.warn(
                { not_polled: notPolled, max_clusters: cfg.discovery.maxClusters },
                "discovered clusters beyond inventory.discovery.max_clusters are not polled (sorted by ID, the first are kept)",
              );
            }
            learnPlans(env.state.get(CLUSTER_KINDS), env.ctx.health, kept);
            env.onClustersDiscovered(kept);
            putData(env.ctx, LABEL, "discovery", capSamples(notPolled), ttlMs);
          },
        ),
    }),
  ];
}

/**
 * Cluster discovery writes no family of its own data: it finds the clusters every per-cluster collector
 * polls, so it runs while any collector that writes families runs (docs/configuration.md,
 * families). Its one family reports the clusters its cap left out.
 */
export const clusterDiscoveryCollector = defineCollector("discovery", clusterDiscoveryTask, {
  polls: "List Clusters: the clusters the key sees (cluster discovery)",
  label: LABEL,
  feedsOthers: true,
  families: Object.values(CLUSTER_DISCOVERY_FAMILIES),
  areas: [{ title: "Cluster discovery", families: CLUSTER_DISCOVERY_FAMILIES }],
});
