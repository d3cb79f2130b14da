/**
 * The `pipelines` section (docs/design.md section 4): each known project's pipelines in each
 * known region, read with List Pipelines (V1) at the region's controller on shard 0.
 */

import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField } from "../../config/fields.js";
import { DAY, MINUTE, SECOND } from "../../config/schema/common.js";
import { configSection, type SectionSettings } from "../../config/section.js";

const pipelinesSchema = settingsSection({
  enabled: boolField().default(true),
  /**
   * One List Pipelines call per known project and region, once per interval: token usage grows
   * while a pipeline works. A region whose controller offers no pipelines is asked once a day.
   */
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(5 * MINUTE),
});

export const PIPELINES_SECTION = configSection("pipelines", () => pipelinesSchema);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof PIPELINES_SECTION> {}
}
