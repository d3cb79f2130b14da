/** On-demand clusters: the mapping (the reference's sample, statuses) and the task (shard 0, one listing per project and region, refusals). */
import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { storeContext } from "../../../test/helpers/storeContext.js";
import { REFERENCE_ON_DEMAND_CLUSTERS } from "../../upstream/consoleTestkit.js";
import {
  normalizeOnDemandClusters,
  onDemandClustersDataSchema,
} from "../../upstream/endpoints/onDemandClusters.js";
import { CloudError } from "../../upstream/errors.js";
import { projectV2 } from "../../upstream/testkit.js";
import type { CloudApi, OnDemandCluster, ProjectV2 } from "../../upstream/types.js";
import { mapOnDemandClusters, ON_DEMAND_STATUSES } from "./mapping.js";
import { listedOnce, onDemandTask } from "./onDemand.js";

const ASKED = { projectId: "proj-1", regionId: "aws-us-west-2" };
const CLUSTER: OnDemandCluster = {
  clusterId: "in05-a",
  clusterName: "burst",
  ...ASKED,
  status: "SUSPENDED",
  cuSize: 4,
  autoSuspendSeconds: 300,
};

describe("mapOnDemandClusters", () => {
  it("maps info, status, CU size and auto-suspend", () => {
    const r = mapOnDemandClusters([CLUSTER], ASKED);
    const id = { cluster_id: "in05-a" };
    expect(r.samples.filter((s) => s.family !== "vdbcloud_on_demand_cluster_status")).toEqual([
      {
        family: "vdbcloud_on_demand_cluster_info",
        labels: { ...id, cluster_name: "burst", project_id: "proj-1", region_id: "aws-us-west-2" },
        value: 1,
      },
      { family: "vdbcloud_on_demand_cluster_cu_size", labels: id, value: 4 },
      { family: "vdbcloud_on_demand_cluster_auto_suspend_seconds", labels: id, value: 300 },
    ]);
  });

  it.each(ON_DEMAND_STATUSES)("exposes status %s as a lowercase state set", (status) => {
    const set = mapOnDemandClusters([{ ...CLUSTER, status: status.toUpperCase() }], ASKED).samples.filter(
      (s) => s.family === "vdbcloud_on_demand_cluster_status",
    );
    expect(set.map((s) => [s.labels.status, s.value])).toEqual(
      ON_DEMAND_STATUSES.map((k) => [k, k === status ? 1 : 0]),
    );
  });

  it.each([
    // The guide's status table also names DELETING, which the schema's enum lacks.
    ["DELETING", "deleting"],
    ["Upgrading", "upgrading"],
  ])("adds the unknown status %s lowercased", (status, want) => {
    const set = mapOnDemandClusters([{ ...CLUSTER, status }], ASKED).samples.filter(
      (s) => s.family === "vdbcloud_on_demand_cluster_status",
    );
    expect(set).toHaveLength(ON_DEMAND_STATUSES.length + 1);
    expect(set.filter((s) => s.value === 1).map((s) => s.labels.status)).toEqual([want]);
  });

  it.each<[string, Partial<OnDemandCluster>, string, number | undefined]>([
    ["no status: no state claimed", { status: null }, "vdbcloud_on_demand_cluster_status", undefined],
    ["no CU size", { cuSize: null }, "vdbcloud_on_demand_cluster_cu_size", undefined],
    ["a CU size of 0", { cuSize: 0 }, "vdbcloud_on_demand_cluster_cu_size", 0],
    [
      "no auto-suspend",
      { autoSuspendSeconds: null },
      "vdbcloud_on_demand_cluster_auto_suspend_seconds",
      undefined,
    ],
  ])("%s", (_name, fields, family, want) => {
    const found = mapOnDemandClusters([{ ...CLUSTER, ...fields }], ASKED).samples.find(
      (s) => s.family === family,
    );
    expect(found?.value).toBe(want);
  });

  it("leaves a cluster of another project or region to that listing", () => {
    expect(mapOnDemandClusters([{ ...CLUSTER, regionId: "az-eastus" }], ASKED).samples).toEqual([]);
    expect(mapOnDemandClusters([{ ...CLUSTER, projectId: "proj-2" }], ASKED).samples).toEqual([]);
  });

  it("maps the reference's sample, word for word: two running clusters of one ID, shown once", () => {
    const asked = { projectId: "proj-xxxxxxxxxxxxxxx", regionId: "aws-us-west-2" };
    const clusters = normalizeOnDemandClusters(
      onDemandClustersDataSchema.parse(REFERENCE_ON_DEMAND_CLUSTERS),
      asked,
    );
    const r = mapOnDemandClusters(listedOnce(clusters), asked);
    const id = { cluster_id: "inxx-xxxxxxxxxxxxxxx" };
    // The sample gives both clusters the same placeholder ID: the first one wins, never a duplicate series.
    expect(r.samples.filter((s) => s.family !== "vdbcloud_on_demand_cluster_status")).toEqual([
      {
        family: "vdbcloud_on_demand_cluster_info",
        labels: {
          ...id,
          cluster_name: "Cluster-01",
          project_id: asked.projectId,
          region_id: "aws-us-west-2",
        },
        value: 1,
      },
      { family: "vdbcloud_on_demand_cluster_cu_size", labels: id, value: 8 },
      { family: "vdbcloud_on_demand_cluster_auto_suspend_seconds", labels: id, value: 60 },
    ]);
    expect(
      r.samples
        .filter((s) => s.family === "vdbcloud_on_demand_cluster_status" && s.value === 1)
        .map((s) => s.labels),
    ).toEqual([{ ...id, status: "running" }]);
    expect(JSON.stringify(r)).not.toContain("john.doe");
  });
});

const T0 = Date.UTC(2025, 5, 1);
const project = projectV2;

/** A fake service: List Projects V2 gives `projects`; a listing answers `refuse(pair)` or one cluster. */
function fake(projects: ProjectV2[], refuse: (pair: string) => Error | undefined = () => undefined) {
  const asked: string[] = [];
  const client = {
    listProjectsV2: async () => projects,
    listOnDemandClusters: async (args: { projectId: string; regionId: string }) => {
      const pair = `${args.projectId}/${args.regionId}`;
      asked.push(pair);
      const err = refuse(pair);
      if (err) throw err;
      return [{ ...CLUSTER, ...args, clusterId: `in05-${pair}` }];
    },
  } as unknown as CloudApi;
  return { client, asked };
}

async function taskOf(client: CloudApi, raw: Record<string, unknown> = {}, shard = { index: 0, total: 1 }) {
  const s = storeContext(T0);
  const env = { ...(await collectorEnv({ ctx: s.ctx, client, raw })), shard };
  return { s, tasks: onDemandTask(env) };
}

const run = (t: { run: (s: AbortSignal) => Promise<unknown> }) => t.run(new AbortController().signal);

describe("the on-demand task", () => {
  it("is scheduled on shard 0 only, with inventory.on_demand", async () => {
    const { client } = fake([]);
    expect((await taskOf(client)).tasks.map((t) => t.id)).toEqual([
      { collector: "inventory", target: "on_demand" },
    ]);
    expect((await taskOf(client, {}, { index: 1, total: 2 })).tasks).toEqual([]);
    expect((await taskOf(client, { inventory: { on_demand: false } })).tasks).toEqual([]);
    expect((await taskOf(client, { inventory: { enabled: false } })).tasks).toEqual([]);
  });

  it("is not scheduled while families denies every on-demand family; one denied family is not enough", async () => {
    const { client } = fake([]);
    expect((await taskOf(client, { families: { deny: ["vdbcloud_on_demand_cluster_.*"] } })).tasks).toEqual(
      [],
    );
    const some = await taskOf(client, { families: { deny: ["vdbcloud_on_demand_cluster_cu_size"] } });
    expect(some.tasks).toHaveLength(1);
  });

  it("plans one listing per project and region of the configured clusters, more at run time", async () => {
    const { client } = fake([]);
    const raw = {
      clusters: [
        { id: "in01-a", project_id: "p1", region: "aws-us-west-2" },
        { id: "in01-b", project_id: "p1", region: "aws-us-west-2" },
        { id: "in01-c", project_id: "p1", region: "az-eastus" },
        { id: "in01-d", region: "az-eastus" },
      ],
    };
    const [task] = (await taskOf(client, raw)).tasks;
    expect(task?.calls).toEqual([
      { endpoint: "GET /v2/projects", count: 1, atLeast: false },
      { endpoint: "GET /v2/clusters/onDemandClusters", count: 2, atLeast: true },
    ]);
  });

  it("lists each project and region once: List Projects V2's and the clusters'", async () => {
    const { client, asked } = fake([project("p1", ["aws-us-west-2", "az-eastus"]), project("p2", [])]);
    const raw = { clusters: [{ id: "in01-a", project_id: "p3", region: "gcp-us-west1" }] };
    const { s, tasks } = await taskOf(client, raw);
    const [task] = tasks;
    if (!task) throw new Error("no task");
    expect(await run(task)).toBe("ok");
    expect(asked).toEqual(["p1/aws-us-west-2", "p1/az-eastus", "p3/gcp-us-west1"]);
    const text = await s.text();
    for (const pair of asked)
      expect(text).toContain(`vdbcloud_on_demand_cluster_info{cluster_id="in05-${pair}"`);
    expect(text).toContain(
      'vdbcloud_on_demand_cluster_status{cluster_id="in05-p1/az-eastus",status="suspended"} 1',
    );
  });

  it.each([
    [
      "the error-code list's 96013",
      new CloudError("api_error", "upstream code 96013: Org owner or project owner is needed", {
        endpoint: "GET /v2/clusters/onDemandClusters",
        apiCode: 96013,
      }),
    ],
    [
      "the error-code list's 96027",
      new CloudError("api_error", "upstream code 96027: Please check your Apikey scope", {
        endpoint: "GET /v2/clusters/onDemandClusters",
        apiCode: 96027,
      }),
    ],
    [
      "HTTP 403",
      new CloudError("auth_error", "HTTP 403: Forbidden", {
        endpoint: "GET /v2/clusters/onDemandClusters",
        httpStatus: 403,
      }),
    ],
  ])("a key refused everywhere by %s is not permitted, one line", async (_name, err) => {
    const { client } = fake([project("p1", ["aws-us-west-2", "az-eastus"])], () => err);
    const { s, tasks } = await taskOf(client);
    const [task] = tasks;
    if (!task) throw new Error("no task");
    expect(await run(task)).toBe("ok");
    expect(await run(task)).toBe("ok");
    const text = await s.text();
    expect(text).toContain(
      'vdbcloud_collector_not_permitted{collector="inventory",target="on_demand",credential="default"} 1',
    );
    expect(text).toContain('vdbcloud_collector_up{collector="inventory",target="on_demand"} 1');
    expect(
      s.logs.filter((l) => l.includes("credential lacks the permission") && l.includes("Project Admin")),
    ).toHaveLength(1);
  });

  it("a region refused among others: its listing is a partial failure, the others are shown", async () => {
    const plan = new CloudError(
      "api_error",
      "upstream code 96028: Feature only supported for enterprise plan clusters.",
      {
        endpoint: "GET /v2/clusters/onDemandClusters",
        apiCode: 96028,
      },
    );
    const { client } = fake([project("p1", ["aws-us-west-2", "gcp-us-west1"])], (pair) =>
      pair.endsWith("gcp-us-west1") ? plan : undefined,
    );
    const { s, tasks } = await taskOf(client);
    const [task] = tasks;
    if (!task) throw new Error("no task");
    expect(await run(task)).toBe("ok");
    expect(await s.text()).toContain('vdbcloud_on_demand_cluster_info{cluster_id="in05-p1/aws-us-west-2"');
    expect(s.health.list().find((h) => h.target === "on_demand")?.partialError?.message).toMatch(/96028/);
  });
});
