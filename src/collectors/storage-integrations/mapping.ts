/** Pure mapping of List Storage Integrations to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import type { StorageIntegration } from "../../upstream/types.js";
import { STORAGE_INTEGRATION_FAMILIES as S } from "./families.js";

/** The statuses the reference documents, lowercased: every state set holds them. */
export const STORAGE_INTEGRATION_STATUSES = ["active", "error"] as const;

/**
 * Maps one project's integrations to vdbcloud_storage_integration_info{project_id,
 * integration_id,name,region_id,bucket_name} 1 and, when the answer gave a status,
 * vdbcloud_storage_integration_status{project_id,integration_id,status}: a state set of active
 * and error, another status added lowercased. An integration listed twice is left to the pager,
 * which keeps its first listing (tasks.ts keys the listing by integrationId). The message never
 * reaches a sample: it is free text, logged by the task (messages.ts).
 */
export function mapStorageIntegrations(
  integrations: readonly StorageIntegration[],
  projectId: string,
): MappingResult {
  const out = new MappingBuilder();
  for (const s of integrations) {
    const id = { project_id: projectId, integration_id: s.integrationId };
    out.add(S.info, { ...id, name: s.name, region_id: s.regionId, bucket_name: s.bucketName }, 1);
    if (s.status !== null) {
      out.addSamples(S.status, stateSet(S.status, id, "status", STORAGE_INTEGRATION_STATUSES, s.status));
    }
  }
  return out.result();
}
