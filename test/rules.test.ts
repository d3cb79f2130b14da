/**
 * Alerting and recording rules: promtool accepts them and their unit tests pass, every alert
 * is well formed (severity, summary, description with labels), is tested both firing and not
 * firing, links its runbook section in docs/monitoring.md, and carries the thresholds of
 * config/prometheus/thresholds.yml.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { NATIVE_LEVELS, NATIVE_SOURCES, recordsOf, withNativeSources } from "../scripts/native.js";
import {
  ALERTS_FILE,
  MONITORING_DOC_FILE,
  NATIVE_FILE,
  parseThresholds,
  RECORDING_FILE,
  renderAlerts,
  renderMonitoringDoc,
  renderNativeRules,
  renderRecording,
  runbookAnchor,
  THRESHOLDS_FILE,
} from "../scripts/rules.js";
import { PLANNED_OPERATION_STATUSES } from "../src/collectors/inventory/mapping.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const PROMETHEUS_DIR = join(ROOT, "config", "prometheus");
const RULES_DIR = join(PROMETHEUS_DIR, "rules");
const TESTS_DIR = join(PROMETHEUS_DIR, "tests");

interface Rule {
  readonly alert?: string;
  readonly record?: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

interface RuleFile {
  readonly groups: ReadonlyArray<{ readonly name: string; readonly rules: readonly Rule[] }>;
}

interface AlertCase {
  readonly alertname: string;
  readonly exp_alerts?: readonly unknown[] | null;
}

interface RuleTestFile {
  readonly rule_files: readonly string[];
  readonly tests: ReadonlyArray<{
    readonly alert_rule_test?: readonly AlertCase[];
    readonly promql_expr_test?: ReadonlyArray<{ readonly expr: string }>;
  }>;
}

function loadYaml<T>(path: string): T {
  return parse(readFileSync(path, "utf8")) as T;
}

function rulesOf(file: string): Rule[] {
  return loadYaml<RuleFile>(join(RULES_DIR, file)).groups.flatMap((g) => g.rules);
}

const alerts = rulesOf("alerts.yml");
const recordings = rulesOf("recording.yml");
const nativeRecordings = rulesOf("native.yml");
const testFiles = readdirSync(TESTS_DIR)
  .filter((f) => f.endsWith(".yml"))
  .map((f) => join(TESTS_DIR, f));
const ruleTests = testFiles.map((f) => loadYaml<RuleTestFile>(f));
/**
 * Alerts off until their threshold is set (`.inf` in thresholds.yml, a budget) cannot fire in
 * the shipped rules: tests/budget/ tests them against alerts.yml rendered with a budget.
 */
const BUDGET_DIR = join(TESTS_DIR, "budget");
const BUDGET = 5000;
const budgetTestFiles = readdirSync(BUDGET_DIR)
  .filter((f) => f.endsWith(".yml"))
  .map((f) => join(BUDGET_DIR, f));
const offUntilSet = Object.entries(parseThresholds(readFileSync(join(ROOT, THRESHOLDS_FILE), "utf8")).alerts)
  .filter(([, t]) => t.threshold === Number.POSITIVE_INFINITY)
  .map(([name]) => name);
const alertCases = [...ruleTests, ...budgetTestFiles.map((f) => loadYaml<RuleTestFile>(f))].flatMap((t) =>
  t.tests.flatMap((c) => c.alert_rule_test ?? []),
);
const exprTests = ruleTests.flatMap((t) => t.tests.flatMap((c) => c.promql_expr_test ?? []));

/** What the alerting brief asks for; renaming one of these breaks users' routing and silences. */
const REQUIRED_ALERTS = [
  "VdbcloudExporterDown",
  "VdbcloudExporterNotPolling",
  "VdbcloudCollectorTargetFailing",
  "VdbcloudCollectorStalled",
  "VdbcloudMetricsDataStale",
  "VdbcloudApiRateLimited",
  "VdbcloudCuComputationHigh",
  "VdbcloudCuCapacityHigh",
  "VdbcloudRequestLatencyHigh",
  "VdbcloudRequestFailureRatioHigh",
  "VdbcloudClusterNotRunning",
  "VdbcloudImportJobFailed",
  "VdbcloudSparkJobFailed",
  "VdbcloudSparkPrecheckFailed",
  "VdbcloudConfigReloadFailed",
  "VdbcloudConsoleAlertRuleDisabled",
  "VdbcloudPrivateEndpointNotAvailable",
  "VdbcloudApiKeyExcessPrivilege",
  "VdbcloudApiKeyOld",
  "VdbcloudPipelineNotServing",
];

const promtool = toolOrSkip("promtool");

function runPromtool(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(toolPath(promtool), args, { cwd: ROOT, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("promtool", () => {
  // These run the real promtool; without it they are skipped with a printed notice (CI fails instead).
  it.skipIf(promtool.skip)("check rules accepts alerts.yml, recording.yml and native.yml", () => {
    const { status, output } = runPromtool(
      "check",
      "rules",
      join(RULES_DIR, "alerts.yml"),
      join(RULES_DIR, "recording.yml"),
      join(RULES_DIR, "native.yml"),
    );
    expect(output).toContain(`SUCCESS: ${alerts.length} rules found`);
    expect(output).toContain(`SUCCESS: ${recordings.length} rules found`);
    expect(output).toContain(`SUCCESS: ${nativeRecordings.length} rules found`);
    expect(status, output).toBe(0);
  });

  it.skipIf(promtool.skip)("test rules passes every unit test", () => {
    const { status, output } = runPromtool("test", "rules", ...testFiles);
    expect(output, output).not.toContain("FAILED");
    expect(status, output).toBe(0);
  });

  it.skipIf(promtool.skip)("test rules fires the alerts that are off until set, once they are set", () => {
    expect(offUntilSet).toContain("VdbcloudProjectedMonthlyCostOverBudget");
    const dir = tempDir("rules-budget-");
    const thresholds = readFileSync(join(ROOT, THRESHOLDS_FILE), "utf8").replace(
      /^(\s+(\w+): \{ threshold: )\.inf(,)/gm,
      (line, head: string, name: string, comma: string) =>
        offUntilSet.includes(name) ? `${head}${BUDGET}${comma}` : line,
    );
    const rendered = renderAlerts(readFileSync(join(ROOT, ALERTS_FILE), "utf8"), thresholds);
    expect(rendered).toContain(`> ${BUDGET}`);
    writeFileSync(join(dir, "alerts.yml"), rendered);
    const files = budgetTestFiles.map((f) => {
      const copy = join(dir, f.slice(BUDGET_DIR.length + 1));
      copyFileSync(f, copy);
      return copy;
    });
    const { status, output } = runPromtool("test", "rules", ...files);
    expect(output, output).not.toContain("FAILED");
    expect(status, output).toBe(0);
  });

  it.skipIf(promtool.skip)("check config accepts the example prometheus.yml and its rule files", () => {
    const { status, output } = runPromtool("check", "config", join(PROMETHEUS_DIR, "prometheus.yml"));
    expect(output).toContain("SUCCESS: 4 rule files found");
    expect(status, output).toBe(0);
  });
});

describe("alert rules", () => {
  it("define every required alert exactly once", () => {
    const names = alerts.map((a) => a.alert);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(REQUIRED_ALERTS));
  });

  it.each(alerts.map((a) => [a.alert ?? "(unnamed)", a] as const))("%s is well formed", (name, rule) => {
    expect(name).toMatch(/^Vdbcloud[A-Z][A-Za-z]+$/);
    expect(["critical", "warning", "info"]).toContain(rule.labels?.severity);
    expect(rule.annotations?.summary).toMatch(/\$labels\.\w+/);
    expect(rule.annotations?.description).toMatch(/\$labels\.\w+/);
    if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
  });

  it.each(alerts.map((a) => [a.alert ?? "(unnamed)"] as const))(
    "%s has a unit test that fires it and one that does not",
    (name) => {
      const cases = alertCases.filter((c) => c.alertname === name);
      expect(cases.some((c) => (c.exp_alerts ?? []).length > 0)).toBe(true);
      expect(cases.some((c) => (c.exp_alerts ?? []).length === 0)).toBe(true);
    },
  );

  it.each(alerts.map((a) => [a.alert ?? "(unnamed)", a] as const))(
    "%s links its runbook section in docs/monitoring.md",
    (name, rule) => {
      const doc = readFileSync(join(ROOT, "docs", "monitoring.md"), "utf8");
      // A heading whose GitHub anchor is the URL's fragment, with a paragraph of what to do.
      expect(doc).toMatch(new RegExp(`^#### ${name}\\n\\n\\S`, "m"));
      expect(rule.annotations?.runbook_url).toMatch(
        new RegExp(`^https://\\S+/docs/monitoring\\.md#${runbookAnchor(name)}$`),
      );
    },
  );

  it("alerts.yml is what `npm run rules` makes of thresholds.yml (thresholds, for, runbook links)", () => {
    const current = readFileSync(join(ROOT, ALERTS_FILE), "utf8");
    const rendered = renderAlerts(current, readFileSync(join(ROOT, THRESHOLDS_FILE), "utf8"));
    expect(rendered, "run `npm run rules`").toBe(current);
  });
});

describe("recording rules", () => {
  it.each(recordings.map((r) => [r.record ?? "(unnamed)"] as const))(
    "%s is named level:metric:operations and unit tested",
    (name) => {
      expect(name).toMatch(/^vdbcloud:[a-z0-9_]+:[a-z0-9_]+$/);
      expect(exprTests.map((t) => t.expr)).toContain(name);
    },
  );

  it("unit test files load the rule files, and some load each", () => {
    const files = [
      "../rules/alerts.yml",
      "../rules/recording.yml",
      "../rules/native.yml",
      "../rules/slo.yml",
    ];
    for (const t of ruleTests) {
      for (const f of t.rule_files) expect(files).toContain(f);
    }
    expect(ruleTests.flatMap((t) => t.rule_files)).toEqual(expect.arrayContaining(files));
  });

  it("recording.yml is what `npm run rules` makes of it (rules over cluster families read either source)", () => {
    const current = readFileSync(join(ROOT, RECORDING_FILE), "utf8");
    expect(renderRecording(current), "run `npm run rules`").toBe(current);
  });
});

describe("native recording rules (native.yml, from scripts/native.ts)", () => {
  it("native.yml is what `npm run rules` renders from the table", () => {
    expect(readFileSync(join(ROOT, NATIVE_FILE), "utf8"), "run `npm run rules`").toBe(renderNativeRules());
  });

  it("docs/monitoring.md lists them as the table has them", () => {
    const doc = readFileSync(join(ROOT, MONITORING_DOC_FILE), "utf8");
    expect(renderMonitoringDoc(doc), "run `npm run rules`").toBe(doc);
    for (const s of NATIVE_SOURCES) for (const r of recordsOf(s)) expect(doc).toContain(`\`${r}\``);
  });

  const levels = Object.values(NATIVE_LEVELS).join("|");
  it.each([...new Set(nativeRecordings.map((r) => r.record ?? "(unnamed)"))].map((n) => [n] as const))(
    "%s is named level:metric:operations after a native family, and unit tested",
    (name) => {
      expect(name).toMatch(new RegExp(`^(${levels}):zilliz_[a-z0-9_]+:[a-z0-9_]+$`));
      expect(exprTests.some((t) => t.expr === name || t.expr.startsWith(`${name}{`))).toBe(true);
    },
  );

  // A test of "either source" written out by hand must be the expansion the table writes now,
  // or it tests a join no dashboard or alert uses.
  it("tests the either-source joins as withNativeSources writes them, none on db_name", () => {
    const joins = exprTests.filter((t) => / or on \(/.test(t.expr));
    expect(joins.length).toBeGreaterThan(0);
    for (const t of joins) {
      expect(withNativeSources(t.expr), t.expr).toBe(t.expr);
      expect(t.expr).not.toMatch(/\bon \([^)]*\bdb_name\b/);
    }
  });

  it("keep exactly the labels of the exporter's family they stand in for", () => {
    for (const rule of nativeRecordings) {
      const source = NATIVE_SOURCES.find((s) => recordsOf(s).includes(rule.record ?? ""));
      const labels = source?.family.doc?.labels ?? [];
      for (const kept of rule.expr.matchAll(/\bby \(([^)]*)\)/g)) {
        const names = (kept[1] ?? "").split(",").map((l) => l.trim());
        expect(labels, `${rule.record}: ${rule.expr}`).toEqual(
          expect.arrayContaining(names.filter((l) => l !== "le")),
        );
      }
      for (const label of Object.keys(rule.labels ?? {}))
        expect(labels, String(rule.record)).toContain(label);
    }
  });
});

describe("cluster status alerts", () => {
  const exprOf = (name: string): string => alerts.find((a) => a.alert === name)?.expr ?? "";
  const listed = (expr: string, op: string): string[] =>
    (new RegExp(`status${op}"([^"]*)"`).exec(expr)?.[1] ?? "").split("|").sort();

  it("leave exactly the planned operations (PLANNED_OPERATION_STATUSES) to their own alert", () => {
    const planned = [...PLANNED_OPERATION_STATUSES].sort();
    expect(listed(exprOf("VdbcloudClusterOperationLongRunning"), "=~")).toEqual(planned);
    expect(listed(exprOf("VdbcloudClusterNotRunning"), "!~")).toEqual(["running", ...planned].sort());
  });
});
