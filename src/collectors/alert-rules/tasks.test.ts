import { describe, expect } from "vitest";
import { pagedProjectListingTests } from "../../../test/helpers/projectListingTask.js";
import type { AlertRule } from "../../upstream/types.js";
import { ALERT_RULES_PAGE_SIZE, alertRulesCollector } from "./tasks.js";

const rule = (projectId: string, i: number): AlertRule => ({
  ruleId: `${projectId}-rule-${i}`,
  projectId,
  ruleName: `rule ${i}`,
  metricName: "CU_COMPUTATION",
  level: i % 2 === 0 ? "WARNING" : "CRITICAL",
  comparison: "GREATER_THAN",
  threshold: 70 + i,
  windowSeconds: 600,
  enabled: i % 10 !== 3,
  targetClusterIds: ["in01-a"],
});

describe("the alert rules collector", () => {
  pagedProjectListingTests({
    collector: alertRulesCollector,
    section: "alert_rules",
    endpoint: "GET /v2/alertRules",
    method: "listAlertRules",
    field: "rules",
    item: rule,
    pageSize: ALERT_RULES_PAGE_SIZE,
    intervalMs: 900_000,
    names: [
      "vdbcloud_console_alert_rule_info",
      "vdbcloud_console_alert_rule_enabled",
      "vdbcloud_console_alert_rule_threshold",
      "vdbcloud_console_alert_rule_window_seconds",
      "vdbcloud_console_alert_rule_clusters",
    ],
    notAdmin: "a project where the key is not admin",
    shows: (text) => {
      expect(text.match(/^vdbcloud_console_alert_rule_enabled\{/gm)).toHaveLength(115);
      expect(text).toContain(
        'vdbcloud_console_alert_rule_enabled{project_id="proj-big",rule_id="proj-big-rule-103"} 0',
      );
      expect(text).toContain(
        'vdbcloud_console_alert_rule_threshold{project_id="proj-big",rule_id="proj-big-rule-111"} 181',
      );
      expect(text).toContain(
        'vdbcloud_console_alert_rule_window_seconds{project_id="proj-small",rule_id="proj-small-rule-2"} 600',
      );
      expect(text).toContain(
        'vdbcloud_console_alert_rule_clusters{project_id="proj-small",rule_id="proj-small-rule-0"} 1',
      );
    },
  });
});
