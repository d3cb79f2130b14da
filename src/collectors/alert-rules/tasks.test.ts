import { describe, expect, it } from "vitest";
import {
  countOf,
  notPermittedErrors,
  pagedService,
  projectListingTaskTests,
  runPagedListing,
  TWO_PROJECTS,
} from "../../../test/helpers/projectListingTask.js";
import type { AlertRule } from "../../upstream/types.js";
import { ALERT_RULES_PAGE_SIZE, alertRulesCollector } from "./tasks.js";

const ENDPOINT = "GET /v2/alertRules";

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

/** A fake service holding `counts[project]` rules per project, paged as asked; `refuse` fails a project's pages. */
const fake = (counts: Record<string, number>, refuse?: (projectId: string) => Error | undefined) =>
  pagedService({ method: "listAlertRules", field: "rules", counts, item: rule, refuse });

describe("the alert rules collector", () => {
  projectListingTaskTests({
    tasks: alertRulesCollector.tasks,
    id: { collector: "alert_rules", target: "organization" },
    endpoint: ENDPOINT,
    intervalMs: 900_000,
    off: [{ alert_rules: { enabled: false } }],
    planned: TWO_PROJECTS,
    families: {
      collector: alertRulesCollector,
      deny: "vdbcloud_console_alert_rule_.*",
      names: [
        "vdbcloud_console_alert_rule_info",
        "vdbcloud_console_alert_rule_enabled",
        "vdbcloud_console_alert_rule_threshold",
        "vdbcloud_console_alert_rule_window_seconds",
        "vdbcloud_console_alert_rule_clusters",
      ],
    },
    service: (refuse) => fake({ p1: 2, p2: 3 }, refuse).client,
    listed: "vdbcloud_console_alert_rule_info",
    partial: {
      what: "a project where the key is not admin",
      part: "p1",
      error: notPermittedErrors(ENDPOINT)[0][1],
      shown: 3,
      message: /96013/,
    },
  });

  it("lists every page of each known project once: 112 rules in two pages, 3 in one", async () => {
    const text = await runPagedListing(alertRulesCollector.tasks, fake, ALERT_RULES_PAGE_SIZE);
    expect(countOf(text, "vdbcloud_console_alert_rule_info")).toBe(115);
    expect(countOf(text, "vdbcloud_console_alert_rule_enabled")).toBe(115);
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
  });
});
