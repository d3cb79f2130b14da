/**
 * scripts/rules.ts: thresholds.yml rewrites thresholds, `for`, quoted figures and runbook links;
 * rules over cluster families read either source; native.yml and its docs table are rendered.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { NATIVE_SOURCES, nativeRuleGroups } from "../scripts/native.js";
import {
  durationWords,
  formatThreshold,
  NATIVE_DOC_BEGIN,
  NATIVE_DOC_END,
  RulesRenderError,
  renderAlerts,
  renderMonitoringDoc,
  renderNativeRules,
  renderRecording,
} from "../scripts/rules.js";

const ALERTS = `# a comment that must survive
groups:
  - name: g
    rules:
      - alert: CpuHigh
        expr: cpu_ratio{x=""} > 0.85
        for: 15m
        labels:
          severity: warning
        annotations:
          summary: "CPU at {{ $value | humanizePercentage }}"
          description: "Above 85% for 15 minutes, not 185% nor 0.85%."
      - alert: Slow
        expr: latency_seconds > 1
        annotations:
          description: "Slower than 1s."
      - alert: Down
        expr: up == 0
`;

const BASE = "https://git.example.org/docs/monitoring.md";

function thresholds(alerts: string): string {
  return `runbook_base_url: ${BASE}\nalerts:\n${alerts}`;
}

type Rule = { alert: string; expr: string; for?: string; annotations: Record<string, string> };
function rules(text: string): Rule[] {
  return (parse(text) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules);
}

describe("renderAlerts", () => {
  it("rewrites the threshold, the for and the figures quoted in prose; keeps comments", () => {
    const out = renderAlerts(
      ALERTS,
      thresholds("  CpuHigh: { threshold: 0.7, for: 10m }\n  Slow: { threshold: 2.5, for: 5m }\n"),
    );
    const [cpu, slow, down] = rules(out);
    expect(out.startsWith("# a comment that must survive\n")).toBe(true);
    expect(cpu?.expr).toBe('cpu_ratio{x=""} > 0.7');
    expect(cpu?.for).toBe("10m");
    expect(cpu?.annotations.description).toBe("Above 70% for 10 minutes, not 185% nor 0.85%.");
    expect(cpu?.annotations.summary).toBe("CPU at {{ $value | humanizePercentage }}");
    expect(slow?.expr).toBe("latency_seconds > 2.5");
    expect(slow?.for).toBe("5m");
    expect(slow?.annotations.description).toBe("Slower than 2.5s.");
    expect(down?.expr).toBe("up == 0");
    expect(down?.annotations.runbook_url).toBe(`${BASE}#down`);
    expect(cpu?.annotations.runbook_url).toBe(`${BASE}#cpuhigh`);
  });

  it("writes .inf as PromQL's Inf (an alert off until set), and a set value over it", () => {
    const off = renderAlerts(ALERTS, thresholds("  Slow: { threshold: .inf, for: 5m }\n"));
    expect(rules(off)[1]?.expr).toBe("latency_seconds > Inf");
    expect(renderAlerts(off, thresholds("  Slow: { threshold: .inf, for: 5m }\n"))).toBe(off);
    const set = renderAlerts(off, thresholds("  Slow: { threshold: 5000, for: 5m }\n"));
    expect(rules(set)[1]?.expr).toBe("latency_seconds > 5000");
  });

  it("is idempotent: rendering its own output changes nothing", () => {
    const t = thresholds("  CpuHigh: { threshold: 0.9, for: 1h }\n");
    const once = renderAlerts(ALERTS, t);
    expect(renderAlerts(once, t)).toBe(once);
  });

  it.each([
    {
      name: "an alert that does not exist",
      alerts: "  Nope: { threshold: 1, for: 5m }\n",
      error: /alerts\.Nope: no such alert/,
    },
    {
      name: "a threshold that is not a number",
      alerts: "  CpuHigh: { threshold: high, for: 5m }\n",
      error: /alerts\.CpuHigh\.threshold/,
    },
    {
      name: "a duration Prometheus does not read",
      alerts: "  CpuHigh: { threshold: 1, for: PT5M }\n",
      error: /alerts\.CpuHigh\.for: a Prometheus duration/,
    },
    {
      name: "an unknown key",
      alerts: "  CpuHigh: { threshold: 1, for: 5m, severity: page }\n",
      error: /alerts\.CpuHigh/,
    },
  ])("refuses $name, naming it", ({ alerts, error }) => {
    expect(() => renderAlerts(ALERTS, thresholds(alerts))).toThrow(error);
    expect(() => renderAlerts(ALERTS, thresholds(alerts))).toThrow(RulesRenderError);
  });

  it("refuses a threshold on an alert whose expression ends without a number", () => {
    const alerts = ALERTS.replace("expr: up == 0", "expr: up == bool 0 unless absent(x)");
    expect(() => renderAlerts(alerts, thresholds("  Down: { threshold: 1, for: 5m }\n"))).toThrow(
      /Down: its expr must end with a comparison to a number/,
    );
  });

  it("refuses a runbook base that is not an http(s) URL", () => {
    expect(() => renderAlerts(ALERTS, "runbook_base_url: docs/monitoring.md\nalerts: {}\n")).toThrow(
      /runbook_base_url/,
    );
  });
});

describe("formatting", () => {
  it.each([
    { expr: "a_ratio > 0.05", value: 0.05, text: "5%" },
    { expr: "a_ratio > 0.07", value: 0.07, text: "7%" },
    { expr: "a_seconds > 1", value: 1, text: "1s" },
    { expr: "time() - b_timestamp_seconds > 300", value: 300, text: "5m" },
    { expr: "time() - c_timestamp_seconds > 31536000", value: 31_536_000, text: "365d" },
    { expr: "a_seconds > 21600", value: 21_600, text: "360m" },
    { expr: "rate(x[5m]) > 50", value: 50, text: "50" },
  ])("$expr: $value reads $text", ({ expr, value, text }) => {
    expect(formatThreshold(expr, value)).toBe(text);
  });

  it.each([
    ["10m", "10 minutes"],
    ["1h", "1 hour"],
    ["30s", "30 seconds"],
  ])("%s reads %s", (d, words) => {
    expect(durationWords(d)).toBe(words);
  });
});

describe("either source", () => {
  const CLUSTER_ALERT = `groups:
  - name: g
    rules:
      # kept
      - alert: Hot
        expr: vdbcloud_cu_computation_ratio{collection_name=""} > 0.85
        for: 15m
        annotations:
          description: "Above 85%."
`;

  it("alerts over a cluster family read it or its native recording, then take the threshold", () => {
    const out = renderAlerts(CLUSTER_ALERT, thresholds("  Hot: { threshold: 0.7, for: 10m }\n"));
    const [hot] = rules(out);
    expect(hot?.expr).toBe(
      '(vdbcloud_cu_computation_ratio{collection_name=""} or on (cluster_id, collection_name) vdbcloud_cluster:zilliz_cluster_computation:max{collection_name=""}) > 0.7',
    );
    expect(hot?.annotations.description).toBe("Above 70%.");
    expect(out).toContain("# kept");
    expect(renderAlerts(out, thresholds("  Hot: { threshold: 0.7, for: 10m }\n"))).toBe(out);
  });

  it("names the rule whose expression cannot read either source", () => {
    const ranged = CLUSTER_ALERT.replace(
      'vdbcloud_cu_computation_ratio{collection_name=""}',
      "avg_over_time(vdbcloud_cu_computation_ratio[1h])",
    );
    expect(() => renderAlerts(ranged, thresholds("  Hot: { threshold: 0.7, for: 10m }\n"))).toThrow(
      /alerts\.yml: Hot: .*range or with offset/,
    );
    expect(() => renderRecording(ranged.replace("alert: Hot", "record: a:b:c"))).toThrow(RulesRenderError);
  });

  it("rewrites recording rules over cluster families and leaves the others' text alone", () => {
    const text = `# head
groups:
  - name: r
    rules:
      - record: vdbcloud:x:sum
        expr: sum without (request_type) (vdbcloud_requests_per_second{collection_name=""})
      - record: vdbcloud:y:rate5m
        expr: |
          sum(rate(vdbcloud_api_requests_total[5m]))
`;
    const out = renderRecording(text);
    expect(out).toContain("# head");
    expect(out).toContain('vdbcloud_cluster:zilliz_requests:rate5m{collection_name=""}');
    expect(out).toContain("expr: |\n          sum(rate(vdbcloud_api_requests_total[5m]))\n");
    expect(renderRecording(out)).toBe(out);
  });

  it("renders native.yml: both groups, every rule of the table with its labels, a comment per family", () => {
    const out = renderNativeRules();
    const doc = parse(out) as {
      groups: Array<{ name: string; rules: Array<{ record: string; expr: string; labels?: object }> }>;
    };
    const rendered = doc.groups.flatMap((g) => g.rules);
    const table = nativeRuleGroups().flatMap((g) => g.rules);
    expect(doc.groups.map((g) => g.name)).toEqual(nativeRuleGroups().map((g) => g.name));
    expect(rendered).toEqual(table.map((r) => ({ ...r })));
    expect(rendered.length).toBe(NATIVE_SOURCES.flatMap((s) => s.rules).length);
    expect(out.startsWith("# Generated by `npm run rules` from scripts/native.ts: do not edit.")).toBe(true);
    for (const s of NATIVE_SOURCES) expect(out).toContain(`# ${s.family.name}: `);
  });

  it("renders the table of docs/monitoring.md between its markers only, and refuses a page without them", () => {
    const page = `before\n${NATIVE_DOC_BEGIN}\nstale\n${NATIVE_DOC_END}\nafter\n`;
    const out = renderMonitoringDoc(page);
    expect(out.startsWith(`before\n${NATIVE_DOC_BEGIN}\n| exporter family |`)).toBe(true);
    expect(out.endsWith(`${NATIVE_DOC_END}\nafter\n`)).toBe(true);
    expect(out).not.toContain("stale");
    expect(renderMonitoringDoc(out)).toBe(out);
    expect(() => renderMonitoringDoc("no markers")).toThrow(RulesRenderError);
  });
});
