import { describe, expect, it } from "vitest";
import { pageOf } from "../listingTestkit.js";
import {
  blankCluster,
  readOneGet,
  TEST_AUTH_HEADERS,
  TEST_BASE_URL,
  testClient,
  useMockUpstream,
} from "../testkit.js";
import { clusterListDataSchema, clusterSchema, normalizeCluster, normalizeClusterList } from "./clusters.js";

const cluster = {
  clusterId: "in01-abc",
  clusterName: "prod",
  projectId: "proj-0123",
  regionId: "aws-us-west-2",
  cuType: "Performance-optimized",
  plan: "Enterprise",
  status: "RUNNING",
  connectAddress: "https://in01-abc.example",
  cuSize: 2,
  createTime: "2024-01-01T00:00:00Z",
};
const normalized = blankCluster("in01-abc", {
  clusterName: "prod",
  projectId: "proj-0123",
  regionId: "aws-us-west-2",
  plan: "Enterprise",
  cuType: "Performance-optimized",
  cuSize: 2,
  status: "RUNNING",
  connectAddress: "https://in01-abc.example",
});

const upstream = useMockUpstream();

describe("Describe Cluster over HTTP", () => {
  it("GETs /v2/clusters/{id} with auth", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "GET",
        path: "/v2/clusters/in01-abc",
        headers: TEST_AUTH_HEADERS,
      })
      .reply(200, { code: 0, data: cluster });
    const { client } = testClient();
    await expect(client.describeCluster("in01-abc")).resolves.toStrictEqual(normalized);
    upstream.assertNoPendingInterceptors();
  });

  it("honours a path prefix in the base URL", async () => {
    upstream
      .get("http://127.0.0.1:4321")
      .intercept({ method: "GET", path: "/api/v2/clusters/in01-abc" })
      .reply(200, { code: 0, data: cluster });
    const { client } = testClient({ baseUrl: "http://127.0.0.1:4321/api/" });
    await client.describeCluster("in01-abc");
    upstream.assertNoPendingInterceptors();
  });
});

describe("List Clusters over HTTP", () => {
  it("sends the page and the filters it has, as strings", async () => {
    const page = await readOneGet(
      "/v2/clusters",
      { projectId: "proj-0123", pageSize: 100, currentPage: 2 },
      { count: 101, currentPage: 2, pageSize: 100, clusters: [cluster] },
      (client, args) => client.listClusters(args),
    );
    expect(page).toStrictEqual(
      pageOf({ total: 101, currentPage: 2, pageSize: 100 }, "clusters", [normalized]),
    );
  });
});

describe("cluster variants", () => {
  it.each<{ name: string; data: unknown; paging: Record<string, number | null>; ids: string[] }>([
    {
      // The documented array says nothing of paging: no total, so the pager reads to a short page.
      name: "documented array",
      data: [cluster, { ...cluster, clusterId: "in01-def" }],
      paging: { total: null, currentPage: null, pageSize: null, listed: 2 },
      ids: ["in01-abc", "in01-def"],
    },
    {
      name: "sampled page object",
      data: { count: "7", currentPage: "1", pageSize: "5", clusters: [cluster] },
      paging: { total: 7, currentPage: 1, pageSize: 5, listed: 1 },
      ids: ["in01-abc"],
    },
    {
      name: "page object without count",
      data: { currentPage: 2, pageSize: 5, clusters: [cluster] },
      paging: { total: null, currentPage: 2, pageSize: 5, listed: 1 },
      ids: ["in01-abc"],
    },
    {
      name: "empty page object",
      data: { count: 0, currentPage: 1, pageSize: 5 },
      paging: { total: 0, currentPage: 1, pageSize: 5, listed: 0 },
      ids: [],
    },
  ])("List Clusters accepts the $name", ({ data, paging, ids }) => {
    const { clusters, ...page } = normalizeClusterList(clusterListDataSchema.parse(data));
    expect(page).toStrictEqual(paging);
    expect(clusters.map((c) => c.clusterId)).toEqual(ids);
  });

  it.each([
    { cuSize: 4, expected: 4 },
    { cuSize: "8", expected: 8 },
    { cuSize: null, expected: null },
  ])("reads cuSize $cuSize as $expected", ({ cuSize, expected }) => {
    expect(normalizeCluster(clusterSchema.parse({ ...cluster, cuSize })).cuSize).toBe(expected);
  });

  it("fills missing fields with null", () => {
    expect(normalizeCluster(clusterSchema.parse({ clusterId: "in01-x" }))).toStrictEqual(
      blankCluster("in01-x"),
    );
  });

  it("reads the documented extras: backups, creation progress, replicas, autoscaling CU bounds", () => {
    const c = normalizeCluster(
      clusterSchema.parse({
        ...cluster,
        snapshotNumber: 3,
        createProgress: "45",
        replica: 2,
        autoscaling: { cu: { min: 2, max: "8" }, replica: { min: 1, max: 3 } },
      }),
    );
    expect(c).toMatchObject({
      snapshotNumber: 3,
      createProgress: 45,
      replica: 2,
      autoscalingCuMin: 2,
      autoscalingCuMax: 8,
    });
  });

  it.each([
    { name: "autoscaling as a string", extra: { autoscaling: "on" } },
    { name: "autoscaling without cu", extra: { autoscaling: { replica: { min: 1, max: 2 } } } },
    { name: "cu bounds not numbers", extra: { autoscaling: { cu: { min: "two", max: [] } } } },
    { name: "odd extras", extra: { snapshotNumber: "many", createProgress: {}, replica: true } },
  ])("reads $name as unknown, keeping the cluster", ({ extra }) => {
    const c = normalizeCluster(clusterSchema.parse({ ...cluster, ...extra }));
    expect(c.clusterId).toBe("in01-abc");
    expect(c.autoscalingCuMin).toBeNull();
    expect(c.autoscalingCuMax).toBeNull();
    if ("snapshotNumber" in extra)
      expect([c.snapshotNumber, c.createProgress, c.replica]).toEqual([null, null, null]);
  });

  it.each<{ name: string; replica: unknown; want: number | null }>([
    // A string in the reference's schema, the integer 1 in every sample.
    { name: "the schema's string", replica: "2", want: 2 },
    { name: "the samples' number", replica: 2, want: 2 },
    { name: "absent", replica: undefined, want: null },
    { name: "null", replica: null, want: null },
    { name: "not a number", replica: "two", want: null },
  ])("reads replica as $name", ({ replica, want }) => {
    expect(normalizeCluster(clusterSchema.parse({ ...cluster, replica })).replica).toBe(want);
  });

  const schedules = [
    { cron: "0 8 * * 1-5", target: 4 },
    { cron: "0 20 * * 1-5", target: 2 },
  ];
  it.each<{ name: string; autoscaling: unknown; want: (number | null)[] }>([
    {
      name: "CU and replica bounds",
      autoscaling: { cu: { min: 1, max: "256" }, replica: { min: "1", max: 10 } },
      want: [1, 256, 1, 10],
    },
    {
      name: "CU schedules instead of bounds",
      autoscaling: { cu: { schedules }, replica: { min: 1, max: 3 } },
      want: [null, null, 1, 3],
    },
    {
      name: "replica schedules instead of bounds",
      autoscaling: { cu: { min: 2, max: 8 }, replica: { schedules } },
      want: [2, 8, null, null],
    },
    {
      name: "schedules on both",
      autoscaling: { cu: { schedules }, replica: { schedules } },
      want: [null, null, null, null],
    },
    { name: "replica as an array", autoscaling: { replica: [1, 3] }, want: [null, null, null, null] },
    { name: "no autoscaling", autoscaling: undefined, want: [null, null, null, null] },
  ])("reads autoscaling with $name", ({ autoscaling, want }) => {
    const c = normalizeCluster(clusterSchema.parse({ ...cluster, autoscaling }));
    expect([
      c.autoscalingCuMin,
      c.autoscalingCuMax,
      c.autoscalingReplicaMin,
      c.autoscalingReplicaMax,
    ]).toEqual(want);
  });

  it.each<{ name: string; meta: unknown; want: unknown }>([
    {
      name: "a primary",
      meta: { globalClusterId: "glo-xxxx", role: "PRIMARY" },
      want: { globalClusterId: "glo-xxxx", role: "PRIMARY" },
    },
    {
      name: "a secondary",
      meta: { globalClusterId: "glo-xxxx", role: "SECONDARY" },
      want: { globalClusterId: "glo-xxxx", role: "SECONDARY" },
    },
    // The reference: null for a cluster outside a global cluster; its samples leave it out.
    { name: "null", meta: null, want: null },
    { name: "absent", meta: undefined, want: null },
    { name: "without a role", meta: { globalClusterId: "glo-xxxx" }, want: null },
    { name: "without an ID", meta: { role: "PRIMARY" }, want: null },
    { name: "a string", meta: "glo-xxxx", want: null },
  ])("reads globalClusterMeta as $name", ({ meta, want }) => {
    expect(
      normalizeCluster(clusterSchema.parse({ ...cluster, globalClusterMeta: meta })).globalCluster,
    ).toEqual(want);
  });

  it.each<{ deploymentOption: unknown; want: string | null }>([
    { deploymentOption: "Dedicated", want: "Dedicated" },
    { deploymentOption: "Serverless", want: "Serverless" },
    { deploymentOption: "Free", want: "Free" },
    { deploymentOption: undefined, want: null },
    { deploymentOption: "", want: null },
    { deploymentOption: 3, want: null },
  ])("reads deploymentOption $deploymentOption as $want", ({ deploymentOption, want }) => {
    expect(normalizeCluster(clusterSchema.parse({ ...cluster, deploymentOption })).deploymentOption).toBe(
      want,
    );
  });

  it("reads a List Clusters item as the reference shows it now (deploymentOption, globalClusterMeta)", () => {
    const page = normalizeClusterList(
      clusterListDataSchema.parse({
        count: 2,
        currentPage: 1,
        pageSize: 10,
        clusters: [
          {
            ...cluster,
            status: "RESIZING",
            deploymentOption: "Dedicated",
            globalClusterMeta: { globalClusterId: "glo-1", role: "SECONDARY" },
          },
          { ...cluster, clusterId: "in01-def", deploymentOption: "Dedicated", globalClusterMeta: null },
        ],
      }),
    );
    expect(page.clusters.map((c) => [c.clusterId, c.status, c.deploymentOption, c.globalCluster])).toEqual([
      ["in01-abc", "RESIZING", "Dedicated", { globalClusterId: "glo-1", role: "SECONDARY" }],
      ["in01-def", "RUNNING", "Dedicated", null],
    ]);
  });

  it.each([
    { name: "no clusterId", data: { clusterName: "x" } },
    { name: "a non-numeric cuSize", data: { clusterId: "x", cuSize: "big" } },
  ])("rejects $name", ({ data }) => {
    expect(clusterSchema.safeParse(data).success).toBe(false);
  });
});
