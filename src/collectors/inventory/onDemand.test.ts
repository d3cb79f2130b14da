/** On-demand clusters: the mapping (the reference's sample, statuses) and the task (shard 0, one listing per project and region, refusals). */
import { describe, expect, it } from "vitest";
import {
  fakeService,
  planRefusal,
  projectListingTaskTests,
  TWO_REGIONS,
  taskOf,
} from "../../../test/helpers/projectListingTask.js";
import { REFERENCE_ON_DEMAND_CLUSTERS } from "../../upstream/consoleTestkit.js";
import {
  normalizeOnDemandClusters,
  onDemandClustersDataSchema,
} from "../../upstream/endpoints/onDemandClusters.js";
import { projectV2 } from "../../upstream/testkit.js";
import type { OnDemandCluster, ProjectV2 } from "../../upstream/types.js";
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

const ENDPOINT = "GET /v2/clusters/onDemandClusters";

/** A fake service: List Projects V2 gives `projects`; a listing answers `refuse(pair)` or one cluster. */
const fake = (projects: ProjectV2[], refuse?: (pair: string) => Error | undefined) =>
  fakeService<{ projectId: string; regionId: string }>({
    projects: () => projects,
    method: "listOnDemandClusters",
    refuse,
    answer: (args) => [{ ...CLUSTER, ...args, clusterId: `in05-${args.projectId}/${args.regionId}` }],
  });

describe("the on-demand task", () => {
  projectListingTaskTests({
    tasks: onDemandTask,
    id: { collector: "inventory", target: "on_demand" },
    endpoint: ENDPOINT,
    intervalMs: 60_000,
    off: [{ inventory: { on_demand: false } }, { inventory: { enabled: false } }],
    planned: TWO_REGIONS,
    service: (refuse) => fake([projectV2("p1", ["aws-us-west-2", "gcp-us-west1"])], refuse).client,
    listed: "vdbcloud_on_demand_cluster_info",
    partial: {
      what: "a region refused among others: its listing",
      part: "p1/gcp-us-west1",
      error: () => planRefusal(ENDPOINT),
      shown: 1,
      contains: ['vdbcloud_on_demand_cluster_info{cluster_id="in05-p1/aws-us-west-2"'],
      message: /96028/,
    },
  });

  it("is not scheduled while families denies every on-demand family; one denied family is not enough", async () => {
    const { client } = fake([]);
    expect(
      (await taskOf(onDemandTask, client, { families: { deny: ["vdbcloud_on_demand_cluster_.*"] } })).tasks,
    ).toEqual([]);
    const some = await taskOf(onDemandTask, client, {
      families: { deny: ["vdbcloud_on_demand_cluster_cu_size"] },
    });
    expect(some.tasks).toHaveLength(1);
  });

  it("lists each project and region once: List Projects V2's and the clusters'", async () => {
    const { client, asked } = fake([projectV2("p1", ["aws-us-west-2", "az-eastus"]), projectV2("p2", [])]);
    const raw = { clusters: [{ id: "in01-a", project_id: "p3", region: "gcp-us-west1" }] };
    const { s, tasks } = await taskOf(onDemandTask, client, raw);
    const [task] = tasks;
    if (!task) throw new Error("no task");
    expect(await task.run(new AbortController().signal)).toBe("ok");
    expect(asked).toEqual(["p1/aws-us-west-2", "p1/az-eastus", "p3/gcp-us-west1"]);
    const text = await s.text();
    for (const pair of asked)
      expect(text).toContain(`vdbcloud_on_demand_cluster_info{cluster_id="in05-${pair}"`);
    expect(text).toContain(
      'vdbcloud_on_demand_cluster_status{cluster_id="in05-p1/az-eastus",status="suspended"} 1',
    );
  });
});
