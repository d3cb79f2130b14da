/**
 * The collections the collector keeps per cluster become the cluster metrics' per-collection
 * scopes (`collections.scopes`): this module remembers them across polls and hands them to the
 * framework as found scopes. A change of the kept set rebuilds the tasks at once (a vanished
 * collection's scope, and with it every series, goes); collections beyond max_per_cluster are
 * logged once per change of their number.
 */
import type { ScopeConfig } from "../../config/types.js";
import { type CollectorEnv, type ScopeSource, stateSlot } from "../../polling/model.js";
import { ChangeLog } from "../../shared/changeLog.js";
import type { CollectionRef } from "../../upstream/dataPlane.js";

/** A cluster's collections as one poll kept them. */
interface Kept {
  /** The collections polled (after include/exclude and max_per_cluster), each a scope. */
  readonly polled: readonly CollectionRef[];
  /** Listed collections beyond max_per_cluster. */
  readonly notPolled: number;
}

/** What the collector remembers across polls and reloads. */
class KeptCollections {
  readonly byCluster = new Map<string, Kept>();
  /** Per cluster, the number of its collections beyond max_per_cluster last logged. */
  readonly notPolledLog = new ChangeLog<number>({ quiet: 0 });

  /** Forgets the clusters `keep` says no to. */
  retain(keep: ReadonlySet<string>): void {
    for (const id of this.byCluster.keys()) if (!keep.has(id)) this.byCluster.delete(id);
    this.notPolledLog.retain((id) => keep.has(id));
  }
}

export const KEPT_COLLECTIONS = stateSlot("collections kept", () => new KeptCollections());

const paths = (kept: Kept | undefined): string =>
  (kept?.polled ?? []).map((c) => `${c.dbName}/${c.collectionName}`).join("\n");

/** Records one poll's kept collections, logs what is news, and asks for new tasks when the scopes moved. */
export function recordKept(env: CollectorEnv, clusterId: string, kept: Kept): void {
  const memory = env.state.get(KEPT_COLLECTIONS);
  const before = memory.byCluster.get(clusterId);
  memory.byCluster.set(clusterId, kept);
  if (memory.notPolledLog.changed(clusterId, kept.notPolled) && kept.notPolled > 0) {
    env.ctx.logger?.warn(
      {
        cluster_id: clusterId,
        not_polled: kept.notPolled,
        max_per_cluster: env.config.collections.maxPerCluster,
      },
      "collections beyond collections.max_per_cluster are not polled (sorted by name, the first are kept)",
    );
  }
  if (env.config.collections.scopes && paths(before) !== paths(kept)) {
    env.ctx.logger?.info({ cluster_id: clusterId, collections: kept.polled.length }, "collections changed");
    env.onScopesChanged();
  }
}

/** Collections as scopes with `collections.queries` (absent: the scope defaults). */
export function collectionScopes(
  refs: readonly CollectionRef[],
  queries: ScopeConfig["queries"] | undefined,
): ScopeConfig[] {
  return refs.map((c) => ({
    dbName: c.dbName,
    collectionName: c.collectionName,
    ...(queries === undefined ? {} : { queries }),
  }));
}

/** The scopes the collector found, and the stand-ins `--check-config` counts: max_per_cluster a cluster. */
export const COLLECTION_SCOPES: ScopeSource = {
  found: (config, state) => {
    const cfg = config.collections;
    if (!cfg.enabled || !cfg.scopes) return new Map();
    const found = new Map<string, ScopeConfig[]>();
    for (const [id, kept] of state.get(KEPT_COLLECTIONS).byCluster)
      found.set(id, collectionScopes(kept.polled, cfg.queries));
    return found;
  },
  planned: (config) => {
    const cfg = config.collections;
    if (!cfg.enabled || !cfg.scopes) return [];
    const standIns = Array.from({ length: cfg.maxPerCluster }, (_, i) => ({
      dbName: "discovered",
      collectionName: `collection-${i + 1}`,
    }));
    return collectionScopes(standIns, cfg.queries);
  },
};
