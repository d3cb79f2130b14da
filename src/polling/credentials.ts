/**
 * Names for credentials that never reveal them: the `api` key is "default", each other key a
 * cluster uses is "cluster key #N" in order of first use, and the billing key is "billing" (its
 * client is its own even when it is the default key). Clusters sharing a key share a label,
 * and a rate budget.
 */
import type { ClusterConfig } from "../config/types.js";

/** The label of the billing key's credential, whichever key it is (its own, or the default). */
export const BILLING_CREDENTIAL = "billing";

/** Returns the labeller for `clusters` (in order) and the default key. */
export function credentialLabeler(
  defaultKey: string,
  clusters: readonly Pick<ClusterConfig, "apiKey">[],
): (cluster: Pick<ClusterConfig, "apiKey">) => string {
  const byKey = new Map<string, string>([[defaultKey, "default"]]);
  for (const cluster of clusters) {
    if (cluster.apiKey !== undefined && !byKey.has(cluster.apiKey)) {
      byKey.set(cluster.apiKey, `cluster key #${byKey.size}`);
    }
  }
  return (cluster) => byKey.get(cluster.apiKey ?? defaultKey) ?? "default";
}
