/**
 * The `alert_rules` section (docs/design.md section 4): the console's own alert rules, read
 * with List Alert Rules per known project on shard 0, so that they can be compared with the
 * exporter's Prometheus alerts.
 */

import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField } from "../../config/fields.js";
import { DAY, MINUTE, SECOND } from "../../config/schema/common.js";
import { configSection, type SectionSettings } from "../../config/section.js";

const alertRulesSchema = settingsSection({
  enabled: boolField().default(true),
  /** Every known project's rules, every page, once per interval: rules change rarely. */
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(15 * MINUTE),
});

export const ALERT_RULES_SECTION = configSection("alert_rules", () => alertRulesSchema);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof ALERT_RULES_SECTION> {}
}
