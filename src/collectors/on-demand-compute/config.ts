/**
 * The `on_demand_compute` section (docs/design.md section 4): whether on-demand compute is on
 * for each known project and region, read with Describe On-Demand Compute on shard 0.
 */

import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField } from "../../config/fields.js";
import { DAY, MINUTE, SECOND } from "../../config/schema/common.js";
import { configSection, type SectionSettings } from "../../config/section.js";

const onDemandComputeSchema = settingsSection({
  enabled: boolField().default(true),
  /** One call per known project and region, once per interval: the status changes rarely. */
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(15 * MINUTE),
});

export const ON_DEMAND_COMPUTE_SECTION = configSection("on_demand_compute", () => onDemandComputeSchema);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof ON_DEMAND_COMPUTE_SECTION> {}
}
