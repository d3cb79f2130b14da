/**
 * The `backups` section (docs/configuration.md): List Backups and Get Backup Policy for the
 * polled dedicated clusters.
 */

import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField } from "../../config/fields.js";
import { DAY, HOUR, MINUTE, SECOND } from "../../config/schema/common.js";
import { configSection, type SectionSettings } from "../../config/section.js";

const backupsSchema = settingsSection({
  enabled: boolField().default(true),
  /** List Backups, every page. */
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(15 * MINUTE),
  /** Get Backup Policy per dedicated cluster: policies change rarely. */
  policy_interval: durationField({ min: 30 * SECOND, max: DAY }).default(HOUR),
});

/** `backups`: both backups collectors read it. */
export const BACKUPS_SECTION = configSection("backups", () => backupsSchema);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof BACKUPS_SECTION> {}
}
