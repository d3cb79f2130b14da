/**
 * The backup collectors. `backups`: List Backups, every page, per credential (the clusters that
 * share a key share one listing; target "organization"), with series for the polled dedicated
 * clusters only. `backup_policies`: Get Backup Policy per polled dedicated cluster (target: the
 * cluster), at `policy_interval`. Both report under the `backups` collector label.
 *
 * Free and serverless clusters cannot have backups: they are skipped when their ID (in03-) or a
 * plan seen by inventory or discovery says so, and a cluster the service refuses as not
 * dedicated is remembered and never asked again (no failure, no log line). A credential without
 * backup permission makes its targets "not permitted" (up, with
 * vdbcloud_collector_not_permitted 1) and one log line per collector and credential.
 */
import type { ClusterConfig } from "../../config/types.js";
import type { Sample } from "../../metrics/sample.js";
import { CLUSTER_KINDS } from "../../polling/clusterKinds.js";
import {
  type CollectorEnv,
  type CollectorTask,
  collectorTask,
  defineCollector,
} from "../../polling/model.js";
import { type PollContext, putData, runPoll } from "../../polling/runtime.js";
import type { RunOutcome } from "../../scheduler/scheduler.js";
import { nextTurn } from "../../shared/nextTurn.js";
import { isDedicatedOnlyRefusal, isPermissionRefusal } from "../../upstream/refusals.js";
import { ENDPOINT } from "../../upstream/types.js";
import { listBackupsOf } from "./listing.js";
import { BackupsByCluster, mapBackups, mapPolicy } from "./mapping.js";
import { PERMISSION_LOG } from "./permissions.js";

/**
 * Both collectors report as `backups` (the `collector` label), so a credential without backup
 * permission is one collector to the operator, with one log line.
 */
const BACKUPS = "backups";
const BACKUP_POLICIES = "backup_policies";

/** The store slot of each cluster's share of the listing (its policy is the "data" slot). */
const LISTING_SLOT = "backups";

/** Clusters mapped between two turns of the event loop, after a listing (~2 ms each at 30 backups a cluster). */
const MAP_CHUNK = 25;
/** Listed backups grouped by cluster between two turns of the event loop (~1-2 ms each). */
const GROUP_SLICE = 2_500;

/** The listing task's target: the organisation as the credential sees it. */
function listingTarget(credential: string): string {
  return credential === "default" ? "organization" : `organization (${credential})`;
}

/**
 * Runs one poll through runPoll (polling/runtime.ts), with one more ending: a permission refusal
 * marks the target not permitted (complete, not failed) and is logged once per credential.
 */
function runGuarded(
  env: CollectorEnv,
  collector: string,
  target: string,
  credential: string,
  /** Which call this is, for the permission log: "listing" or "policy". */
  call: string,
  /** Resolves true when the upstream answered a backup call (so the credential is permitted). */
  poll: () => Promise<boolean>,
): Promise<RunOutcome> {
  const ctx: PollContext = env.ctx;
  const log = env.state.get(PERMISSION_LOG);
  return runPoll(ctx, collector, target, async () => {
    try {
      if (await poll()) log.permitted(ctx.logger, collector, credential, call);
      return undefined;
    } catch (err) {
      if (!isPermissionRefusal(err)) throw err;
      log.refused(ctx.logger, collector, credential, call);
      // Nothing collected: the previous data ages out at its staleness bound.
      return { notPermitted: credential };
    }
  });
}

/** The polled clusters not known to be free or serverless (checked at each run: kinds are learnt). */
function dedicated(env: CollectorEnv, clusters: readonly ClusterConfig[]): ClusterConfig[] {
  const kinds = env.state.get(CLUSTER_KINDS);
  return clusters.filter((c) => !kinds.notDedicated(c.id));
}

/** One List Backups task per credential (target: the credential's label). */
function backupListTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.backups;
  if (!cfg.enabled) return [];
  const byCredential = new Map<string, ClusterConfig[]>();
  for (const c of dedicated(env, env.clusters)) {
    const label = env.clients.credentialOf(c);
    const list = byCredential.get(label);
    if (list === undefined) byCredential.set(label, [c]);
    else list.push(c);
  }
  const ttlMs = env.config.stalenessIntervals * cfg.intervalMs;
  const kinds = env.state.get(CLUSTER_KINDS);
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
        runGuarded(env, BACKUPS, target, credential, "listing", async () => {
          const ids = dedicated(env, clusters).map((c) => c.id);
          const { backups } = await listBackupsOf(
            client,
            ids,
            async (id, list) => {
              try {
                return await list();
              } catch (err) {
                if (!isDedicatedOnlyRefusal(err)) throw err;
                kinds.noteRefused(id);
                return [];
              }
            },
            signal,
          );
          // Stored per cluster: a cluster removed from the config loses its series at the
          // next re-plan (with its policy target), not only after the staleness bound.
          const polled = dedicated(env, clusters).map((c) => c.id);
          const kept = new Set(polled);
          for (const c of clusters) {
            if (!kept.has(c.id))
              env.ctx.store.delete({ collector: BACKUPS, target: c.id, slot: LISTING_SLOT });
          }
          // A slice at a time, the event loop served between slices: one listing maps every
          // polled cluster (23,000 backups of 780 clusters: grouping them took 10-14 ms, mapping
          // 100 clusters' 7-11 ms, and at once the loop was held 55-90 ms).
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
          return true;
        }),
    });
  });
}

/** One Get Backup Policy task per polled cluster not known to be free or serverless. */
function backupPolicyTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.backups;
  if (!cfg.enabled) return [];
  const kinds = env.state.get(CLUSTER_KINDS);
  const ttlMs = env.config.stalenessIntervals * cfg.policyIntervalMs;
  return dedicated(env, env.clusters).map((cluster) => {
    const client = env.clients.forCluster(cluster);
    const credential = env.clients.credentialOf(cluster);
    return collectorTask({
      id: { collector: BACKUPS, target: cluster.id },
      credential,
      calls: [{ endpoint: ENDPOINT.getBackupPolicy, count: 1, atLeast: false }],
      intervalMs: cfg.policyIntervalMs,
      run: (signal) =>
        runGuarded(env, BACKUPS, cluster.id, credential, "policy", async () => {
          // Learnt since the plan was made (a refusal, a plan seen by inventory): never asked again.
          if (kinds.notDedicated(cluster.id)) {
            env.ctx.store.delete({ collector: BACKUPS, target: cluster.id, slot: "data" });
            return false;
          }
          try {
            putData(
              env.ctx,
              BACKUPS,
              cluster.id,
              mapPolicy(cluster.id, await client.getBackupPolicy(cluster.id, signal)),
              ttlMs,
            );
            return true;
          } catch (err) {
            if (!isDedicatedOnlyRefusal(err)) throw err;
            // Said once, remembered: the cluster is not asked again (no failure, no log line).
            kinds.noteRefused(cluster.id);
            return false;
          }
        }),
    });
  });
}

/** List Backups per credential: backup counts, sizes, newest success, oldest still creating. */
export const backupsCollector = defineCollector(BACKUPS, backupListTasks);

/** Get Backup Policy per dedicated cluster: enabled, retention, copies, the longest gap. */
export const backupPoliciesCollector = defineCollector(BACKUP_POLICIES, backupPolicyTasks, BACKUPS);
