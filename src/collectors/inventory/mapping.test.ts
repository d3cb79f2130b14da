import { describe, expect, it } from "vitest";
import { blankCluster } from "../../upstream/testkit.js";
import type { ClusterDescription } from "../../upstream/types.js";
import { INVENTORY_FAMILIES } from "./families.js";
import {
  CLUSTER_STATUSES,
  mapCluster,
  mapProjects,
  mapRegions,
  PLANNED_OPERATION_STATUSES,
  REFERENCE_CLUSTER_STATUSES,
} from "./mapping.js";

const CLUSTER: ClusterDescription = blankCluster("in01-a", {
  clusterName: "prod",
  projectId: "proj-1",
  regionId: "aws-us-west-2",
  plan: "Enterprise",
  cuType: "Performance-optimized",
  cuSize: 4,
  status: "RUNNING",
  connectAddress: "https://in01-a.example",
});

describe("mapCluster", () => {
  it("maps info, status and CU size", () => {
    const r = mapCluster(CLUSTER);
    expect(r.samples[0]).toEqual({
      family: "vdbcloud_cluster_info",
      labels: {
        cluster_id: "in01-a",
        cluster_name: "prod",
        project_id: "proj-1",
        region_id: "aws-us-west-2",
        plan: "Enterprise",
        cu_type: "Performance-optimized",
        deployment_option: "",
      },
      value: 1,
    });
    expect(r.samples.find((s) => s.family === "vdbcloud_cluster_cu_size")).toEqual({
      family: "vdbcloud_cluster_cu_size",
      labels: { cluster_id: "in01-a" },
      value: 4,
    });
    expect(r.families.map((f) => f.name)).toEqual([
      "vdbcloud_cluster_info",
      "vdbcloud_cluster_status",
      "vdbcloud_cluster_cu_size",
    ]);
  });

  it.each(CLUSTER_STATUSES)("exposes status %s as a lowercase state set", (status) => {
    const r = mapCluster({ ...CLUSTER, status: status.toUpperCase() });
    const set = r.samples.filter((s) => s.family === "vdbcloud_cluster_status");
    expect(set.map((s) => [s.labels, s.value])).toEqual(
      CLUSTER_STATUSES.map((k) => [{ cluster_id: "in01-a", status: k }, k === status ? 1 : 0]),
    );
  });

  it("adds an unknown status lowercased", () => {
    const set = mapCluster({ ...CLUSTER, status: "HIBERNATING" }).samples.filter(
      (s) => s.family === "vdbcloud_cluster_status",
    );
    expect(set).toHaveLength(CLUSTER_STATUSES.length + 1);
    expect(set.filter((s) => s.value === 1).map((s) => s.labels.status)).toEqual(["hibernating"]);
  });

  it("uses empty labels for missing fields and skips unknown status and size", () => {
    const r = mapCluster(blankCluster("in01-b"));
    expect(r.samples).toEqual([
      {
        family: "vdbcloud_cluster_info",
        labels: {
          cluster_id: "in01-b",
          cluster_name: "",
          project_id: "",
          region_id: "",
          plan: "",
          cu_type: "",
          deployment_option: "",
        },
        value: 1,
      },
    ]);
  });
});

describe("mapCluster: what Describe Cluster's reference documents", () => {
  const sampleOf = (desc: ClusterDescription, family: string) =>
    mapCluster(desc).samples.find((s) => s.family === family)?.value;

  it.each([
    "CREATING",
    "RUNNING",
    "DELETING",
    "DELETED",
    "STOPPING",
    "RESUMING",
    "MODIFYING",
    "ABNORMAL",
    "FREEZING",
    "FROZEN",
    // The seven the reference added (Describe Cluster and List Clusters as they read now).
    "UNFREEZED",
    "RESTORE_BACKUP",
    "MIGRATING",
    "RESIZING",
    "UPGRADING",
    "WRITING_OPERATION",
    "SET_PRIVATE_LINK",
    // The service's Terraform provider's names, and what a stopped cluster reports.
    "SUSPENDING",
    "SUSPENDED",
    "STOPPED",
  ])("knows %s: no state added beyond the known set", (status) => {
    const set = mapCluster({ ...CLUSTER, status }).samples.filter(
      (s) => s.family === "vdbcloud_cluster_status",
    );
    expect(set).toHaveLength(CLUSTER_STATUSES.length);
    expect(set.filter((s) => s.value === 1).map((s) => s.labels.status)).toEqual([status.toLowerCase()]);
  });

  it.each<
    [
      name: string,
      desc: Partial<ClusterDescription>,
      cuSize: number | undefined,
      plan: string,
      cuType: string,
    ]
  >([
    ["a dedicated cluster", { cuSize: 4 }, 4, "Enterprise", "Performance-optimized"],
    [
      "a serverless cluster (cuSize 0, cuType empty)",
      { plan: "Serverless", cuSize: 0, cuType: "" },
      undefined,
      "Serverless",
      "",
    ],
    [
      "a free cluster (in03-, no plan)",
      { clusterId: "in03-45a099b7822fb6a", plan: null, cuSize: 0, cuType: "" },
      undefined,
      "Free",
      "",
    ],
    [
      "an in03- cluster whatever plan it reports",
      { clusterId: "in03-x", plan: "Standard", cuSize: 0, cuType: "" },
      undefined,
      "Free",
      "",
    ],
    ["a cluster without cuSize", { cuSize: null }, undefined, "Enterprise", "Performance-optimized"],
  ])("%s: cu_size %s, plan %s, cu_type %j", (_name, desc, cuSize, plan, cuType) => {
    const r = mapCluster({ ...CLUSTER, ...desc });
    expect(r.samples.find((s) => s.family === "vdbcloud_cluster_cu_size")?.value).toBe(cuSize);
    const info = r.samples.find((s) => s.family === "vdbcloud_cluster_info");
    expect(info?.labels.plan).toBe(plan);
    expect(info?.labels.cu_type).toBe(cuType);
  });

  it.each<[name: string, desc: Partial<ClusterDescription>, family: string, value: number | undefined]>([
    ["backups taken", { snapshotNumber: 3 }, "vdbcloud_cluster_snapshots", 3],
    ["no backups yet", { snapshotNumber: 0 }, "vdbcloud_cluster_snapshots", 0],
    ["backups unknown", { snapshotNumber: null }, "vdbcloud_cluster_snapshots", undefined],
    [
      "progress while creating",
      { status: "CREATING", createProgress: 45 },
      "vdbcloud_cluster_create_progress_ratio",
      0.45,
    ],
    [
      "progress of 0.3 percent, exactly",
      { status: "CREATING", createProgress: 0.3 },
      "vdbcloud_cluster_create_progress_ratio",
      0.003,
    ],
    [
      "progress once running (100, says nothing)",
      { status: "RUNNING", createProgress: 100 },
      "vdbcloud_cluster_create_progress_ratio",
      undefined,
    ],
    [
      "progress unknown while creating",
      { status: "CREATING", createProgress: null },
      "vdbcloud_cluster_create_progress_ratio",
      undefined,
    ],
    ["replicas", { replica: 2 }, "vdbcloud_cluster_replicas", 2],
    ["replicas absent", { replica: null }, "vdbcloud_cluster_replicas", undefined],
    ["autoscaling minimum", { autoscalingCuMin: 2 }, "vdbcloud_cluster_autoscaling_cu_min", 2],
    ["autoscaling maximum", { autoscalingCuMax: 8 }, "vdbcloud_cluster_autoscaling_cu_max", 8],
    ["no autoscaling", { autoscalingCuMax: null }, "vdbcloud_cluster_autoscaling_cu_max", undefined],
    [
      "replica autoscaling minimum",
      { autoscalingReplicaMin: 1 },
      "vdbcloud_cluster_autoscaling_replicas_min",
      1,
    ],
    [
      "replica autoscaling maximum",
      { autoscalingReplicaMax: 3 },
      "vdbcloud_cluster_autoscaling_replicas_max",
      3,
    ],
    [
      "no replica autoscaling (or a schedule instead of bounds)",
      { autoscalingReplicaMin: null },
      "vdbcloud_cluster_autoscaling_replicas_min",
      undefined,
    ],
  ])("%s", (_name, desc, family, value) => {
    expect(sampleOf({ ...CLUSTER, ...desc }, family)).toBe(value);
  });

  it.each<[deploymentOption: string | null, label: string]>([
    ["Dedicated", "dedicated"],
    ["Serverless", "serverless"],
    ["Free", "free"],
    // The reference's free and serverless samples leave it out.
    [null, ""],
  ])("deploymentOption %j is deployment_option %j", (deploymentOption, label) => {
    const info = mapCluster({ ...CLUSTER, deploymentOption }).samples.find(
      (s) => s.family === "vdbcloud_cluster_info",
    );
    expect(info?.labels.deployment_option).toBe(label);
    // Every declared label, in the declared order, whatever the answer left out.
    expect(Object.keys(info?.labels ?? {})).toEqual(INVENTORY_FAMILIES.clusterInfo.doc?.labels);
  });

  it.each<[name: string, globalCluster: ClusterDescription["globalCluster"], want: Array<[string, number]>]>([
    [
      "a primary",
      { globalClusterId: "glo-1", role: "PRIMARY" },
      [
        ["primary", 1],
        ["secondary", 0],
      ],
    ],
    [
      "a secondary",
      { globalClusterId: "glo-1", role: "SECONDARY" },
      [
        ["primary", 0],
        ["secondary", 1],
      ],
    ],
    [
      "a role the reference does not name, added lowercased",
      { globalClusterId: "glo-1", role: "Standby" },
      [
        ["primary", 0],
        ["secondary", 0],
        ["standby", 1],
      ],
    ],
    // globalClusterMeta null or absent: outside any global cluster.
    ["no global cluster", null, []],
  ])("global role of %s", (_name, globalCluster, want) => {
    const set = mapCluster({ ...CLUSTER, globalCluster }).samples.filter(
      (s) => s.family === "vdbcloud_cluster_global_role",
    );
    expect(set.map((s) => [s.labels.role, s.value])).toEqual(want);
    for (const s of set) expect(s.labels).toMatchObject({ cluster_id: "in01-a", global_cluster_id: "glo-1" });
  });
});

describe("cluster statuses", () => {
  it("declares the reference's 17, then stopped, suspending and suspended", () => {
    expect(REFERENCE_CLUSTER_STATUSES).toHaveLength(17);
    expect(CLUSTER_STATUSES).toEqual([...REFERENCE_CLUSTER_STATUSES, "stopped", "suspending", "suspended"]);
  });

  it("counts every planned operation among the known statuses, and never running or abnormal", () => {
    for (const s of PLANNED_OPERATION_STATUSES) expect(REFERENCE_CLUSTER_STATUSES).toContain(s);
    expect(PLANNED_OPERATION_STATUSES).not.toContain("running");
    expect(PLANNED_OPERATION_STATUSES).not.toContain("abnormal");
  });
});

describe("mapProjects", () => {
  it("exposes the cluster count per project, skipping unknown counts", () => {
    const r = mapProjects([
      { projectId: "proj-1", projectName: "Default", instanceCount: 3, createTimeMs: 1 },
      { projectId: "proj-2", projectName: "Empty", instanceCount: 0, createTimeMs: null },
      { projectId: "proj-3", projectName: "Unknown", instanceCount: null, createTimeMs: null },
    ]);
    expect(r.samples).toEqual([
      {
        family: "vdbcloud_project_clusters",
        labels: { project_id: "proj-1", project_name: "Default" },
        value: 3,
      },
      {
        family: "vdbcloud_project_clusters",
        labels: { project_id: "proj-2", project_name: "Empty" },
        value: 0,
      },
    ]);
    expect(r.families.map((f) => f.name)).toEqual(["vdbcloud_project_clusters"]);
  });
});

describe("mapRegions", () => {
  it("exposes one info series per region, once even if listed twice", () => {
    const region = { cloudId: "aws", regionId: "aws-us-west-2", domain: "api.aws-us-west-2.example" };
    const r = mapRegions([
      region,
      { cloudId: "gcp", regionId: "gcp-us-west1", domain: "api.gcp.example" },
      region,
    ]);
    expect(r.samples).toEqual([
      {
        family: "vdbcloud_region_info",
        labels: { cloud_id: "aws", region_id: "aws-us-west-2", domain: "api.aws-us-west-2.example" },
        value: 1,
      },
      {
        family: "vdbcloud_region_info",
        labels: { cloud_id: "gcp", region_id: "gcp-us-west1", domain: "api.gcp.example" },
        value: 1,
      },
    ]);
  });
});
