/**
 * The `groups:` section: SCIM group IDs whose member counts are exported (List Group Members),
 * for access audits (docs/design.md section 4).
 */
import { durationField } from "../../config/fields.js";
import { DAY, HOUR, idList, SECOND } from "../../config/schema/common.js";
import type { DeepReadonly } from "../../config/schemaKit.js";
import { nullAsAbsent, section } from "../../config/schemaKit.js";
import { configSection } from "../../config/section.js";

const groupsSchema = section({
  // prefault, not default: the JSON Schema (input side) keeps documenting the empty default.
  ids: nullAsAbsent(idList("groups.ids").prefault([])),
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(HOUR),
}).transform((groups) => ({
  /** SCIM group IDs, in file order; empty: no group is polled. */
  ids: groups.ids,
  intervalMs: groups.interval,
}));

export const GROUPS_SECTION = configSection("groups", () => groupsSchema);

declare module "../../config/section.js" {
  interface CollectorSections {
    readonly groups: DeepReadonly<ReturnType<typeof groupsSchema.parse>>;
  }
}
