/** Pure mapping of inventory answers (clusters, projects, regions) to samples. */
import type { ClusterDescription, Project, Region } from "../../cloud/types.js";
import { MappingBuilder } from "../../collect/builder.js";
import { INVENTORY_FAMILIES as I } from "../../collect/families.js";
import type { MappingResult } from "../../collect/sample.js";
import { stateSet } from "../../collect/stateSet.js";

/** Documented cluster statuses (Describe Cluster v2), lowercased as every state set here. */
export const CLUSTER_STATUSES: readonly string[] = [
  "creating",
  "running",
  "deleting",
  "deleted",
  "stopping",
  "stopped",
  "resuming",
  "modifying",
  "abnormal",
];

/**
 * Maps one cluster description to vdbcloud_cluster_info{cluster_id,cluster_name,project_id,
 * region_id,plan,cu_type} 1 (a missing field is ""), the vdbcloud_cluster_status state set
 * (an unknown status is added lowercased; no status at all gives no status series, since no
 * state can be claimed current), and vdbcloud_cluster_cu_size when known.
 */
export function mapCluster(desc: ClusterDescription): MappingResult {
  const out = new MappingBuilder();
  const id = { cluster_id: desc.clusterId };
  const info = {
    ...id,
    cluster_name: desc.clusterName ?? "",
    project_id: desc.projectId ?? "",
    region_id: desc.regionId ?? "",
    plan: desc.plan ?? "",
    cu_type: desc.cuType ?? "",
  };
  out.add(I.clusterInfo, info, 1);
  if (desc.status !== null && desc.status.trim() !== "") {
    out.addSamples(I.clusterStatus, stateSet(I.clusterStatus, id, "status", CLUSTER_STATUSES, desc.status));
  }
  if (desc.cuSize !== null) out.add(I.clusterCuSize, id, desc.cuSize);
  return out.result();
}

/**
 * Maps List Projects to vdbcloud_project_clusters{project_id,project_name} = instanceCount; a
 * project without an instance count gives no sample (null is never 0).
 */
export function mapProjects(projects: readonly Project[]): MappingResult {
  const out = new MappingBuilder();
  for (const p of projects) {
    if (p.instanceCount === null) continue;
    out.add(I.projectClusters, { project_id: p.projectId, project_name: p.projectName }, p.instanceCount);
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
