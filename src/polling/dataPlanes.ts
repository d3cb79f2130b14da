/**
 * Which data plane a cluster's calls go to: its configured endpoint, else Describe Cluster's
 * connectAddress where the key may go. Every collector that calls a cluster's data plane finds
 * it here, so they all use the same client of it (its one rate budget).
 */
import type { ClusterConfig } from "../config/types.js";
import { ExporterError } from "../shared/errors.js";
import type { DataPlaneApi } from "../upstream/dataPlane.js";
import { checkedDataPlaneAddress } from "../upstream/dataPlaneHosts.js";
import type { CloudApi } from "../upstream/types.js";

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
