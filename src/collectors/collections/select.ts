/**
 * Which listed collections a cluster's collections collector reports and works on: include and
 * exclude regexes on "<db>/<collection>", then a stable subset of at most `maxPerCluster`,
 * sorted by that name, so the same collections are polled every cycle and across replicas.
 */
import type { CollectionRef } from "../../upstream/dataPlane.js";

/** The filter of the `collections:` section. */
interface CollectionFilter {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly maxPerCluster: number;
}

/** The outcome: every collection passing the filters, split at the cap. */
interface Selection {
  /** Passing include/exclude, sorted by "<db>/<collection>". */
  readonly listed: readonly CollectionRef[];
  /** The first `maxPerCluster` of `listed`: these get load state, rows and metric scopes. */
  readonly polled: readonly CollectionRef[];
  /** How many of `listed` are beyond the cap. */
  readonly notPolled: number;
}

/** "<db>/<collection>": what include and exclude match, and the sort key. */
export function collectionPath(c: CollectionRef): string {
  return `${c.dbName}/${c.collectionName}`;
}

/** Applies the filter (empty include = every collection). Pure. */
export function selectCollections(all: readonly CollectionRef[], filter: CollectionFilter): Selection {
  const include = filter.include.map((r) => new RegExp(r));
  const exclude = filter.exclude.map((r) => new RegExp(r));
  const byPath = new Map<string, CollectionRef>();
  for (const c of all) {
    const path = collectionPath(c);
    if (include.length > 0 && !include.some((r) => r.test(path))) continue;
    if (exclude.some((r) => r.test(path))) continue;
    byPath.set(path, c);
  }
  const listed = [...byPath.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((path) => byPath.get(path) as CollectionRef);
  const polled = listed.slice(0, filter.maxPerCluster);
  return { listed, polled, notPolled: listed.length - polled.length };
}
