/**
 * Normalized results of what a project's console holds beside its clusters (List On-Demand
 * Clusters, List Alert Rules), re-exported by types.ts. Like every shape there, they know
 * nothing of the wire's variants or of Prometheus, and they keep nothing a person could be
 * reached by: no creator's address, no rule action (webhook URL, recipient, routing key).
 */
import type { PageInfo } from "./pageTypes.js";

/**
 * One on-demand cluster of List On-Demand Clusters (v2). Strings are the raw upstream values
 * (`status`: CREATING, SUSPENDED, RESUMING, RUNNING, SUSPENDING); a field the answer left out
 * or sent unreadable is null. `autoSuspendSeconds` is the idle time before the cluster suspends.
 */
export interface OnDemandCluster {
  readonly clusterId: string;
  readonly clusterName: string | null;
  readonly projectId: string | null;
  readonly regionId: string | null;
  readonly status: string | null;
  readonly cuSize: number | null;
  readonly autoSuspendSeconds: number | null;
}

/**
 * One alert rule of List Alert Rules (v2), as the console defines it. `level` (CRITICAL,
 * WARNING) and `comparison` (GREATER_THAN, ...) are the raw upstream values ("" when absent);
 * `threshold` is the number the answer sent as a string, `windowSeconds` its window (sent in
 * minutes), `targetClusterIds` the clusters it watches (null when the answer named none).
 * Numbers and flags are null when absent or unreadable, never a guess.
 */
export interface AlertRule {
  readonly ruleId: string;
  readonly projectId: string;
  readonly ruleName: string;
  readonly metricName: string;
  readonly level: string;
  readonly comparison: string;
  readonly threshold: number | null;
  readonly windowSeconds: number | null;
  readonly enabled: boolean | null;
  readonly targetClusterIds: readonly string[] | null;
}

/** One page of List Alert Rules. `total` is the documented `count`, null when absent. */
export interface AlertRulePage extends PageInfo {
  readonly rules: readonly AlertRule[];
}
