/**
 * The shipped error-budget rules (config/prometheus/rules/slo.yml): what `npm run rules` renders
 * from config/example.yaml's `slo:` and what `vdbcloud-exporter slo-rules` prints for that file;
 * every alert well formed, with a runbook, a firing and a quiet promtool case per severity; every
 * expression reading the cluster families as either source; a rendering of scaled-down windows
 * that promtool accepts; and the latency threshold's bounds, the canary histogram's.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { withNativeSources } from "../scripts/native.js";
import {
  EXAMPLE_CONFIG_FILE,
  parseThresholds,
  renderShippedSloRules,
  runbookAnchor,
  SLO_FILE,
  THRESHOLDS_FILE,
} from "../scripts/rules.js";
import { parseSloSection } from "../src/slo/config.js";
import { DEFAULT_RUNBOOK_BASE_URL, renderSloRules } from "../src/slo/rules.js";
import { EXPECTED_SLO_ALERTS } from "../src/slo/sloTestkit.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const MAIN = join(ROOT, "dist", "main.js");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

interface Rule {
  readonly record?: string;
  readonly alert?: string;
  readonly expr: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

interface RuleTests {
  readonly rule_files: readonly string[];
  readonly tests: ReadonlyArray<{
    readonly alert_rule_test?: ReadonlyArray<{
      readonly alertname: string;
      readonly exp_alerts?: ReadonlyArray<{ readonly exp_labels?: Record<string, string> }> | null;
    }>;
    readonly promql_expr_test?: ReadonlyArray<{ readonly expr: string }>;
  }>;
}

const shipped = read(SLO_FILE);
const rules = (parse(shipped) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules);
const alerts = rules.filter((r) => r.alert !== undefined);
const records = [...new Set(rules.flatMap((r) => (r.record === undefined ? [] : [r.record])))];
const tests = parse(read("config/prometheus/tests/slo.test.yml")) as RuleTests;
const alertCases = tests.tests.flatMap((t) => t.alert_rule_test ?? []);
const exprTests = tests.tests.flatMap((t) => t.promql_expr_test ?? []);

const promtool = toolOrSkip("promtool");

describe("config/prometheus/rules/slo.yml", () => {
  it("is what `npm run rules` renders from config/example.yaml's slo section", () => {
    expect(
      renderShippedSloRules(read(EXAMPLE_CONFIG_FILE), read(THRESHOLDS_FILE)),
      "run `npm run rules`",
    ).toBe(shipped);
  });

  it("is what `vdbcloud-exporter slo-rules --config config/example.yaml` prints (npm run build first)", () => {
    const r = spawnSync(process.execPath, [MAIN, "slo-rules", "--config", EXAMPLE_CONFIG_FILE], {
      cwd: ROOT,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(shipped);
  });

  it("links the runbooks where thresholds.yml does, and slo-rules does by default", () => {
    expect(parseThresholds(read(THRESHOLDS_FILE)).runbook_base_url).toBe(DEFAULT_RUNBOOK_BASE_URL);
  });

  it("has one alert per SLI, a page (critical) and a ticket (warning) rule each", () => {
    expect(alerts.map((a) => `${a.alert} ${a.labels?.severity}`)).toEqual(EXPECTED_SLO_ALERTS);
  });

  it.each(alerts.map((a) => [`${a.alert} ${a.labels?.severity}`, a] as const))(
    "%s is well formed and links its runbook section in docs/monitoring.md",
    (_name, rule) => {
      const name = rule.alert ?? "";
      expect(name).toMatch(/^Vdbcloud[A-Z][A-Za-z]+$/);
      expect(rule.annotations?.summary).toMatch(/\$labels\.\w+/);
      expect(rule.annotations?.description).toMatch(/\$labels\.\w+/);
      expect(read("docs/monitoring.md")).toMatch(new RegExp(`^#### ${name}\\n\\n\\S`, "m"));
      expect(rule.annotations?.runbook_url).toBe(`${DEFAULT_RUNBOOK_BASE_URL}#${runbookAnchor(name)}`);
      expect(read("docs/slo.md")).toContain(`\`${name}\``);
    },
  );

  it.each(alerts.map((a) => [`${a.alert} ${a.labels?.severity}`, a] as const))(
    "%s fires in a promtool case, and some case at that severity stays quiet",
    (_name, rule) => {
      const cases = alertCases.filter((c) => c.alertname === rule.alert);
      const fires = cases.some((c) =>
        (c.exp_alerts ?? []).some((e) => e.exp_labels?.severity === rule.labels?.severity),
      );
      expect(fires).toBe(true);
      expect(cases.some((c) => (c.exp_alerts ?? []).length === 0)).toBe(true);
    },
  );

  it("has a slow burn that opens a ticket without a page, per SLI", () => {
    for (const name of new Set(alerts.map((a) => a.alert))) {
      const ticketOnly = alertCases.some(
        (c) =>
          c.alertname === name &&
          (c.exp_alerts ?? []).length > 0 &&
          (c.exp_alerts ?? []).every((e) => e.exp_labels?.severity === "warning"),
      );
      expect(ticketOnly, String(name)).toBe(true);
    }
  });

  it("unit tests the recorded series the alerts do not read", () => {
    const tested = exprTests.map((t) => t.expr).join("\n");
    const alertExprs = alerts.map((a) => a.expr).join("\n");
    // The period's ratio is read by the budget left, which is tested.
    const untested = records.filter(
      (r) => !tested.includes(r) && !alertExprs.includes(r) && !r.endsWith("_rate30d"),
    );
    expect(untested).toEqual([]);
    expect(tests.rule_files).toEqual(["../rules/slo.yml"]);
  });

  // A cluster scraped through the service's own endpoint must count as a polled one does.
  it("reads every cluster family as either source, exactly as scripts/native.ts writes it", () => {
    for (const rule of rules) expect(withNativeSources(rule.expr), rule.record ?? rule.alert).toBe(rule.expr);
    expect(shipped).toContain(
      '(vdbcloud_request_failure_ratio{collection_name=""} or on (cluster_id, collection_name, request_type) vdbcloud_cluster:zilliz_request_failures_per_requests:ratio_rate5m{collection_name=""})',
    );
  });

  it.skipIf(promtool.skip)("promtool accepts it and a rendering of scaled-down windows of seconds", () => {
    const scaled = parseSloSection({
      period: "PT10M",
      canary: { latency: { threshold: "PT1S" } },
      windows: {
        page: [{ burn_rate: 14.4, long: "PT1M", short: "PT10S" }],
        ticket: [{ burn_rate: 1, long: "PT5M", short: "PT30S" }],
      },
    });
    if (!scaled.success) throw scaled.error;
    const path = join(tempDir("slo-rules-"), "scaled.yml");
    writeFileSync(path, renderSloRules(scaled.data));
    const r = spawnSync(toolPath(promtool), ["check", "rules", join(ROOT, SLO_FILE), path], {
      encoding: "utf8",
    });
    expect(`${r.stdout}${r.stderr}`).not.toContain("FAILED");
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  });
});
