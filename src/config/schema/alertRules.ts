/**
 * The `alert_rules` section (docs/design.md section 4): the console's own alert rules, read
 * with List Alert Rules per known project on shard 0, so that they can be compared with the
 * exporter's Prometheus alerts.
 */
import { boolField, durationField } from "../fields.js";
import { section } from "../schemaKit.js";
import { DAY, MINUTE, SECOND } from "./common.js";

export const alertRulesSchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(15 * MINUTE),
}).transform((rules) => ({
  enabled: rules.enabled,
  /** Every known project's rules, every page, once per interval: rules change rarely. */
  intervalMs: rules.interval,
}));
