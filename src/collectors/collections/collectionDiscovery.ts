/**
 * Listing a cluster's collections through its data plane: the live collector and the history
 * backfill list them the same way, so both see the same collections.
 */
import type { CollectionRef, DataPlaneApi } from "../../upstream/dataPlane.js";

/** Every collection of every database (before include/exclude), and the count per database. */
export async function listAllCollections(
  dp: DataPlaneApi,
  signal: AbortSignal,
): Promise<{ readonly all: CollectionRef[]; readonly countsByDb: Map<string, number> }> {
  const countsByDb = new Map<string, number>();
  const all: CollectionRef[] = [];
  for (const dbName of await dp.listDatabases(signal)) {
    // Kept: the data plane's collection list is one unpaged answer (no pager), and a name it
    // repeats would count twice in countsByDb and scope the collection twice.
    const names = [...new Set(await dp.listCollections(dbName, signal))];
    countsByDb.set(dbName, names.length);
    for (const collectionName of names) all.push({ dbName, collectionName });
  }
  return { all, countsByDb };
}
