/** The `global_clusters` section (docs/configuration.md): List Global Clusters and their replication lag. */

import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField } from "../../config/fields.js";
import { DAY, MINUTE, SECOND } from "../../config/schema/common.js";
import { configSection, type SectionSettings } from "../../config/section.js";

const globalClustersSchema = settingsSection({
  enabled: boolField().default(true),
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(MINUTE),
});

export const GLOBAL_CLUSTERS_SECTION = configSection("global_clusters", () => globalClustersSchema);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof GLOBAL_CLUSTERS_SECTION> {}
}
