/** Pure mapping of List API Keys to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import type { ApiKey } from "../../upstream/types.js";
import { API_KEY_FAMILIES as K } from "./families.js";
import { privilegeOf } from "./privilege.js";

/** The organization roles the reference documents: vdbcloud_api_keys always has a series of each. */
export const DOCUMENTED_ORG_ROLES = ["Owner", "Member", "Billing-Admin"] as const;

/** A key's `org_role` label: its organization roles as named, joined by a comma; "" when none. */
export function orgRoleLabel(key: Pick<ApiKey, "orgRoles">): string {
  return key.orgRoles.join(",");
}

/**
 * Maps the organization's keys to vdbcloud_api_key_info{api_key_id,name,org_role} 1,
 * vdbcloud_api_key_created_timestamp_seconds{api_key_id} (when the answer gave a time),
 * vdbcloud_api_key_project_role{api_key_id,project_id,role} 1 per project role, and
 * vdbcloud_api_keys{org_role}, the count per `org_role` label (each documented role at least,
 * at 0 when none holds it). With `ownKeyId` (api.key_id) and that key listed,
 * vdbcloud_api_key_excess_privilege{api_key_id} is 1 when it holds more than monitoring needs
 * (privilege.ts), else 0; not listed, the family has no series. A key listed twice is left to
 * the pager, which keeps its first listing. Nothing of a person is in `keys` to map.
 */
export function mapApiKeys(keys: readonly ApiKey[], ownKeyId?: string): MappingResult {
  const out = new MappingBuilder();
  const perRole = new Map<string, number>(DOCUMENTED_ORG_ROLES.map((r) => [r, 0]));
  for (const key of keys) {
    const id = { api_key_id: key.apiKeyId };
    const orgRole = orgRoleLabel(key);
    perRole.set(orgRole, (perRole.get(orgRole) ?? 0) + 1);
    out.add(K.info, { ...id, name: key.name, org_role: orgRole }, 1);
    if (key.createdAtMs !== null) out.add(K.created, id, key.createdAtMs / 1000);
    for (const p of key.projectRoles)
      out.add(K.projectRole, { ...id, project_id: p.projectId, role: p.role }, 1);
  }
  for (const [orgRole, count] of perRole) out.add(K.count, { org_role: orgRole }, count);
  const own = ownKeyId === undefined ? undefined : keys.find((k) => k.apiKeyId === ownKeyId);
  if (own !== undefined) {
    out.add(K.excessPrivilege, { api_key_id: own.apiKeyId }, privilegeOf(own).excess.length > 0 ? 1 : 0);
  }
  return out.result();
}
