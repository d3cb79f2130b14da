/** Pure mapping of List Private Endpoints to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { FamilyDef, MappingResult } from "../../metrics/sample.js";
import { lowerSnakeCase } from "../../metrics/snakeCase.js";
import { stateSet } from "../../metrics/stateSet.js";
import type { PrivateEndpoint } from "../../upstream/types.js";
import { PRIVATE_ENDPOINT_FAMILIES as P } from "./families.js";

/**
 * The states both state sets always show. The reference gives the statuses no enum: the one
 * status it names (its sample's) is the one every endpoint should be in, so `== 1` on anything
 * else is what an alert asks.
 */
export const PRIVATE_ENDPOINT_STATES: readonly string[] = ["available"];

/** `status` (lower snake case) as a state set of `family` under `id`; nothing when it is unknown. */
function addStatus(
  out: MappingBuilder,
  family: FamilyDef,
  id: Readonly<Record<string, string>>,
  status: string | null,
): void {
  if (status === null) return;
  out.addSamples(family, stateSet(family, id, "status", PRIVATE_ENDPOINT_STATES, lowerSnakeCase(status)));
}

/**
 * Maps one project's endpoints to vdbcloud_private_endpoint_info{project_id,region_id,cloud_id,
 * endpoint_id,endpoint_service} 1 and, each under {project_id,endpoint_id} and only when the
 * answer gave the status, the state sets vdbcloud_private_endpoint_status and
 * vdbcloud_private_endpoint_service_status: `available`, plus the current status in lower snake
 * case when it is another ("PENDING_ACCEPTANCE" is pending_acceptance). An endpoint listed twice
 * is left to the pager, which keeps its first listing (tasks.ts keys the listing by endpointId).
 */
export function mapPrivateEndpoints(endpoints: readonly PrivateEndpoint[], projectId: string): MappingResult {
  const out = new MappingBuilder();
  for (const e of endpoints) {
    const id = { project_id: projectId, endpoint_id: e.endpointId };
    out.add(
      P.info,
      {
        project_id: projectId,
        region_id: e.regionId,
        cloud_id: e.cloudId,
        endpoint_id: e.endpointId,
        endpoint_service: e.endpointService,
      },
      1,
    );
    addStatus(out, P.status, id, e.endpointStatus);
    addStatus(out, P.serviceStatus, id, e.endpointServiceStatus);
  }
  return out.result();
}
