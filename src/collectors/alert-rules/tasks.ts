/**
 * The console's alert rules: List Alert Rules for each known project (List Projects V2, and the
 * polled clusters' projects), every page through the one pager, on the replica that owns
 * account-wide calls (shard 0), with the default credential. One task, target "organization";
 * each project is a part of its poll (polling/parts.ts): a project whose listing fails keeps its
 * last good series and is shown on the target's health. A key that is a project admin nowhere is
 * "not permitted" (the one refusal rule of runPoll), one line.
 */

import { type CollectorEnv, type CollectorTask, defineCollector } from "../../polling/model.js";
import { listEveryPage } from "../../polling/pager.js";
import { projectListingTask } from "../../polling/projectTask.js";
import { type AlertRule, type CloudApi, ENDPOINT } from "../../upstream/types.js";
import { ALERT_RULES_SECTION } from "./config.js";
import { CONSOLE_ALERT_RULE_FAMILIES } from "./families.js";
import { mapAlertRules } from "./mapping.js";

const COLLECTOR = "alert_rules";

/** The page size asked for: the documented maximum. */
export const ALERT_RULES_PAGE_SIZE = 100;

/** Every alert rule of `projectId`, each once, read through the pager. */
export function listAllAlertRules(
  client: CloudApi,
  projectId: string,
  signal?: AbortSignal,
): Promise<AlertRule[]> {
  return listEveryPage(
    {
      endpoint: ENDPOINT.listAlertRules,
      pageSize: ALERT_RULES_PAGE_SIZE,
      fetch: (page, s) => client.listAlertRules({ projectId, ...page }, s),
      items: (page) => page.rules,
      key: (rule) => rule.ruleId,
    },
    signal,
  );
}

/** The one task (shard 0, `alert_rules.enabled`), or none. */
function alertRuleTasks(env: CollectorEnv): CollectorTask[] {
  const cfg = env.config.alertRules;
  if (!cfg.enabled) return [];
  return projectListingTask(env, {
    collector: COLLECTOR,
    target: "organization",
    // List Alert Rules: "The current user should be a project admin."
    role: "Project Admin",
    intervalMs: cfg.intervalMs,
    // A page per known project at least (more for a project of over 100 rules).
    endpoint: ENDPOINT.listAlertRules,
    parts: (projects) => projects,
    key: (p) => p.projectId,
    poll: async (client, p, signal) =>
      mapAlertRules(await listAllAlertRules(client, p.projectId, signal), p.projectId),
  });
}

/** The console's own alert rules, per known project, to compare with the exporter's alerts. */
export const alertRulesCollector = defineCollector(COLLECTOR, alertRuleTasks, {
  polls: "the console's alert rules per known project (shard 0)",
  config: ALERT_RULES_SECTION,
  // The console's rules change rarely (PT15M by default); the demo reads them every minute.
  demo: { settings: () => ({ interval: "PT1M" }) },
  areas: [{ title: "Console alert rules", families: CONSOLE_ALERT_RULE_FAMILIES }],
});
