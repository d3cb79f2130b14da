/**
 * Listing a cluster's collections through its data plane: the live collector and the history
 * backfill list them the same way, so both see the same collections.
 */
import type { ClusterConfig } from "../../config/types.js";
import { ExporterError } from "../../shared/errors.js";
import type { CollectionRef, DataPlaneApi } from "../../upstream/dataPlane.js";
import { checkedDataPlaneAddress } from "../../upstream/dataPlaneHosts.js";
import type { CloudApi } from "../../upstream/types.js";

/** A cluster without a data-plane endpoint: none configured, and Describe Cluster gives none. */
class NoDataPlaneEndpointError extends ExporterError {
  override readonly name = "NoDataPlaneEndpointError";
  readonly code = "no_endpoint";
  constructor(clusterId: string) {
    super(`cluster ${clusterId}: no data-plane endpoint (set clusters[].data_plane.endpoint)`);
  }
}

/**
 * The data plane of `cluster`: its configured endpoint as given, else Describe Cluster's
 * connectAddress when the key may go there (https on the service's domains, or a host of
 * `allowedHosts`: upstream/dataPlaneHosts.ts); rejects with ForeignDataPlaneError before any
 * client for it exists otherwise, which fails only this cluster's poll.
 */
export async function dataPlaneOf(
  cluster: ClusterConfig,
  control: Pick<CloudApi, "describeCluster">,
  dataPlane: (endpoint: string, cluster: ClusterConfig) => DataPlaneApi,
  signal: AbortSignal,
  allowedHosts: readonly string[],
): Promise<DataPlaneApi> {
  if (cluster.dataPlaneEndpoint !== undefined) return dataPlane(cluster.dataPlaneEndpoint, cluster);
  const address = (await control.describeCluster(cluster.id, signal)).connectAddress;
  if (address === null || address.trim() === "") throw new NoDataPlaneEndpointError(cluster.id);
  return dataPlane(checkedDataPlaneAddress(cluster.id, address, allowedHosts), cluster);
}

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
