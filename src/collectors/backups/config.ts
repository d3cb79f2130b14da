/**
 * The `backups` section (docs/configuration.md): List Backups and Get Backup Policy for the
 * polled dedicated clusters.
 */
import { boolField, durationField } from "../../config/fields.js";
import { DAY, HOUR, MINUTE, SECOND } from "../../config/schema/common.js";
import { section } from "../../config/schemaKit.js";
import { configSection, type SectionSettings } from "../../config/section.js";

const backupsSchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(15 * MINUTE),
  policy_interval: durationField({ min: 30 * SECOND, max: DAY }).default(HOUR),
}).transform((backups) => ({
  enabled: backups.enabled,
  /** List Backups, every page. */
  intervalMs: backups.interval,
  /** Get Backup Policy per dedicated cluster: policies change rarely. */
  policyIntervalMs: backups.policy_interval,
}));

/** `backups`: both backups collectors read it. */
export const BACKUPS_SECTION = configSection("backups", () => backupsSchema);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof BACKUPS_SECTION> {}
}
