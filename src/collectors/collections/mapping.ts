/** Pure mapping of a cluster's data-plane listing and per-collection answers to samples. */

import { MappingBuilder } from "../../metrics/builder.js";
import { CLUSTER_FAMILIES } from "../../metrics/families.js";
import type { MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import type { CollectionRef, LoadState } from "../../upstream/dataPlane.js";
import { COLLECTION_FAMILIES as F } from "./families.js";
import { collectionPath } from "./select.js";

/** Documented load states (Get Load State), as state-set values. */
export const LOAD_STATES: readonly string[] = ["loaded", "loading", "not_loaded", "not_exist"];

const UPSTREAM_STATES: ReadonlyMap<string, string> = new Map([
  ["loadstateloaded", "loaded"],
  ["loadstateloading", "loading"],
  ["loadstatenotload", "not_loaded"],
  ["loadstatenotloaded", "not_loaded"],
  ["loadstatenotexist", "not_exist"],
]);

/**
 * The state-set value of an upstream load state: a documented one by its name, any other
 * lowercased without the "LoadState" prefix (LoadStateReleasing -> releasing); "" for none.
 */
export function loadStateValue(upstream: string): string {
  const lower = upstream.trim().toLowerCase();
  return UPSTREAM_STATES.get(lower) ?? lower.replace(/^loadstate_?/, "");
}

/** What one poll of a cluster learned. */
interface CollectionsSnapshot {
  readonly clusterId: string;
  /** Collections per database, before include/exclude. */
  readonly countsByDb: ReadonlyMap<string, number>;
  /** Passing include/exclude. */
  readonly listed: readonly CollectionRef[];
  readonly notPolled: number;
  /** By "<db>/<collection>", for the polled collections asked. */
  readonly loadStates: ReadonlyMap<string, LoadState>;
  readonly rows: ReadonlyMap<string, number | null>;
}

/**
 * vdbcloud_collections{cluster_id,db_name}, vdbcloud_collection_info per listed collection,
 * the load state set with the progress ratio while loading, rows when known, and
 * vdbcloud_collections_not_polled{cluster_id}.
 */
export function mapCollections(s: CollectionsSnapshot): MappingResult {
  const out = new MappingBuilder();
  const cluster = { cluster_id: s.clusterId };
  for (const [db, count] of s.countsByDb) {
    out.add(CLUSTER_FAMILIES.collections, { ...cluster, db_name: db }, count);
  }
  for (const c of s.listed) {
    const labels = { ...cluster, db_name: c.dbName, collection_name: c.collectionName };
    out.add(F.collectionInfo, labels, 1);
    const path = collectionPath(c);
    const load = s.loadStates.get(path);
    if (load !== undefined) {
      const state = loadStateValue(load.state);
      if (state !== "")
        out.addSamples(F.loadState, stateSet(F.loadState, labels, "state", LOAD_STATES, state));
      if (state === "loading" && load.progress !== null && Number.isFinite(load.progress)) {
        out.add(F.loadProgress, labels, Math.min(1, Math.max(0, load.progress / 100)));
      }
    }
    const rows = s.rows.get(path);
    if (rows !== undefined && rows !== null && Number.isFinite(rows)) out.add(F.rows, labels, rows);
  }
  out.add(F.notPolled, cluster, s.notPolled);
  return out.result();
}
