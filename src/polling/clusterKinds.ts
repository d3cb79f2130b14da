/**
 * What the exporter knows of each cluster's kind: free and serverless clusters cannot have
 * backups (or any other dedicated-only feature), so collectors of such features ask about them
 * at most once. A cluster is known as not dedicated by its ID (in03- clusters are free: the
 * service's Terraform provider forces plan Free for them), by the plan a Describe Cluster or a
 * List Clusters answer gave, or by an upstream refusal that said so.
 */
import { stateSlot } from "./model.js";

const FREE_CLUSTER_PREFIX = "in03-";
const NOT_DEDICATED_PLANS: ReadonlySet<string> = new Set(["free", "serverless"]);

/** Per process (it survives reloads): plans seen and refusals heard, by cluster ID. */
class ClusterKinds {
  readonly #plans = new Map<string, string>();
  readonly #refused = new Set<string>();

  /** Records the plan an answer gave (null or empty: nothing learnt). */
  notePlan(clusterId: string, plan: string | null): void {
    if (plan !== null && plan.trim() !== "") this.#plans.set(clusterId, plan.trim().toLowerCase());
  }

  /** Records that the upstream refused a dedicated-only call for the cluster. */
  noteRefused(clusterId: string): void {
    this.#refused.add(clusterId);
  }

  /** Whether the cluster is known to be free or serverless. Unknown clusters are not. */
  notDedicated(clusterId: string): boolean {
    if (clusterId.startsWith(FREE_CLUSTER_PREFIX) || this.#refused.has(clusterId)) return true;
    const plan = this.#plans.get(clusterId);
    return plan !== undefined && NOT_DEDICATED_PLANS.has(plan);
  }
}

/** The exporter's one ClusterKinds (inventory and discovery feed it; backups read it). */
export const CLUSTER_KINDS = stateSlot("cluster kinds", () => new ClusterKinds());
