import { describe, expect, it } from "vitest";
import { REFERENCE_ON_DEMAND_CLUSTERS } from "../consoleTestkit.js";
import { failure, TEST_AUTH_HEADERS, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import type { OnDemandCluster } from "../types.js";
import { normalizeOnDemandClusters, onDemandClustersDataSchema } from "./onDemandClusters.js";

const upstream = useMockUpstream();
const ARGS = { projectId: "proj-asked", regionId: "aws-us-west-2" };

const read = (data: unknown) => normalizeOnDemandClusters(onDemandClustersDataSchema.parse(data), ARGS);

describe("List On-Demand Clusters over HTTP", () => {
  it("GETs /v2/clusters/onDemandClusters with both parameters and reads the reference's sample", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "GET",
        path: "/v2/clusters/onDemandClusters",
        query: { projectId: "proj-xxxxxxxxxxxxxxx", regionId: "aws-us-west-2" },
        headers: TEST_AUTH_HEADERS,
      })
      .reply(200, { code: 0, data: REFERENCE_ON_DEMAND_CLUSTERS });
    const { client } = testClient();
    const clusters = await client.listOnDemandClusters({
      projectId: "proj-xxxxxxxxxxxxxxx",
      regionId: "aws-us-west-2",
    });
    const common = {
      clusterId: "inxx-xxxxxxxxxxxxxxx",
      projectId: "proj-xxxxxxxxxxxxxxx",
      regionId: "aws-us-west-2",
      status: "RUNNING",
      cuSize: 8,
      autoSuspendSeconds: 60,
    };
    expect(clusters).toStrictEqual([
      { ...common, clusterName: "Cluster-01" },
      { ...common, clusterName: "Cluster-02" },
    ]);
    // The creator's address, the endpoint and the description stop at the client.
    expect(JSON.stringify(clusters)).not.toMatch(/@|john\.doe|api\.zillizcloud|vector search workloads/);
    upstream.assertNoPendingInterceptors();
  });

  it("a key that is not project admin is refused with HTTP 403", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "GET", path: (p) => p.startsWith("/v2/clusters/onDemandClusters?") })
      .reply(403, { code: 96027, message: "Please check your Apikey scope" });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(client.listOnDemandClusters(ARGS));
    expect(err.httpStatus).toBe(403);
    expect(err.endpoint).toBe("GET /v2/clusters/onDemandClusters");
  });
});

describe("normalizeOnDemandClusters", () => {
  const one = (fields: Record<string, unknown>): OnDemandCluster | undefined =>
    read({ count: 1, onDemandClusters: [{ clusterId: "in05-a", ...fields }] })[0];

  it.each<{ name: string; fields: Record<string, unknown>; want: Partial<OnDemandCluster> }>([
    { name: "autoSuspend in seconds", fields: { autoSuspend: 300 }, want: { autoSuspendSeconds: 300 } },
    { name: 'autoSuspend "600"', fields: { autoSuspend: "600" }, want: { autoSuspendSeconds: 600 } },
    // The console's update example sends a duration with units.
    { name: 'autoSuspend "5m"', fields: { autoSuspend: "5m" }, want: { autoSuspendSeconds: 300 } },
    { name: "autoSuspend unreadable", fields: { autoSuspend: "never" }, want: { autoSuspendSeconds: null } },
    { name: "autoSuspend absent", fields: {}, want: { autoSuspendSeconds: null } },
    { name: 'cuSize "4"', fields: { cuSize: "4" }, want: { cuSize: 4 } },
    { name: "cuSize absent", fields: {}, want: { cuSize: null } },
    // createTime is ISO in the samples, a number for the Terraform provider: neither fails the answer.
    { name: "createTime ISO", fields: { createTime: "2024-04-21T10:15:15Z" }, want: { clusterId: "in05-a" } },
    { name: "createTime a number", fields: { createTime: 1713694515000 }, want: { clusterId: "in05-a" } },
    { name: "no project or region: the asked ones", fields: {}, want: ARGS },
    { name: "status as sent", fields: { status: "SUSPENDED" }, want: { status: "SUSPENDED" } },
  ])("reads $name", ({ fields, want }) => {
    expect(one(fields)).toMatchObject(want);
  });

  it("reads the list itself as data, and an absent list as none", () => {
    expect(read([{ clusterId: "in05-b", status: "RUNNING" }]).map((c) => c.clusterId)).toEqual(["in05-b"]);
    expect(read({ count: 0 })).toEqual([]);
    expect(read({ count: 0, onDemandClusters: null })).toEqual([]);
  });

  it("refuses a cluster without an ID", () => {
    expect(onDemandClustersDataSchema.safeParse({ onDemandClusters: [{ status: "RUNNING" }] }).success).toBe(
      false,
    );
  });
});
