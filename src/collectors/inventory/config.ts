/**
 * The `inventory` section, with cluster discovery and the on-demand clusters.
 */
import { boolField, durationField, intField, textField } from "../../config/fields.js";
import { DAY, MINUTE, REGION, SECOND } from "../../config/schema/common.js";
import { list, nullAsAbsent, section } from "../../config/schemaKit.js";
import { configSection, type SectionSettings } from "../../config/section.js";
import { checkNativeExport } from "./nativeExportNeeds.js";

const inventorySchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: SECOND, max: DAY }).default(MINUTE),
  discovery: section({
    enabled: boolField().default(false),
    project_ids: nullAsAbsent(list(textField()).default([])),
    region_ids: nullAsAbsent(list(textField(REGION)).default([])),
    max_clusters: intField(1, 100_000).default(5000),
  }).transform((discovery) => ({
    enabled: discovery.enabled,
    projectIds: discovery.project_ids,
    regionIds: discovery.region_ids,
    /**
     * Discovered clusters polled at most (the first by cluster ID); the rest are counted in
     * vdbcloud_discovered_clusters_not_polled and logged once per change of their number.
     */
    maxClusters: discovery.max_clusters,
  })),
  on_demand: boolField().default(true),
}).transform((inventory) => ({
  enabled: inventory.enabled,
  intervalMs: inventory.interval,
  discovery: inventory.discovery,
  /** List On-Demand Clusters per known project and region (shard 0), every interval. */
  onDemand: inventory.on_demand,
}));

/** `inventory`, which also gives native export the clusters' plans (nativeExportNeeds.ts). */
export const INVENTORY_SECTION = configSection("inventory", () => inventorySchema, {
  check: checkNativeExport,
});

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof INVENTORY_SECTION> {}
}
