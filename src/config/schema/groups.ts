/**
 * The `groups:` section: SCIM group IDs whose member counts are exported (List Group Members),
 * for access audits (docs/design.md section 4).
 */
import { durationField } from "../fields.js";
import { nullAsAbsent, section } from "../schemaKit.js";
import { DAY, HOUR, idList, SECOND } from "./common.js";

export const groupsSchema = section({
  // prefault, not default: the JSON Schema (input side) keeps documenting the empty default.
  ids: nullAsAbsent(idList("groups.ids").prefault([])),
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(HOUR),
}).transform((groups) => ({
  /** SCIM group IDs, in file order; empty: no group is polled. */
  ids: groups.ids,
  intervalMs: groups.interval,
}));
