/**
 * The `api_keys` section (docs/design.md section 4): the organization's API keys, read with
 * List API Keys on shard 0, for the questions a security review asks (how many, how old, which
 * carry Owner or project Admin) and to check the exporter's own key (`api.key_id`) holds no
 * more than monitoring needs.
 *
 * List API Keys needs an Organization Owner (every key) or a Project Admin (its projects' keys),
 * which a read-only monitoring key is not, so the section may have a key of its own, as billing
 * does (`api_key` / `api_key_file`; the `api` section's key otherwise). The key is only located
 * here; secrets.ts reads it.
 */
import { boolField, durationField } from "../../config/fields.js";
import { apiKeyFields, DAY, HOUR, MINUTE } from "../../config/schema/common.js";
import { ownKeySection, type SectionSettings } from "../../config/section.js";

/**
 * `api_keys`, with a key of its own (`api_key` / `api_key_file`; the default key otherwise): an
 * Organization Owner's, so that the exporter's main key can stay read-only.
 */
export const API_KEYS_SECTION = ownKeySection("api_keys", {
  enabled: boolField().default(true),
  ...apiKeyFields,
  /** Every page of the listing, once per interval: keys are made and revoked by hand, rarely. */
  interval: durationField({ min: MINUTE, max: DAY }).default(HOUR),
  /**
   * The age past which the exporter logs a key as old (a line per change of their number) and
   * `--check-config` states it; VdbcloudApiKeyOld's own threshold is thresholds.yml's, kept
   * equal by hand.
   */
  max_age: durationField({ min: DAY, max: 3650 * DAY }).default(365 * DAY),
});

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof API_KEYS_SECTION> {}
}
