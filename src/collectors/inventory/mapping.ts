/** Pure mapping of inventory answers (clusters, projects, regions) to samples. */

import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import { scaleDecimal } from "../../metrics/units.js";
import type {
  ClusterDescription,
  OnDemandCluster,
  Project,
  ProjectV2,
  Region,
} from "../../upstream/types.js";
import { INVENTORY_FAMILIES as I, ON_DEMAND_CLUSTER_FAMILIES as OD } from "./families.js";

/**
 * The statuses the newer reference added that are operations someone asked for, in its order
 * (the seventh it added, unfreezed, is not one).
 */
const ADDED_OPERATION_STATUSES = [
  "restore_backup",
  "migrating",
  "resizing",
  "upgrading",
  "writing_operation",
  "set_private_link",
];

/**
 * The statuses of Describe Cluster (V2) and List Clusters (V2) as their reference reads now,
 * lowercased as every state set here: the ten of the older reference and the seven it added.
 * Exported so that the conformance suite compares it with the reference's enum.
 */
export const REFERENCE_CLUSTER_STATUSES: readonly string[] = [
  "creating",
  "running",
  "deleting",
  "deleted",
  "stopping",
  "resuming",
  "modifying",
  "abnormal",
  "freezing",
  "frozen",
  "unfreezed",
  ...ADDED_OPERATION_STATUSES,
];

/**
 * Statuses of a cluster that works through an operation someone asked for: it is not broken,
 * so VdbcloudClusterNotRunning leaves them to VdbcloudClusterOperationLongRunning
 * (config/prometheus/rules/alerts.yml, whose regexes list exactly these: test/rules.test.ts).
 */
export const PLANNED_OPERATION_STATUSES: readonly string[] = ["modifying", ...ADDED_OPERATION_STATUSES];

/**
 * Known cluster statuses: the reference's, STOPPED (what a stopped cluster reports), and
 * SUSPENDING and SUSPENDED, the names the service's Terraform provider gives STOPPING and
 * STOPPED. Declared up front so that a dashboard or alert finds every status's series (0 while
 * not current) before a cluster first reaches it.
 */
export const CLUSTER_STATUSES: readonly string[] = [
  ...REFERENCE_CLUSTER_STATUSES,
  "stopped",
  "suspending",
  "suspended",
];

/** Roles in a global cluster (globalClusterMeta.role), lowercased. */
export const GLOBAL_CLUSTER_ROLES: readonly string[] = ["primary", "secondary"];

/** Free clusters' IDs start with in03-; the service's Terraform provider forces plan Free for them. */
const FREE_CLUSTER_PREFIX = "in03-";

/**
 * The cluster's plan: Free for an in03- cluster whatever the answer says (its `plan` is
 * unreliable there: absent in the reference's own in03- sample), else the answer's plan.
 */
function clusterPlan(desc: Pick<ClusterDescription, "clusterId" | "plan">): string {
  if (desc.clusterId.startsWith(FREE_CLUSTER_PREFIX)) return "Free";
  return desc.plan ?? "";
}

/**
 * Maps one cluster description to vdbcloud_cluster_info{cluster_id,cluster_name,project_id,
 * region_id,plan,cu_type,deployment_option} 1 (a missing field is ""; plan per `clusterPlan`;
 * deployment_option lowercased), the vdbcloud_cluster_status state set (an unknown status is
 * added lowercased; no status at all gives no status series, since no state can be claimed
 * current), and, each only when known: vdbcloud_cluster_cu_size (not for a cuSize of 0, which
 * free and serverless clusters report for "no CUs": a dashboard must not show them as zero-CU
 * clusters), vdbcloud_cluster_snapshots, vdbcloud_cluster_create_progress_ratio (only while
 * CREATING: 100% forever after says nothing), vdbcloud_cluster_replicas, the autoscaling CU and
 * replica bounds (none where a schedule replaces them), and the
 * vdbcloud_cluster_global_role{cluster_id,global_cluster_id,role} state set (none outside a
 * global cluster).
 */
export function mapCluster(desc: ClusterDescription): MappingResult {
  const out = new MappingBuilder();
  const id = { cluster_id: desc.clusterId };
  const info = {
    ...id,
    cluster_name: desc.clusterName ?? "",
    project_id: desc.projectId ?? "",
    region_id: desc.regionId ?? "",
    plan: clusterPlan(desc),
    cu_type: desc.cuType ?? "",
    deployment_option: desc.deploymentOption?.toLowerCase() ?? "",
  };
  out.add(I.clusterInfo, info, 1);
  const status = desc.status?.trim() ?? "";
  if (status !== "") {
    out.addSamples(I.clusterStatus, stateSet(I.clusterStatus, id, "status", CLUSTER_STATUSES, status));
  }
  if (desc.cuSize !== null && desc.cuSize !== 0) out.add(I.clusterCuSize, id, desc.cuSize);
  if (desc.snapshotNumber !== null) out.add(I.clusterSnapshots, id, desc.snapshotNumber);
  if (desc.createProgress !== null && status.toUpperCase() === "CREATING") {
    out.add(I.clusterCreateProgress, id, scaleDecimal(desc.createProgress, 1, 100));
  }
  if (desc.replica !== null) out.add(I.clusterReplicas, id, desc.replica);
  if (desc.autoscalingCuMin !== null) out.add(I.clusterAutoscalingCuMin, id, desc.autoscalingCuMin);
  if (desc.autoscalingCuMax !== null) out.add(I.clusterAutoscalingCuMax, id, desc.autoscalingCuMax);
  if (desc.autoscalingReplicaMin !== null)
    out.add(I.clusterAutoscalingReplicasMin, id, desc.autoscalingReplicaMin);
  if (desc.autoscalingReplicaMax !== null)
    out.add(I.clusterAutoscalingReplicasMax, id, desc.autoscalingReplicaMax);
  if (desc.globalCluster !== null) {
    const member = { ...id, global_cluster_id: desc.globalCluster.globalClusterId };
    out.addSamples(
      I.clusterGlobalRole,
      stateSet(I.clusterGlobalRole, member, "role", GLOBAL_CLUSTER_ROLES, desc.globalCluster.role),
    );
  }
  return out.result();
}

/**
 * Maps List Projects (V2 or v1) to vdbcloud_project_clusters{project_id,project_name} =
 * instanceCount; a project without an instance count gives no sample (null is never 0).
 */
export function mapProjects(projects: readonly (Project | ProjectV2)[]): MappingResult {
  const out = new MappingBuilder();
  for (const p of projects) {
    if (p.instanceCount === null) continue;
    out.add(I.projectClusters, { project_id: p.projectId, project_name: p.projectName }, p.instanceCount);
  }
  return out.result();
}

/**
 * Maps List Projects (V2) to vdbcloud_project_info{project_id,project_name,plan,org_type} 1, one
 * per project; a plan or org type the answer left out is "".
 */
export function mapProjectInfo(projects: readonly ProjectV2[]): MappingResult {
  const out = new MappingBuilder();
  for (const p of projects) {
    out.add(
      I.projectInfo,
      { project_id: p.projectId, project_name: p.projectName, plan: p.plan, org_type: p.orgType },
      1,
    );
  }
  return out.result();
}

/** Maps List Cloud Regions to vdbcloud_region_info{cloud_id,region_id,domain} 1. */
export function mapRegions(regions: readonly Region[]): MappingResult {
  const out = new MappingBuilder();
  for (const r of regions) {
    out.add(I.regionInfo, { cloud_id: r.cloudId, region_id: r.regionId, domain: r.domain }, 1);
  }
  return out.result();
}

/** On-demand cluster statuses, lowercased: those List On-Demand Clusters documents. */
export const ON_DEMAND_STATUSES: readonly string[] = [
  "creating",
  "suspended",
  "resuming",
  "running",
  "suspending",
];

/** A count or a time span as given, when it is one (never a guess). */
const isAmount = (n: number | null): n is number => n !== null && Number.isFinite(n) && n >= 0;

/**
 * Maps the on-demand clusters listed for one project and region (`asked`) to
 * vdbcloud_on_demand_cluster_info{cluster_id,cluster_name,project_id,region_id} 1, the
 * vdbcloud_on_demand_cluster_status state set (an unknown status added lowercased; none
 * without a status), and, when given, vdbcloud_on_demand_cluster_cu_size and
 * vdbcloud_on_demand_cluster_auto_suspend_seconds. A cluster of another project or region (a
 * server that ignored the filter) is left to that listing. `clusters` are each listed once
 * (the task takes them through the pager's `eachOnce`).
 */
export function mapOnDemandClusters(
  clusters: readonly OnDemandCluster[],
  asked: { readonly projectId: string; readonly regionId: string },
): MappingResult {
  const out = new MappingBuilder();
  for (const c of clusters) {
    if (c.projectId !== asked.projectId || c.regionId !== asked.regionId) continue;
    const id = { cluster_id: c.clusterId };
    out.add(
      OD.info,
      { ...id, cluster_name: c.clusterName ?? "", project_id: asked.projectId, region_id: asked.regionId },
      1,
    );
    const status = c.status?.trim() ?? "";
    if (status !== "")
      out.addSamples(OD.status, stateSet(OD.status, id, "status", ON_DEMAND_STATUSES, status));
    if (isAmount(c.cuSize)) out.add(OD.cuSize, id, c.cuSize);
    if (isAmount(c.autoSuspendSeconds)) out.add(OD.autoSuspend, id, c.autoSuspendSeconds);
  }
  return out.result();
}
