/**
 * The `inventory` section, with cluster discovery and the on-demand clusters.
 */
import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField, intField, textField } from "../../config/fields.js";
import { DAY, MINUTE, REGION, SECOND } from "../../config/schema/common.js";
import { list, nullAsAbsent } from "../../config/schemaKit.js";
import { configSection, type SectionSettings } from "../../config/section.js";
import { checkNativeExport } from "./nativeExportNeeds.js";

const inventorySchema = settingsSection({
  enabled: boolField().default(true),
  interval: durationField({ min: SECOND, max: DAY }).default(MINUTE),
  discovery: settingsSection({
    enabled: boolField().default(false),
    project_ids: nullAsAbsent(list(textField()).default([])),
    region_ids: nullAsAbsent(list(textField(REGION)).default([])),
    /**
     * Discovered clusters polled at most (the first by cluster ID); the rest are counted in
     * vdbcloud_discovered_clusters_not_polled and logged once per change of their number.
     */
    max_clusters: intField(1, 100_000).default(5000),
  }),
  /** List On-Demand Clusters per known project and region (shard 0), every interval. */
  on_demand: boolField().default(true),
});

/** `inventory`, which also gives native export the clusters' plans (nativeExportNeeds.ts). */
export const INVENTORY_SECTION = configSection("inventory", () => inventorySchema, {
  check: checkNativeExport,
});

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof INVENTORY_SECTION> {}
}
