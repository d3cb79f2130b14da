/**
 * On-demand clusters: billed compute that List Clusters does not show. List On-Demand Clusters
 * takes one project and one region (both required), so it is asked once per project and region
 * the exporter knows (List Projects V2 `regionIds`, and the polled clusters' projects and
 * regions), on the replica that owns account-wide calls (shard 0), every inventory interval.
 * Each project and region is a part of the poll (polling/parts.ts): one that fails keeps its
 * last good series and is shown on the target's health, the others are unaffected.
 */
import { ownsGlobalCalls } from "../../config/shard.js";
import { type CollectorEnv, type CollectorTask, collectorTask } from "../../polling/model.js";
import { pollParts } from "../../polling/parts.js";
import { knownProjects, mergeKnownProjects, projectRegions } from "../../polling/projects.js";
import { runPoll } from "../../polling/runtime.js";
import { ENDPOINT } from "../../upstream/types.js";
import { mapOnDemandClusters } from "./mapping.js";

const COLLECTOR = "inventory";
/** The task's target: the health series `vdbcloud_collector_up{collector="inventory",target="on_demand"}`. */
export const ON_DEMAND_TARGET = "on_demand";
/** What a key needs to list on-demand clusters, for the one log line of a refusal. */
const ROLE = "Project Admin";

/** The one task (shard 0, `inventory.on_demand`), or none. */
export function onDemandTask(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.inventory;
  if (!cfg.enabled || !cfg.onDemand || !ownsGlobalCalls(env.shard)) return [];
  const client = env.clients.forCluster({});
  const credential = env.clients.credentialOf({});
  // Every configured cluster (any shard's) and this replica's discovered ones.
  const places = [...env.config.clusters, ...env.clusters];
  // Every organisation has a project, and every project a region: at least one listing.
  const planned = Math.max(1, projectRegions(mergeKnownProjects([], places)).length);
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return [
    collectorTask({
      id: { collector: COLLECTOR, target: ON_DEMAND_TARGET },
      credential,
      calls: [
        { endpoint: ENDPOINT.listProjectsV2, count: 1, atLeast: false },
        // One per known project and region: the config's here, List Projects V2's at run time.
        { endpoint: ENDPOINT.listOnDemandClusters, count: planned, atLeast: true },
      ],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(
          env.ctx,
          { collector: COLLECTOR, target: ON_DEMAND_TARGET, credential, role: ROLE },
          async (run) => {
            const pairs = projectRegions(await knownProjects(client, places, signal));
            await pollParts(
              env.ctx,
              run,
              {
                collector: COLLECTOR,
                target: ON_DEMAND_TARGET,
                key: (p) => `${p.projectId}/${p.regionId}`,
                poll: async (p, s) => mapOnDemandClusters(await client.listOnDemandClusters(p, s), p),
                ttlMs,
              },
              pairs,
              signal,
            );
          },
        ),
    }),
  ];
}
