/**
 * The `groups:` section: SCIM group IDs whose member counts are exported (List Group Members),
 * for access audits (docs/design.md section 4).
 */

import { settingsSection } from "../../config/camelSettings.js";
import { durationField } from "../../config/fields.js";
import { DAY, HOUR, idList, SECOND } from "../../config/schema/common.js";
import { nullAsAbsent } from "../../config/schemaKit.js";
import { configSection, type SectionSettings } from "../../config/section.js";

const groupsSchema = settingsSection({
  // prefault, not default: the JSON Schema (input side) keeps documenting the empty default.
  /** SCIM group IDs, in file order; empty: no group is polled. */
  ids: nullAsAbsent(idList("groups.ids").prefault([])),
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(HOUR),
});

export const GROUPS_SECTION = configSection("groups", () => groupsSchema);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof GROUPS_SECTION> {}
}
