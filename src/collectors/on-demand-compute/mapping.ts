/** Pure mapping of Describe On-Demand Compute to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import type { OnDemandCompute } from "../../upstream/types.js";
import { ON_DEMAND_COMPUTE_FAMILIES as F } from "./families.js";

/** On-demand compute statuses, lowercased: those Describe On-Demand Compute documents. */
export const ON_DEMAND_COMPUTE_STATUSES: readonly string[] = ["disabled", "enabling", "enabled", "abnormal"];

/**
 * Maps the answer for one project and region (`asked`) to the
 * vdbcloud_on_demand_compute_status{project_id,region_id,status} state set (an unknown status
 * added lowercased). No series when the answer carries no status (no state is claimed), or when
 * it describes another project or region (a server that ignored the query): that answer is
 * not about the pair asked, and labelling it so would be a guess.
 */
export function mapOnDemandCompute(
  compute: OnDemandCompute,
  asked: { readonly projectId: string; readonly regionId: string },
): MappingResult {
  const out = new MappingBuilder();
  if (compute.projectId !== asked.projectId || compute.regionId !== asked.regionId) return out.result();
  if (compute.status === null) return out.result();
  const id = { project_id: asked.projectId, region_id: asked.regionId };
  out.addSamples(F.status, stateSet(F.status, id, "status", ON_DEMAND_COMPUTE_STATUSES, compute.status));
  return out.result();
}
