/** The groups collector's family (docs/metrics.md): member counts, never a member's name. */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** Group families: SCIM groups of `groups.ids` (List Group Members). */
export const GROUP_FAMILIES = {
  members: gauge("vdbcloud_group_members", {
    help: "Members of the SCIM group at the last poll, a count; no member name or address is exported (upstream List Group Members count).",
    labels: ["group_id"],
    unit: "count",
    source: `${ENDPOINT.listGroupMembers} count`,
    absent:
      'without groups.ids, on shards other than 0, or for a group whose listing fails (see vdbcloud_collector_up{collector="groups"})',
  }),
} as const;
