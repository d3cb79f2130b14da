/**
 * Names for credentials that never reveal them: the `api` key is "default", each other key a
 * cluster uses is "cluster key #N" in order of first use, and the key of a section with a key
 * of its own is that section's key in the file (its client is its own even when it is the
 * default key). Clusters sharing a key share a label, and a rate budget.
 */
import type { ConfigSection } from "../config/section.js";
import type { ClusterConfig } from "../config/types.js";

/**
 * The label of a section's own key, whichever key it is (its own, or the default): the
 * section's key in the file, which no cluster label ("default", "cluster key #N") can be.
 */
export function ownKeyCredential(section: ConfigSection): string {
  return section.key;
}

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
