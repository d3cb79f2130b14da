/**
 * What the exporter knows of each cluster from the answers that describe it (Describe Cluster,
 * List Clusters): its plan, and its name, project and region.
 *
 * Free and serverless clusters cannot have backups (or any other dedicated-only feature), so
 * collectors of such features skip them. A cluster is known as not dedicated by its ID (in03-
 * clusters are free: the service's Terraform provider forces plan Free for them) or by the plan
 * an answer gave. An Enterprise cluster may be served by the service's own Prometheus endpoint
 * (nativeExport.ts), whose native targets label each with the cluster's names. A refusal for
 * the plan is remembered by the target's health instead (HealthTracker.planRefused), for an hour
 * or until the plan changes: `learnPlans` tells it when one does.
 */
import type { HealthTracker } from "./health.js";
import { stateSlot } from "./model.js";

const FREE_CLUSTER_PREFIX = "in03-";
const NOT_DEDICATED_PLANS: ReadonlySet<string> = new Set(["free", "serverless"]);

/** Whether the cluster's ID alone says it is free (in03-). */
export function isFreeById(clusterId: string): boolean {
  return clusterId.startsWith(FREE_CLUSTER_PREFIX);
}

/** What an answer said of a cluster (null: it did not say). */
export interface ClusterFacts {
  readonly clusterId: string;
  readonly plan: string | null;
  readonly clusterName?: string | null;
  readonly projectId?: string | null;
  readonly regionId?: string | null;
}

/** A cluster's names as the last answer that gave them said; null where none did. */
export interface ClusterNames {
  readonly clusterName: string | null;
  readonly projectId: string | null;
  readonly regionId: string | null;
}

/**
 * Per process (it survives reloads): the plan last seen of each cluster, by cluster ID, and its
 * names. Listeners hear of every change, so that what is derived from it (the answer of the native
 * targets, /sd/native-export) is made when it changes, never per request.
 */
class ClusterKinds {
  readonly #plans = new Map<string, string>();
  readonly #names = new Map<string, ClusterNames>();
  readonly #listeners = new Set<() => void>();

  /**
   * Records the plan an answer gave (null or empty: nothing learnt); true when it replaces another
   * plan seen before (an upgrade, a downgrade).
   */
  notePlan(clusterId: string, plan: string | null): boolean {
    if (plan === null || plan.trim() === "") return false;
    const now = plan.trim().toLowerCase();
    const before = this.#plans.get(clusterId);
    this.#plans.set(clusterId, now);
    if (before !== now) this.#changed();
    return before !== undefined && before !== now;
  }

  /**
   * Records what an answer said of a cluster: its plan (as `notePlan`, whose result it returns)
   * and the names it gave (a name it did not give keeps the one known).
   */
  note(facts: ClusterFacts): boolean {
    const known = this.#names.get(facts.clusterId);
    const names: ClusterNames = {
      clusterName: facts.clusterName ?? known?.clusterName ?? null,
      projectId: facts.projectId ?? known?.projectId ?? null,
      regionId: facts.regionId ?? known?.regionId ?? null,
    };
    if (
      known?.clusterName !== names.clusterName ||
      known.projectId !== names.projectId ||
      known.regionId !== names.regionId
    ) {
      this.#names.set(facts.clusterId, names);
      this.#changed();
    }
    return this.notePlan(facts.clusterId, facts.plan);
  }

  /** The plan last seen, lower case ("enterprise"); undefined while none is known. */
  planOf(clusterId: string): string | undefined {
    return this.#plans.get(clusterId);
  }

  /** The names last seen; undefined while no answer described the cluster. */
  namesOf(clusterId: string): ClusterNames | undefined {
    return this.#names.get(clusterId);
  }

  /** Whether the cluster is known to be free or serverless. Unknown clusters are not. */
  notDedicated(clusterId: string): boolean {
    if (isFreeById(clusterId)) return true;
    const plan = this.#plans.get(clusterId);
    return plan !== undefined && NOT_DEDICATED_PLANS.has(plan);
  }

  /** Forgets every cluster not in `clusterIds` (a cluster that left the inventory). */
  retain(clusterIds: ReadonlySet<string>): void {
    let removed = false;
    for (const id of this.#plans.keys()) if (!clusterIds.has(id)) removed = this.#plans.delete(id) || removed;
    for (const id of this.#names.keys()) if (!clusterIds.has(id)) removed = this.#names.delete(id) || removed;
    if (removed) this.#changed();
  }

  /** Calls `listener` after each change of a plan or a name; returns how to stop. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Clusters with a known plan (for tests and bounds). */
  get size(): number {
    return this.#plans.size;
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** The exporter's one ClusterKinds (inventory and cluster discovery feed it; backups and native export read it). */
export const CLUSTER_KINDS = stateSlot("cluster kinds", () => new ClusterKinds());

/** The state CLUSTER_KINDS holds. */
export type KnownClusters = ReturnType<(typeof CLUSTER_KINDS)["create"]>;

/**
 * Records the plans and names of `clusters` as an answer gave them; a cluster whose plan changed
 * is asked again at once by every collector that the service refused for its old plan.
 */
export function learnPlans(
  kinds: KnownClusters,
  health: Pick<HealthTracker, "planChanged">,
  clusters: Iterable<ClusterFacts>,
): void {
  for (const c of clusters) if (kinds.note(c)) health.planChanged(c.clusterId);
}
