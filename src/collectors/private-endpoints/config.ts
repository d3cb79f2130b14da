/**
 * The `private_endpoints` section (docs/design.md section 4): each known project's private
 * endpoints, read with List Private Endpoints on shard 0, so that an endpoint that leaves
 * AVAILABLE (every client in that VPC loses the cluster, which still shows RUNNING) is seen.
 */

import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField } from "../../config/fields.js";
import { DAY, MINUTE, SECOND } from "../../config/schema/common.js";
import { configSection, type SectionSettings } from "../../config/section.js";

const privateEndpointsSchema = settingsSection({
  enabled: boolField().default(true),
  /** Every known project's endpoints, every page, once per interval: endpoints change rarely. */
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(15 * MINUTE),
});

export const PRIVATE_ENDPOINTS_SECTION = configSection("private_endpoints", () => privateEndpointsSchema);

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof PRIVATE_ENDPOINTS_SECTION> {}
}
