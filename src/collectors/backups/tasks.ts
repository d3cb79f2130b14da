/**
 * The backup collectors. `backups`: List Backups, every page, per credential (the clusters that
 * share a key share one listing; target "organization"), with series for the polled dedicated
 * clusters only. `backup_policies`: Get Backup Policy per polled dedicated cluster (target: the
 * cluster), at `policy_interval`. Both report under the `backups` collector label.
 *
 * Free and serverless clusters cannot have backups: they are skipped when their ID (in03-) or a
 * plan seen by inventory or cluster discovery says so. Refusals follow the one rule of runPoll: a cluster
 * the service refuses for its plan is asked again after an hour, or as soon as its plan changes;
 * a credential without backup permission makes its targets "not permitted" (up, with
 * vdbcloud_collector_not_permitted 1) with one log line per collector and credential; a refused
 * key is a failure.
 */
import type { ClusterConfig } from "../../config/types.js";
import type { Sample } from "../../metrics/sample.js";
import { CLUSTER_KINDS, isFreeById } from "../../polling/clusterKinds.js";
import { clusterTask } from "../../polling/clusterTask.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { putData, runPoll } from "../../polling/runtime.js";
import { nextTurn } from "../../shared/nextTurn.js";
import { refusalOf } from "../../upstream/refusals.js";
import { ENDPOINT } from "../../upstream/types.js";
import { BACKUPS_SECTION } from "./config.js";
import { BACKUP_FAMILY } from "./families.js";
import { listBackupsOf } from "./listing.js";
import {
  BACKUP_FAMILIES,
  BACKUP_POLICY_FAMILIES,
  BackupsByCluster,
  mapBackups,
  mapPolicy,
} from "./mapping.js";

/**
 * Both collectors report as `backups` (the `collector` label), so a credential without backup
 * permission is one collector to the operator, with one log line.
 */
const BACKUPS = "backups";
const BACKUP_POLICIES = "backup_policies";

/** The store slot of each cluster's share of the listing (its policy is the "data" slot). */
const LISTING_SLOT = "backups";

/** Clusters mapped between two turns of the event loop, after a listing (see docs/performance.md). */
const MAP_CHUNK = 25;
/** Listed backups grouped by cluster between two turns of the event loop (see docs/performance.md). */
const GROUP_SLICE = 2_500;

/** The listing task's target: the organisation as the credential sees it. */
function listingTarget(credential: string): string {
  return credential === "default" ? "organization" : `organization (${credential})`;
}

/** What a credential refused a backup call for lack of permission needs (its one log line). */
const ROLE = "backups: a project admin, the organization owner or a role with backup permission";

/**
 * The polled clusters that may have backups: not known to be free or serverless, and not refused
 * for their plan in the last hour (checked at each run: both are learnt).
 */
function dedicated(env: CollectorEnv, clusters: readonly ClusterConfig[]): ClusterConfig[] {
  const kinds = env.state.get(CLUSTER_KINDS);
  return clusters.filter((c) => !kinds.notDedicated(c.id) && !env.ctx.health.waitsForPlan(BACKUPS, c.id));
}

/** One List Backups task per credential (target: the credential's label). */
function backupListTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.backups;
  if (!cfg.enabled) return [];
  const byCredential = new Map<string, ClusterConfig[]>();
  // Planned by kind alone: a refusal for the plan is learnt at run time (the run filters it).
  const kinds = env.state.get(CLUSTER_KINDS);
  for (const c of env.clusters.filter((c) => !kinds.notDedicated(c.id))) {
    const label = env.clients.credentialOf(c);
    const list = byCredential.get(label);
    if (list === undefined) byCredential.set(label, [c]);
    else list.push(c);
  }
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  return [...byCredential].map(([credential, clusters]) => {
    const client = env.clients.forCluster(clusters[0] as ClusterConfig);
    const target = listingTarget(credential);
    return collectorTask({
      id: { collector: BACKUPS, target },
      credential,
      // Page 1 of the organisation; then its other pages or one listing per cluster, the fewer.
      calls: [{ endpoint: ENDPOINT.listBackups, count: 1, atLeast: true }],
      intervalMs: cfg.intervalMs,
      run: (signal) =>
        runPoll(env.ctx, { collector: BACKUPS, target, credential, role: ROLE }, async () => {
          const ids = dedicated(env, clusters).map((c) => c.id);
          const { backups } = await listBackupsOf(
            client,
            ids,
            async (id, list) => {
              try {
                return await list();
              } catch (err) {
                // The cluster's own listing refused for its plan: remembered by its policy
                // target's health (the same rule), so neither is asked again for an hour.
                if (refusalOf(err) !== "plan_refused") throw err;
                env.ctx.health.planRefused(BACKUPS, id, err);
                return [];
              }
            },
            signal,
          );
          // Stored per cluster: a cluster removed from the config loses its series at the
          // next rebuild of the tasks (with its policy target), not only after the staleness bound.
          const polled = dedicated(env, clusters).map((c) => c.id);
          const kept = new Set(polled);
          for (const c of clusters) {
            if (!kept.has(c.id))
              env.ctx.store.delete({ collector: BACKUPS, target: c.id, slot: LISTING_SLOT });
          }
          // A slice at a time, the event loop served between slices: one listing maps every
          // polled cluster, which at once held the loop too long (docs/performance.md).
          const listed = new BackupsByCluster();
          for (let i = 0; i < backups.length; i += GROUP_SLICE) {
            if (i > 0) await nextTurn();
            listed.add(backups, i, i + GROUP_SLICE);
          }
          for (let i = 0; i < polled.length; i += MAP_CHUNK) {
            await nextTurn();
            const ids = polled.slice(i, i + MAP_CHUNK);
            const mapping = mapBackups(listed, ids);
            // One pass over the samples: a filter per cluster costs clusters x samples.
            const byCluster = new Map<string, Sample[]>(ids.map((id) => [id, []]));
            for (const s of mapping.samples) byCluster.get(s.labels.cluster_id ?? "")?.push(s);
            for (const [id, samples] of byCluster) {
              env.ctx.store.put(
                { collector: BACKUPS, target: id, slot: LISTING_SLOT },
                mapping.families,
                samples,
                ttlMs,
              );
            }
          }
        }),
    });
  });
}

/**
 * One Get Backup Policy task per polled cluster not free by its ID. Whether its plan allows
 * backups is checked at each run, since plans are learnt (and change) after the tasks are made;
 * a refusal for the plan waits an hour, or until the plan changes (the refusal rule of runPoll).
 */
function backupPolicyTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.backups;
  if (!cfg.enabled) return [];
  const kinds = env.state.get(CLUSTER_KINDS);
  // The only reader of cluster kinds forgets the clusters that left the inventory.
  kinds.retain(new Set(env.clusters.map((c) => c.id)));
  const ttlMs = env.config.stalenessIntervals * cfg.policyIntervalMs;
  return env.clusters
    .filter((c) => !isFreeById(c.id))
    .map((cluster) =>
      clusterTask(env, cluster, {
        collector: BACKUPS,
        calls: [{ endpoint: ENDPOINT.getBackupPolicy, count: 1, atLeast: false }],
        intervalMs: cfg.policyIntervalMs,
        role: ROLE,
        poll: async ({ client, signal }) => {
          if (kinds.notDedicated(cluster.id)) {
            env.ctx.store.delete({ collector: BACKUPS, target: cluster.id, slot: "data" });
            return;
          }
          const policy = await client.getBackupPolicy(cluster.id, signal);
          putData(env.ctx, BACKUPS, cluster.id, mapPolicy(cluster.id, policy), ttlMs);
        },
      }),
    );
}

/** List Backups per credential: backup counts, sizes, newest success, oldest still creating. */
export const backupsCollector = defineCollector(BACKUPS, backupListTasks, {
  polls: "List Backups",
  config: BACKUPS_SECTION,
  demo: {
    // Backups change by the hour upstream; the demo polls them every minute so a visitor sees them.
    settings: () => ({ interval: "PT1M", policy_interval: "PT1M" }),
    // The full demo's last cluster has a key that may do everything but backups: this collector
    // then shows that credential as not permitted.
    simulator: ({ restrictedKey }) => ({ backupDeniedKeys: [restrictedKey] }),
  },
  areas: [{ title: "Backups", families: BACKUP_FAMILY }],
  families: BACKUP_FAMILIES,
});

/** Get Backup Policy per dedicated cluster: enabled, retention, copies, the longest gap. */
export const backupPoliciesCollector = defineCollector(BACKUP_POLICIES, backupPolicyTasks, {
  polls: "Get Backup Policy per dedicated cluster",
  config: BACKUPS_SECTION,
  label: BACKUPS,
  families: BACKUP_POLICY_FAMILIES,
});
