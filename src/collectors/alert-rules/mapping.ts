/** Pure mapping of List Alert Rules (the console's own rules) to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import { lowerSnakeCase } from "../../metrics/snakeCase.js";
import type { AlertRule } from "../../upstream/types.js";
import { CONSOLE_ALERT_RULE_FAMILIES as R } from "./families.js";

/**
 * Maps one project's rules to vdbcloud_console_alert_rule_info{project_id,rule_id,rule_name,
 * metric_name,level,comparison} 1 (level and comparison in lower snake case, "" when absent)
 * and, each under {project_id,rule_id} and only when the answer gave it:
 * vdbcloud_console_alert_rule_enabled 1/0, vdbcloud_console_alert_rule_threshold as given,
 * vdbcloud_console_alert_rule_window_seconds and vdbcloud_console_alert_rule_clusters (the
 * number of targeted clusters). A rule of another project (a server that ignored the filter) is
 * left to that project's listing. A rule listed twice is left to the pager, which keeps its first
 * listing (tasks.ts keys the listing by ruleId). The rules' actions never reach this layer
 * (upstream/alertRules.ts does not read them).
 */
export function mapAlertRules(rules: readonly AlertRule[], projectId: string): MappingResult {
  const out = new MappingBuilder();
  for (const r of rules) {
    if (r.projectId !== projectId) continue;
    const id = { project_id: projectId, rule_id: r.ruleId };
    out.add(
      R.info,
      {
        ...id,
        rule_name: r.ruleName,
        metric_name: r.metricName,
        level: lowerSnakeCase(r.level),
        comparison: lowerSnakeCase(r.comparison),
      },
      1,
    );
    if (r.enabled !== null) out.add(R.enabled, id, r.enabled ? 1 : 0);
    if (r.threshold !== null && Number.isFinite(r.threshold)) out.add(R.threshold, id, r.threshold);
    if (r.windowSeconds !== null && Number.isFinite(r.windowSeconds)) out.add(R.window, id, r.windowSeconds);
    if (r.targetClusterIds !== null) out.add(R.clusters, id, r.targetClusterIds.length);
  }
  return out.result();
}
