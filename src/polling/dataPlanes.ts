/**
 * Which data plane a cluster's calls go to: its configured endpoint, else Describe Cluster's
 * connectAddress where the key may go. Every collector that calls a cluster's data plane finds
 * it here, so they all use the same client of it (its one rate budget).
 */
import type { ClusterConfig } from "../config/types.js";
import { HOUR } from "../shared/duration.js";
import { ExporterError } from "../shared/errors.js";
import type { DataPlaneApi } from "../upstream/dataPlane.js";
import { checkedDataPlaneAddress } from "../upstream/dataPlaneHosts.js";
import type { CloudApi } from "../upstream/types.js";
import { stateSlot } from "./model.js";

/** A cluster without a data-plane endpoint: none configured, and Describe Cluster gives none. */
class NoDataPlaneEndpointError extends ExporterError {
  override readonly name = "NoDataPlaneEndpointError";
  readonly code = "no_endpoint";
  constructor(clusterId: string) {
    super(`cluster ${clusterId}: no data-plane endpoint (set clusters[].data_plane.endpoint)`);
  }
}

/**
 * How long a cluster's connectAddress, as Describe Cluster last gave it, is used without asking
 * again: a cluster keeps its address, and a data-plane collector polled every few seconds (the
 * canary) would otherwise spend a control-plane call per poll on it, and fail its poll whenever
 * the control plane does, which is what the canary is there to tell apart.
 */
export const ADDRESS_KEPT_MS = HOUR;

/**
 * The connectAddress Describe Cluster gave each cluster, and when: whichever collector asked
 * last (inventory's Describe Cluster notes it too), so that the data-plane collectors rarely ask.
 */
export class ConnectAddresses {
  readonly #known = new Map<string, { readonly address: string | null; readonly atMs: number }>();

  note(clusterId: string, address: string | null, atMs: number): void {
    this.#known.set(clusterId, { address, atMs });
  }

  /** The address noted within ADDRESS_KEPT_MS of `nowMs` (null: none given), else undefined. */
  fresh(clusterId: string, nowMs: number): string | null | undefined {
    const known = this.#known.get(clusterId);
    return known !== undefined && nowMs - known.atMs < ADDRESS_KEPT_MS ? known.address : undefined;
  }
}

/** The connect addresses every collector of the exporter shares. */
export const CONNECT_ADDRESSES = stateSlot("connect addresses", () => new ConnectAddresses());

/**
 * The data plane of `cluster`: its configured endpoint as given, else Describe Cluster's
 * connectAddress when the key may go there (https on the service's domains, or a host of
 * `allowedHosts`: upstream/dataPlaneHosts.ts); rejects with ForeignDataPlaneError before any
 * client for it exists otherwise, which fails only this cluster's poll. With `known`, an address
 * noted within ADDRESS_KEPT_MS is used without a call, and one asked for is noted.
 */
export async function dataPlaneOf(
  cluster: ClusterConfig,
  control: Pick<CloudApi, "describeCluster">,
  dataPlane: (endpoint: string, cluster: ClusterConfig) => DataPlaneApi,
  signal: AbortSignal,
  allowedHosts: readonly string[],
  known?: { readonly addresses: ConnectAddresses; readonly nowMs: number },
): Promise<DataPlaneApi> {
  if (cluster.dataPlaneEndpoint !== undefined) return dataPlane(cluster.dataPlaneEndpoint, cluster);
  let address = known?.addresses.fresh(cluster.id, known.nowMs);
  if (address === undefined) {
    address = (await control.describeCluster(cluster.id, signal)).connectAddress;
    known?.addresses.note(cluster.id, address, known.nowMs);
  }
  if (address === null || address.trim() === "") throw new NoDataPlaneEndpointError(cluster.id);
  return dataPlane(checkedDataPlaneAddress(cluster.id, address, allowedHosts), cluster);
}
