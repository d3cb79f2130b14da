/**
 * What the exporter knows of each cluster's kind: free and serverless clusters cannot have
 * backups (or any other dedicated-only feature), so collectors of such features skip them. A
 * cluster is known as not dedicated by its ID (in03- clusters are free: the service's Terraform
 * provider forces plan Free for them) or by the plan a Describe Cluster or a List Clusters answer
 * gave. A refusal for the plan is remembered by the target's health instead (HealthTracker
 * .planRefused), for an hour or until the plan changes: `learnPlans` tells it when one does.
 */
import type { HealthTracker } from "./health.js";
import { stateSlot } from "./model.js";

const FREE_CLUSTER_PREFIX = "in03-";
const NOT_DEDICATED_PLANS: ReadonlySet<string> = new Set(["free", "serverless"]);

/** Whether the cluster's ID alone says it is free (in03-). */
export function isFreeById(clusterId: string): boolean {
  return clusterId.startsWith(FREE_CLUSTER_PREFIX);
}

/** Per process (it survives reloads): the plan last seen of each cluster, by cluster ID. */
class ClusterKinds {
  readonly #plans = new Map<string, string>();

  /**
   * Records the plan an answer gave (null or empty: nothing learnt); true when it replaces another
   * plan seen before (an upgrade, a downgrade).
   */
  notePlan(clusterId: string, plan: string | null): boolean {
    if (plan === null || plan.trim() === "") return false;
    const now = plan.trim().toLowerCase();
    const before = this.#plans.get(clusterId);
    this.#plans.set(clusterId, now);
    return before !== undefined && before !== now;
  }

  /** Whether the cluster is known to be free or serverless. Unknown clusters are not. */
  notDedicated(clusterId: string): boolean {
    if (isFreeById(clusterId)) return true;
    const plan = this.#plans.get(clusterId);
    return plan !== undefined && NOT_DEDICATED_PLANS.has(plan);
  }

  /** Forgets every cluster not in `clusterIds` (a cluster that left the inventory). */
  retain(clusterIds: ReadonlySet<string>): void {
    for (const id of this.#plans.keys()) if (!clusterIds.has(id)) this.#plans.delete(id);
  }

  /** Clusters with a known plan (for tests and bounds). */
  get size(): number {
    return this.#plans.size;
  }
}

/** The exporter's one ClusterKinds (inventory and discovery feed it; backups read it). */
export const CLUSTER_KINDS = stateSlot("cluster kinds", () => new ClusterKinds());

/**
 * Records the plans of `clusters` as an answer gave them; a cluster whose plan changed is asked
 * again at once by every collector that the service refused for its old plan.
 */
export function learnPlans(
  kinds: ClusterKinds,
  health: Pick<HealthTracker, "planChanged">,
  clusters: Iterable<{ readonly clusterId: string; readonly plan: string | null }>,
): void {
  for (const c of clusters) if (kinds.notePlan(c.clusterId, c.plan)) health.planChanged(c.clusterId);
}
