import { describe, expect, it } from "vitest";
import { listProjectPages } from "../../polling/projectTask.js";
import { REFERENCE_ALERT_RULES } from "../../upstream/consoleTestkit.js";
import { alertRulesDataSchema, normalizeAlertRules } from "../../upstream/endpoints/alertRules.js";
import type { AlertRule, AlertRulePage, CloudApi } from "../../upstream/types.js";
import { mapAlertRules } from "./mapping.js";
import { ALERT_RULE_PAGES } from "./tasks.js";

const RULE: AlertRule = {
  ruleId: "rule-1",
  projectId: "proj-1",
  ruleName: "CU high",
  metricName: "CU_COMPUTATION",
  level: "WARNING",
  comparison: "GREATER_THAN",
  threshold: 70,
  windowSeconds: 600,
  enabled: true,
  targetClusterIds: ["in01-a", "in01-b"],
};

const ID = { project_id: "proj-1", rule_id: "rule-1" };

/**
 * The five samples of one rule, in the order mapAlertRules writes them: its info series (`id`
 * and `info` as labels) and its four value series (`id` as labels).
 */
function ruleSamples(
  id: Record<string, string>,
  info: { rule_name: string; metric_name: string; level: string; comparison: string },
  values: { enabled: number; threshold: number; window_seconds: number; clusters: number },
) {
  return [
    { family: "vdbcloud_console_alert_rule_info", labels: { ...id, ...info }, value: 1 },
    { family: "vdbcloud_console_alert_rule_enabled", labels: id, value: values.enabled },
    { family: "vdbcloud_console_alert_rule_threshold", labels: id, value: values.threshold },
    { family: "vdbcloud_console_alert_rule_window_seconds", labels: id, value: values.window_seconds },
    { family: "vdbcloud_console_alert_rule_clusters", labels: id, value: values.clusters },
  ];
}
const sampleOf = (rule: Partial<AlertRule>, family: string) =>
  mapAlertRules([{ ...RULE, ...rule }], "proj-1").samples.find((s) => s.family === family)?.value;
const infoOf = (rule: Partial<AlertRule>) =>
  mapAlertRules([{ ...RULE, ...rule }], "proj-1").samples.find(
    (s) => s.family === "vdbcloud_console_alert_rule_info",
  )?.labels;

describe("mapAlertRules", () => {
  it("maps a rule to its info and values", () => {
    expect(mapAlertRules([RULE], "proj-1").samples).toEqual(
      ruleSamples(
        ID,
        { rule_name: "CU high", metric_name: "CU_COMPUTATION", level: "warning", comparison: "greater_than" },
        { enabled: 1, threshold: 70, window_seconds: 600, clusters: 2 },
      ),
    );
  });

  it.each([
    ["CRITICAL", "critical"],
    ["WARNING", "warning"],
    ["Warning", "warning"],
    ["", ""],
  ])("level %j -> %j", (level, want) => {
    expect(infoOf({ level })?.level).toBe(want);
  });

  it.each([
    ["GREATER_THAN", "greater_than"],
    ["EQUALS", "equals"],
    ["LESS_THAN", "less_than"],
    ["GREATER_THAN_OR_EQUALS", "greater_than_or_equals"],
    ["LESS_THAN_OR_EQUALS", "less_than_or_equals"],
    ["NotEquals", "not_equals"],
  ])("comparison %j -> %j", (comparison, want) => {
    expect(infoOf({ comparison })?.comparison).toBe(want);
  });

  it.each<[string, Partial<AlertRule>, string, number | undefined]>([
    ["a disabled rule", { enabled: false }, "vdbcloud_console_alert_rule_enabled", 0],
    ["enabled unknown", { enabled: null }, "vdbcloud_console_alert_rule_enabled", undefined],
    ["a fractional threshold", { threshold: 0.5 }, "vdbcloud_console_alert_rule_threshold", 0.5],
    ["a threshold of 0", { threshold: 0 }, "vdbcloud_console_alert_rule_threshold", 0],
    ["no threshold", { threshold: null }, "vdbcloud_console_alert_rule_threshold", undefined],
    ["a window of 1 minute", { windowSeconds: 60 }, "vdbcloud_console_alert_rule_window_seconds", 60],
    ["no window", { windowSeconds: null }, "vdbcloud_console_alert_rule_window_seconds", undefined],
    ["no target cluster", { targetClusterIds: [] }, "vdbcloud_console_alert_rule_clusters", 0],
    ["no target list", { targetClusterIds: null }, "vdbcloud_console_alert_rule_clusters", undefined],
  ])("%s", (_name, rule, family, want) => {
    expect(sampleOf(rule, family)).toBe(want);
  });

  it("leaves a rule of another project to that project's listing", () => {
    expect(mapAlertRules([{ ...RULE, projectId: "proj-2" }], "proj-1").samples).toEqual([]);
  });

  it("exposes a rule listed twice once, as first listed", async () => {
    // Listed through the pager, which keeps a rule listed again (the listing moved between
    // pages) as first listed: page 2 repeats rule-1, changed. Page 1's other rule is another
    // project's (a server that ignored the filter), so the mapping shows rule-1 alone.
    const pages: AlertRule[][] = [
      [{ ...RULE, ruleId: "rule-other", projectId: "proj-2" }, RULE],
      [{ ...RULE, ruleName: "renamed", threshold: 90 }],
    ];
    const client = {
      listAlertRules: async (args: { currentPage: number }): Promise<AlertRulePage> => {
        const rules = pages[args.currentPage - 1] ?? [];
        return { total: null, currentPage: args.currentPage, pageSize: 2, listed: rules.length, rules };
      },
    } as unknown as CloudApi;
    const r = mapAlertRules(await listProjectPages(ALERT_RULE_PAGES, client, "proj-1"), "proj-1");
    expect(r.samples).toHaveLength(5);
    expect(r.samples.find((s) => s.family === "vdbcloud_console_alert_rule_threshold")?.value).toBe(70);
  });

  it("maps the reference's sample, word for word, without its actions", () => {
    const page = normalizeAlertRules(alertRulesDataSchema.parse(REFERENCE_ALERT_RULES), {
      projectId: "proj-b44a39b0c51cf21791a841",
      pageSize: 10,
      currentPage: 1,
    });
    const r = mapAlertRules(page.rules, "proj-b44a39b0c51cf21791a841");
    const id = { project_id: "proj-b44a39b0c51cf21791a841", rule_id: "12391290837zs09sad0d09123" };
    expect(r.samples).toEqual(
      ruleSamples(
        id,
        {
          rule_name: "my alert name",
          metric_name: "REQUEST_LATENCY_SEARCH_P99",
          // The sample's level is both levels in one string.
          level: "critical_warning",
          comparison: "greater_than",
        },
        { enabled: 1, threshold: 70, window_seconds: 600, clusters: 1 },
      ),
    );
    expect(JSON.stringify(r)).not.toMatch(/your-email|xxxx|apiKey|PAGERDUTY|OPSGENIE/);
  });

  it("declares every family it uses with a HELP naming List Alert Rules", () => {
    const r = mapAlertRules([RULE], "proj-1");
    expect(r.families.map((f) => f.name)).toEqual([
      "vdbcloud_console_alert_rule_info",
      "vdbcloud_console_alert_rule_enabled",
      "vdbcloud_console_alert_rule_threshold",
      "vdbcloud_console_alert_rule_window_seconds",
      "vdbcloud_console_alert_rule_clusters",
    ]);
    for (const f of r.families) expect(f.help).toMatch(/\(upstream List Alert Rules[^)]*\)\.$/);
  });
});
