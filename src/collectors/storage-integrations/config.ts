/**
 * The `storage_integrations` section (docs/design.md section 4): the projects' storage
 * integrations, read with List Storage Integrations per known project on shard 0, so that a
 * broken one is seen before the backup export or audit-log forward that needs it fails.
 */

import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField } from "../../config/fields.js";
import { DAY, MINUTE, SECOND } from "../../config/schema/common.js";
import { configSection, type SectionSettings } from "../../config/section.js";

const storageIntegrationsSchema = settingsSection({
  enabled: boolField().default(true),
  /** Every known project's integrations, every page, once per interval: they change rarely. */
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(15 * MINUTE),
});

export const STORAGE_INTEGRATIONS_SECTION = configSection(
  "storage_integrations",
  () => storageIntegrationsSchema,
);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof STORAGE_INTEGRATIONS_SECTION> {}
}
