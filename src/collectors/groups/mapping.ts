/** Pure mapping of List Group Members counts to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import { GROUP_FAMILIES as G } from "./families.js";

/**
 * Maps one group's member count to vdbcloud_group_members{group_id}. The group ID is the only
 * label: member names and addresses never reach this layer (upstream/groups.ts drops them). A
 * count that is not a non-negative integer gives no sample (never a guessed value).
 */
export function mapGroupMembers(groupId: string, members: number): MappingResult {
  const out = new MappingBuilder();
  if (Number.isSafeInteger(members) && members >= 0) out.add(G.members, { group_id: groupId }, members);
  return out.result();
}
