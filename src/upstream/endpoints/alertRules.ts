/**
 * List Alert Rules (v2): GET /v2/alertRules?projectId= (required)&pageSize= (1..100)&currentPage=,
 * the console's own alert rules of one project (a project admin's call): `{count, currentPage,
 * pageSize, alertRules [{id, projectId, ruleName, level, metricName, threshold, windowSize,
 * comparisonMethod, enabled, sendResolved, actions, targetInstanceIds}]}`.
 *
 * Where the reference disagrees with itself, both are read: the comparison is `comparisonMethod`
 * in the sample and `comparisonOperator` in the schema; the targeted clusters are
 * `targetInstanceIds` in one version of the page and `targetClusterIds` in another and in the
 * create examples. `threshold` and `windowSize` (minutes) are strings.
 *
 * A rule's `actions` carry webhook URLs, recipients' e-mail addresses and PagerDuty or Opsgenie
 * keys: they are never read, so nothing past this module can put them into a label, a log line
 * or an error (a schema error names paths and types, never values).
 */
import { z } from "zod";
import { boolish, lenient, lenientText } from "../lenient.js";
import type { AlertRule, AlertRulePage } from "../results.js";
import { numeric, pageDataSchema, pageInfoOf, pageQuery, secondsIn, stringish } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";

/** Arguments of List Alert Rules. Page numbers start at 1. */
interface ListAlertRulesArgs {
  readonly projectId: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

const MINUTE_SECONDS = 60;

const clusterIds = lenient(z.array(stringish));

const alertRuleSchema = z.object({
  id: stringish,
  projectId: lenientText,
  ruleName: lenientText,
  level: lenientText,
  metricName: lenientText,
  threshold: lenient(numeric),
  windowSize: lenient(secondsIn(MINUTE_SECONDS)),
  comparisonMethod: lenientText,
  comparisonOperator: lenientText,
  enabled: lenient(boolish),
  targetInstanceIds: clusterIds,
  targetClusterIds: clusterIds,
});

/** The envelope's `data`; the rules' actions are not part of it. */
export const alertRulesDataSchema = pageDataSchema("alertRules", alertRuleSchema);

type AlertRulesData = z.infer<typeof alertRulesDataSchema>;

/** The clusters a rule targets under either name, each once; null when it names none. */
function targets(rule: z.infer<typeof alertRuleSchema>): readonly string[] | null {
  if (rule.targetInstanceIds === null && rule.targetClusterIds === null) return null;
  return [...new Set([...(rule.targetInstanceIds ?? []), ...(rule.targetClusterIds ?? [])])];
}

/** Maps `data` to a page; a rule that names no project is the asked project's. */
export function normalizeAlertRules(data: AlertRulesData, args: ListAlertRulesArgs): AlertRulePage {
  const rules = (data.alertRules ?? []).map(
    (r): AlertRule => ({
      ruleId: r.id,
      projectId: r.projectId ?? args.projectId,
      ruleName: r.ruleName ?? "",
      metricName: r.metricName ?? "",
      level: r.level ?? "",
      comparison: r.comparisonMethod ?? r.comparisonOperator ?? "",
      threshold: r.threshold,
      windowSeconds: r.windowSize,
      enabled: r.enabled,
      targetClusterIds: targets(r),
    }),
  );
  return { ...pageInfoOf(data, rules.length), rules };
}

/** What the polling schedule of `--check-config` says of this listing: its calls grow with what a run lists. */
const RUN_TIME_COUNT =
  "the console's alert rules: one List Alert Rules page per 100 rules of each project that List Projects V2 lists, counted here for the configured clusters' projects";

/** List Alert Rules (v2). */
export const listAlertRulesEndpoint = defineEndpoint("GET /v2/alertRules", {
  scope: "project",
  paging: PAGES("count"),
  shardZero: true,
  runTimeCount: RUN_TIME_COUNT,
}).as<ListAlertRulesArgs, AlertRulesData, AlertRulePage>({
  request: (args) => ({
    target: V2,
    query: { projectId: args.projectId, ...pageQuery(args) },
  }),
  schema: alertRulesDataSchema,
  normalize: normalizeAlertRules,
});
