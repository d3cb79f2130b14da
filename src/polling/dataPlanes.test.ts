import { describe, expect, it } from "vitest";
import type { ClusterConfig } from "../config/types.js";
import type { DataPlaneApi } from "../upstream/dataPlane.js";
import type { ClusterDescription } from "../upstream/types.js";
import { ADDRESS_KEPT_MS, ConnectAddresses, dataPlaneOf } from "./dataPlanes.js";

const CLUSTER = { id: "in01-a" } as ClusterConfig;
const ADDRESS = "https://in01-a.api.gcp-us-west1.zillizcloud.com";

/** A control plane whose Describe Cluster answers `address`, counting its calls. */
function control(address: string | null) {
  const asked: string[] = [];
  return {
    asked,
    describeCluster: async (id: string) => {
      asked.push(id);
      return { connectAddress: address } as ClusterDescription;
    },
  };
}

/** The endpoint each data-plane client is made for. */
function planes() {
  const made: string[] = [];
  const dataPlane = (endpoint: string): DataPlaneApi => {
    made.push(endpoint);
    return {} as DataPlaneApi;
  };
  return { made, dataPlane };
}

const signal = new AbortController().signal;

describe("dataPlaneOf", () => {
  it.each<{ name: string; noted?: { address: string | null; ageMs: number }; asks: number }>([
    { name: "nothing noted: asks Describe Cluster and notes its answer", asks: 1 },
    { name: "noted a minute ago: no call", noted: { address: ADDRESS, ageMs: 60_000 }, asks: 0 },
    {
      name: "noted just under the hour: no call",
      noted: { address: ADDRESS, ageMs: ADDRESS_KEPT_MS - 1 },
      asks: 0,
    },
    { name: "noted an hour ago: asks again", noted: { address: ADDRESS, ageMs: ADDRESS_KEPT_MS }, asks: 1 },
  ])("$name", async ({ noted, asks }) => {
    const nowMs = 10 * ADDRESS_KEPT_MS;
    const addresses = new ConnectAddresses();
    if (noted) addresses.note(CLUSTER.id, noted.address, nowMs - noted.ageMs);
    const cp = control(ADDRESS);
    const dp = planes();
    await dataPlaneOf(CLUSTER, cp, dp.dataPlane, signal, [], { addresses, nowMs });
    expect(cp.asked).toHaveLength(asks);
    expect(dp.made).toEqual([ADDRESS]);
    // What was asked is noted: another poll at the same time asks nothing.
    await dataPlaneOf(CLUSTER, cp, dp.dataPlane, signal, [], { addresses, nowMs });
    expect(cp.asked).toHaveLength(asks);
  });

  it("a configured endpoint is used as given, without a call", async () => {
    const cp = control(ADDRESS);
    const dp = planes();
    await dataPlaneOf(
      { ...CLUSTER, dataPlaneEndpoint: "https://mine.example" },
      cp,
      dp.dataPlane,
      signal,
      [],
    );
    expect(cp.asked).toEqual([]);
    expect(dp.made).toEqual(["https://mine.example"]);
  });

  it("a cluster without an address fails its poll, noted or asked", async () => {
    const addresses = new ConnectAddresses();
    const cp = control(null);
    const dp = planes();
    const known = { addresses, nowMs: 1 };
    await expect(dataPlaneOf(CLUSTER, cp, dp.dataPlane, signal, [], known)).rejects.toMatchObject({
      code: "no_endpoint",
    });
    await expect(dataPlaneOf(CLUSTER, cp, dp.dataPlane, signal, [], known)).rejects.toMatchObject({
      code: "no_endpoint",
    });
    expect(cp.asked).toHaveLength(1);
    expect(dp.made).toEqual([]);
  });

  it("without a memory, asks every time", async () => {
    const cp = control(ADDRESS);
    const dp = planes();
    await dataPlaneOf(CLUSTER, cp, dp.dataPlane, signal, []);
    await dataPlaneOf(CLUSTER, cp, dp.dataPlane, signal, []);
    expect(cp.asked).toHaveLength(2);
  });
});
