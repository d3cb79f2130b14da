/**
 * The console's alert rules: List Alert Rules for each known project (List Projects V2, and the
 * polled clusters' projects), every page through the one pager, on the replica that owns
 * account-wide calls (shard 0), with the default credential. One task, target "organization";
 * each project is a part of its poll (polling/parts.ts): a project whose listing fails keeps its
 * last good series and is shown on the target's health. A key that is a project admin nowhere is
 * "not permitted" (the one refusal rule of runPoll), one line.
 */

import { defineCollector } from "../../polling/model.js";
import { eachProjectPaged, type ProjectPages, sectionListingTasks } from "../../polling/projectTask.js";
import { type AlertRule, type AlertRulePage, ENDPOINT } from "../../upstream/types.js";
import { ALERT_RULES_SECTION } from "./config.js";
import { CONSOLE_ALERT_RULE_FAMILIES } from "./families.js";
import { mapAlertRules } from "./mapping.js";

const COLLECTOR = "alert_rules";

/** The page size asked for: the documented maximum. */
export const ALERT_RULES_PAGE_SIZE = 100;

/** List Alert Rules of one project, every page: read with `listProjectPages`. */
export const ALERT_RULE_PAGES: ProjectPages<AlertRulePage, AlertRule> = {
  endpoint: ENDPOINT.listAlertRules,
  pageSize: ALERT_RULES_PAGE_SIZE,
  fetch: (client, asked, signal) => client.listAlertRules(asked, signal),
  items: (page) => page.rules,
  key: (rule) => rule.ruleId,
};

/** The one task (shard 0, `alert_rules.enabled`), or none. */
const alertRuleTasks = sectionListingTasks(
  (config) => config.alertRules,
  () => ({
    collector: COLLECTOR,
    target: "organization",
    // List Alert Rules: "The current user should be a project admin."
    role: "Project Admin",
    // A page per known project at least (more for a project of over 100 rules).
    ...eachProjectPaged(ALERT_RULE_PAGES, mapAlertRules),
  }),
);

/** The console's own alert rules, per known project, to compare with the exporter's alerts. */
export const alertRulesCollector = defineCollector(COLLECTOR, alertRuleTasks, {
  polls: "the console's alert rules per known project (shard 0)",
  config: ALERT_RULES_SECTION,
  // The console's rules change rarely (PT15M by default); the demo reads them every minute.
  demo: { settings: () => ({ interval: "PT1M" }) },
  areas: [{ title: "Console alert rules", families: CONSOLE_ALERT_RULE_FAMILIES }],
});
