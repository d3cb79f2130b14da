/**
 * The console's alert rules and List Alert Rules (GET /v2/alertRules?projectId=&pageSize=
 * (1..100, default 10)&currentPage=), with the reference's shape: `{count, currentPage,
 * pageSize, alertRules [{id, projectId, ruleName, level, metricName, threshold, windowSize,
 * comparisonMethod, enabled, sendResolved, actions, targetInstanceIds}]}`.
 *
 * Every documented variant occurs: the comparison as `comparisonMethod` (the sample) or
 * `comparisonOperator` (the schema), the targets as `targetInstanceIds` or `targetClusterIds`,
 * threshold and windowSize (minutes) as strings. Each project's second rule is disabled (what
 * the demo shows), and so is every seventh. Every rule carries actions with what must never
 * leave the exporter: webhook URLs, recipients' e-mail addresses, PagerDuty and Opsgenie keys,
 * each unique to its rule so that a test can look for every one of them.
 */
import { hashString, hexFromHash, mix } from "./random.js";
import { projectPageParams, type RouteDef } from "./route.js";
import type { World } from "./world.js";

/** One rule as List Alert Rules sends it. */
export type WireAlertRule = Readonly<Record<string, unknown>> & {
  readonly id: string;
  readonly projectId: string;
  readonly enabled: boolean;
  readonly threshold: string;
  readonly windowSize: string;
};

const METRICS = [
  "CU_COMPUTATION",
  "CU_CAPACITY",
  "REQUEST_LATENCY_SEARCH_P99",
  "REQUEST_LATENCY_QUERY_P99",
  "REQ_FAIL_RATE",
] as const;
const THRESHOLDS = ["70", "90", "1000", "800", "5"] as const;
const WINDOWS = ["10", "5", "15", "10", "30"] as const;
const COMPARISONS = [
  "GREATER_THAN",
  "GREATER_THAN_OR_EQUALS",
  "LESS_THAN",
  "LESS_THAN_OR_EQUALS",
  "EQUALS",
] as const;

const RULE_SALT = 0xa1e7;

/** Whether the `i`-th rule of a project is disabled: the second, and every seventh. */
function disabled(i: number): boolean {
  return i === 1 || i % 7 === 6;
}

/** The actions of one rule: every kind that carries an address, a URL or a key. */
function actions(token: string, rule: number): unknown[] {
  const email = `oncall.${token}@example.com`;
  return [
    { type: "EMAIL", config: { recipients: { members: [email], orgRoles: ["OWNER"], projectRoles: [] } } },
    { type: "SMS", config: { recipients: { members: [email], orgRoles: [], projectRoles: ["OWNER"] } } },
    { type: "WEBHOOK", config: { url: `https://hooks.example.com/alerts/${token}?secret=${token}` } },
    ...(rule % 2 === 0
      ? [{ type: "SLACK", config: { webhookUrl: `https://hooks.slack.example/services/T0/B0/${token}` } }]
      : [
          {
            type: "WECOM",
            config: { webhookUrl: `https://qyapi.example/cgi-bin/webhook/send?key=${token}` },
          },
        ]),
    { type: "PAGERDUTY", config: { region: "US", apiKey: `pd-routing-${token}` } },
    { type: "OPSGENIE", config: { region: "EU", apiKey: `og-key-${token}` } },
  ];
}

/** `perProject` rules for each project of `world`, by project ID; the same seed, the same rules. */
export function generateAlertRules(
  world: World,
  seed: number,
  perProject: number,
): ReadonlyMap<string, readonly WireAlertRule[]> {
  const out = new Map<string, WireAlertRule[]>();
  for (const project of world.projects) {
    const clusters = world.clusters.filter((c) => c.projectId === project.id).map((c) => c.id);
    const rules: WireAlertRule[] = [];
    for (let i = 0; i < perProject; i++) {
      // Salted, so that no rule ID shares its digits with an on-demand cluster's.
      const h = mix(mix(mix(seed, RULE_SALT), hashString(project.id)), i);
      const metric = METRICS[i % METRICS.length] ?? "CU_COMPUTATION";
      const level = i % 3 === 0 ? "CRITICAL" : "WARNING";
      const targets = clusters.slice(0, 1 + (i % Math.max(1, clusters.length)));
      rules.push({
        id: `alrt-${hexFromHash(h, 20)}`,
        projectId: project.id,
        ruleName: `${metric.toLowerCase().replace(/_/g, " ")} ${level.toLowerCase()} #${i + 1}`,
        level,
        metricName: metric,
        threshold: THRESHOLDS[i % THRESHOLDS.length] ?? "70",
        windowSize: WINDOWS[i % WINDOWS.length] ?? "10",
        [i % 2 === 0 ? "comparisonMethod" : "comparisonOperator"]: COMPARISONS[i % COMPARISONS.length],
        [i % 3 === 2 ? "targetClusterIds" : "targetInstanceIds"]: targets,
        enabled: !disabled(i),
        sendResolved: i % 2 === 0,
        actions: actions(hexFromHash(mix(h, 7), 24), i),
      });
    }
    out.set(project.id, rules);
  }
  return out;
}

/** The List Alert Rules route over `rules` (by project ID). */
export function alertRuleRoutes(rules: ReadonlyMap<string, readonly WireAlertRule[]>): RouteDef[] {
  return [
    {
      method: "GET",
      path: "/v2/alertRules",
      template: "GET /v2/alertRules",
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const { projectId, pageSize, currentPage, slice } = projectPageParams(r.query);
        const all = rules.get(projectId) ?? [];
        const alertRules = slice(all);
        return { count: all.length, currentPage, pageSize, alertRules };
      },
    },
  ];
}
