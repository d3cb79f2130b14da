/**
 * The `billing:` section: daily usage and invoices (Query Daily Usage, List Invoices), which need
 * the Organization Owner or Billing Admin role, so usually a key of their own
 * (docs/design.md section 4). The key is only located here; secrets.ts reads it, and a section
 * without one uses the `api` section's key.
 */
import * as z from "zod";
import { settingsSection } from "../../config/camelSettings.js";
import { boolField, durationField, intField } from "../../config/fields.js";
import { apiKeyFields, DAY, HOUR, MINUTE } from "../../config/schema/common.js";
import { ownKeySection, type SectionSettings } from "../../config/section.js";

/** How the service states amounts: `cents` (the reference) or `major` (one guide's example). */
const AMOUNT_UNITS = ["cents", "major"] as const;

/** `billing`, with a key of its own (`api_key` / `api_key_file`; the default key otherwise). */
export const BILLING_SECTION = ownKeySection("billing", {
  enabled: boolField().default(false),
  ...apiKeyFields,
  // Usage data updates hourly: polling faster only spends the billing key's budget.
  interval: durationField({ min: 5 * MINUTE, max: DAY }).default(HOUR),
  /** `cents`: amounts are divided by 100; `major`: taken as they are. */
  amount_unit: z.enum(AMOUNT_UNITS, { error: "must be cents or major" }).default("cents"),
  invoices: settingsSection({
    enabled: boolField().default(true),
    /** Newest invoices exposed, besides every invoice not yet paid. */
    keep: intField(0, 100).default(3),
  }),
});

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof BILLING_SECTION> {}
}
