/**
 * The console's own alert rules (docs/metrics.md). No family carries a rule's actions or a
 * creator's address.
 */
import { gauge, signedGauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** The labels of a console alert rule's value families. */
const RULE_LABELS = ["project_id", "rule_id"] as const;
/** When no console alert rule family has a series, whatever else its own entry adds. */
const NO_RULES =
  'no series with alert_rules.enabled false, on shards other than 0, or for a project whose listing has not answered yet; none while the key is not a project admin there (vdbcloud_collector_not_permitted{collector="alert_rules"}); a rule no longer listed loses its series at the next listing';

/** The console's own alert rules: List Alert Rules per known project (shard 0). */
export const CONSOLE_ALERT_RULE_FAMILIES = {
  info: gauge("vdbcloud_console_alert_rule_info", {
    help: "An alert rule of the service's console in labels, always 1: its name, the metric it watches, its level and comparison in lower snake case; never its actions (upstream List Alert Rules).",
    labels: [...RULE_LABELS, "rule_name", "metric_name", "level", "comparison"],
    source: `${ENDPOINT.listAlertRules} id, ruleName, metricName, level (critical, warning), comparisonMethod or comparisonOperator (greater_than, equals, less_than, greater_than_or_equals, less_than_or_equals)`,
    absent: NO_RULES,
  }),
  enabled: gauge("vdbcloud_console_alert_rule_enabled", {
    help: "1 when the console's alert rule is enabled, 0 when it is disabled and will never notify (upstream List Alert Rules enabled).",
    labels: RULE_LABELS,
    unit: "1 or 0",
    source: `${ENDPOINT.listAlertRules} enabled`,
    absent: `${NO_RULES}; none while the answer carries no enabled flag`,
  }),
  // A rule may compare against any number, below zero too.
  threshold: signedGauge("vdbcloud_console_alert_rule_threshold", {
    help: "The threshold of the console's alert rule, as the console holds it, in the unit of its metric (upstream List Alert Rules threshold, a string).",
    labels: RULE_LABELS,
    unit: "the rule's metric's unit, as the console shows it (percent for CU rules, ms for latency)",
    source: `${ENDPOINT.listAlertRules} threshold (a string)`,
    absent: `${NO_RULES}; none while the threshold is absent or not a number`,
  }),
  window: gauge("vdbcloud_console_alert_rule_window_seconds", {
    help: "How long the console's alert rule's condition must hold before it fires, in seconds (upstream List Alert Rules windowSize, minutes x 60).",
    labels: RULE_LABELS,
    source: `${ENDPOINT.listAlertRules} windowSize (minutes, a string)`,
    absent: `${NO_RULES}; none while the window is absent or unreadable`,
  }),
  clusters: gauge("vdbcloud_console_alert_rule_clusters", {
    help: "Clusters the console's alert rule watches, a count (upstream List Alert Rules targetInstanceIds or targetClusterIds).",
    labels: RULE_LABELS,
    unit: "count",
    source: `${ENDPOINT.listAlertRules} targetInstanceIds (targetClusterIds in the create examples)`,
    absent: `${NO_RULES}; none while the rule names no target list`,
  }),
} as const;
