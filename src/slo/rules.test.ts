import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseSloSection } from "./config.js";
import { alertWindows, DEFAULT_RUNBOOK_BASE_URL, promDuration, type Rule, renderSloRules } from "./rules.js";
import { leMatcher } from "./sli.js";
import { EXPECTED_SLO_ALERTS } from "./sloTestkit.js";

function settings(raw: unknown) {
  const parsed = parseSloSection(raw);
  if (!parsed.success) throw new Error(parsed.error.message);
  return parsed.data;
}

function groups(raw: unknown, runbookBaseUrl?: string) {
  const text = renderSloRules(settings(raw), runbookBaseUrl === undefined ? {} : { runbookBaseUrl });
  return (parse(text) as { groups: Array<{ name: string; rules: Rule[] }> }).groups;
}

const rulesOf = (raw: unknown) => groups(raw).flatMap((g) => g.rules);

describe("promDuration", () => {
  it.each([
    [5 * 60_000, "5m"],
    [3_600_000, "1h"],
    [90 * 60_000, "90m"],
    [86_400_000, "1d"],
    [30 * 86_400_000, "30d"],
    [10_000, "10s"],
    [90_000, "90s"],
  ])("%i ms is %s", (ms, text) => {
    expect(promDuration(ms)).toBe(text);
  });

  it("refuses what is not whole seconds", () => {
    expect(() => promDuration(1500)).toThrow(RangeError);
  });
});

describe("leMatcher", () => {
  it.each([
    [0.5, 'le="0.5"'],
    [0.005, 'le="0.005"'],
    // The text format writes "1", OpenMetrics (and Prometheus 3) "1.0".
    [1, 'le=~"1(\\\\.0)?"'],
    [10, 'le=~"10(\\\\.0)?"'],
  ])("%s -> %s", (bound, matcher) => {
    expect(leMatcher(bound)).toBe(matcher);
  });
});

describe("renderSloRules", () => {
  it("records each SLI at every alert window, shortest first, and over the period, in a group each", () => {
    const gs = groups({});
    expect(gs.map((g) => g.name)).toEqual([
      "vdbcloud-slo-canary-availability",
      "vdbcloud-slo-canary-latency",
      "vdbcloud-slo-service-availability",
    ]);
    for (const sli of ["canary_availability", "canary_latency", "service_availability"]) {
      const records = gs
        .flatMap((g) => g.rules)
        .flatMap((r) => (r.record?.startsWith(`slo:${sli}:`) ? [r.record] : []));
      expect(records.filter((r) => r.includes(":error_ratio_rate"))).toEqual(
        ["5m", "30m", "1h", "2h", "6h", "1d", "3d", "30d"].map((w) => `slo:${sli}:error_ratio_rate${w}`),
      );
    }
    expect(alertWindows(settings({})).map(promDuration)).toEqual(["5m", "30m", "1h", "2h", "6h", "1d", "3d"]);
  });

  it("writes each pair's threshold as burn rate x error budget, without float noise", () => {
    const page = rulesOf({}).find((r) => r.alert === "VdbcloudCanaryAvailabilityBudgetBurn");
    expect(page?.labels).toEqual({ severity: "critical" });
    expect(page?.expr).toBe(
      [
        "(",
        "  slo:canary_availability:error_ratio_rate1h > 0.0144",
        "  and",
        "  slo:canary_availability:error_ratio_rate5m > 0.0144",
        ")",
        "or",
        "(",
        "  slo:canary_availability:error_ratio_rate6h > 0.006",
        "  and",
        "  slo:canary_availability:error_ratio_rate30m > 0.006",
        ")",
      ].join("\n"),
    );
    const latencyTicket = rulesOf({}).filter((r) => r.alert === "VdbcloudCanaryLatencyBudgetBurn")[1];
    expect(latencyTicket?.labels).toEqual({ severity: "warning" });
    expect(latencyTicket?.expr).toContain("slo:canary_latency:error_ratio_rate1d > 0.03\n");
  });

  it("reads the latency histogram's bucket at the configured bound", () => {
    const at = (threshold: string) =>
      rulesOf({ canary: { latency: { threshold } } }).find(
        (r) => r.record === "slo:canary_latency:error_ratio_rate5m",
      )?.expr;
    expect(at("PT0.25S")).toContain('vdbcloud_canary_duration_seconds_bucket{le="0.25"}[5m]');
    expect(at("PT1S")).toContain('vdbcloud_canary_duration_seconds_bucket{le=~"1(\\\\.0)?"}[5m]');
  });

  it("renders scaled-down windows of seconds with their own names", () => {
    const rules = rulesOf({
      period: "PT10M",
      windows: {
        page: [{ burn_rate: 14.4, long: "PT1M", short: "PT10S" }],
        ticket: [{ burn_rate: 1, long: "PT5M", short: "PT30S" }],
      },
    });
    const records = new Set(rules.flatMap((r) => (r.record === undefined ? [] : [r.record])));
    for (const w of ["10s", "30s", "1m", "5m", "10m"])
      expect(records).toContain(`slo:canary_availability:error_ratio_rate${w}`);
    // The period's ratio of the canary averages the shortest window's.
    expect(rules.find((r) => r.record === "slo:canary_latency:error_ratio_rate10m")?.expr).toBe(
      "avg_over_time(slo:canary_latency:error_ratio_rate10s[10m])",
    );
    expect(
      rules.filter((r) => r.record === "slo:service_availability:burn_rate").map((r) => r.labels?.window),
    ).toEqual(["10s", "30s", "1m", "5m", "10m"]);
  });

  it("records a period that is also an alert window once, and no alert of a severity without pairs", () => {
    const rules = rulesOf({
      period: "P3D",
      windows: { page: [], ticket: [{ burn_rate: 1, long: "P3D", short: "PT6H" }] },
    });
    const names = rules.flatMap((r) => (r.record === undefined ? [] : [r.record]));
    expect(names.filter((n) => n === "slo:canary_availability:error_ratio_rate3d")).toHaveLength(1);
    expect(rules.find((r) => r.record === "slo:canary_availability:error_ratio_rate3d")?.expr).toContain(
      "[3d]",
    );
    expect(rules.filter((r) => r.alert !== undefined).map((r) => r.labels?.severity)).toEqual([
      "warning",
      "warning",
      "warning",
    ]);
  });

  it("rates the canary's period from the counters when there are no alert windows", () => {
    const rules = rulesOf({ windows: { page: [], ticket: [] } });
    expect(rules.some((r) => r.alert !== undefined)).toBe(false);
    expect(rules.find((r) => r.record === "slo:canary_availability:error_ratio_rate30d")?.expr).toContain(
      "rate(vdbcloud_canary_requests_total[30d])",
    );
  });

  it("computes the budget left and the burn rates from the objective", () => {
    const rules = rulesOf({ service: { availability: 0.995 } });
    expect(rules.find((r) => r.record === "slo:service_availability:objective_ratio")?.expr).toBe(
      "vector(0.995)",
    );
    expect(
      rules.find((r) => r.record === "slo:service_availability:error_budget_remaining_ratio")?.expr,
    ).toBe("1 - slo:service_availability:error_ratio_rate30d / 0.005");
    expect(
      rules.find((r) => r.record === "slo:service_availability:burn_rate" && r.labels?.window === "1h")?.expr,
    ).toBe("slo:service_availability:error_ratio_rate1h / 0.005");
  });

  it("links each alert's runbook under the base given, and describes its windows and objective", () => {
    const alerts = groups({}, "https://wiki.example.org/slo")
      .flatMap((g) => g.rules)
      .filter((r) => r.alert !== undefined);
    expect(alerts.map((a) => `${a.alert} ${a.labels?.severity}`)).toEqual(EXPECTED_SLO_ALERTS);
    for (const a of alerts) {
      expect(a.annotations?.runbook_url).toBe(`https://wiki.example.org/slo#${a.alert?.toLowerCase()}`);
      expect(a.annotations?.summary).toMatch(
        /\{\{ \$labels\.cluster_id \}\}.*\{\{ \$value \| humanizePercentage \}\}/,
      );
    }
    expect(alerts[2]?.annotations?.description).toContain(
      "(1%, for a 99% objective): 14.4x over 1h and 5m, or 6x over 6h and 30m.",
    );
    expect(alerts[5]?.annotations?.description).toContain("at 3x the 30d budget is spent in 10 days.");
    expect(groups({})[0]?.rules.find((r) => r.alert)?.annotations?.runbook_url).toContain(
      DEFAULT_RUNBOOK_BASE_URL,
    );
  });

  it("is deterministic, and says in its header what it was rendered from", () => {
    const text = renderSloRules(settings({}), { source: "vdbcloud.yaml" });
    expect(renderSloRules(settings({}), { source: "vdbcloud.yaml" })).toBe(text);
    expect(text).toMatch(
      /^# Error-budget rules of vdbcloud-exporter, rendered from the slo section of vdbcloud\.yaml\n/,
    );
    expect(text).toContain("# Page (severity critical): 14.4x over 1h and 5m, 6x over 6h and 30m.\n");
  });
});
