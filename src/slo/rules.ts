/**
 * The error-budget rules rendered from the `slo` section: a Prometheus rules file with, per SLI
 * (sli.ts), its error ratio at every alert window and over the budget's period, its objective,
 * its burn rate per window and the budget left, then the multiwindow, multi-burn-rate alerts of
 * the SRE workbook: one that pages (severity critical) and one that opens a ticket (severity
 * warning), each firing while the error ratio over both windows of one of its pairs is above the
 * pair's burn rate times the error budget. `vdbcloud-exporter slo-rules` prints it; `npm run
 * rules` writes the shipped config/prometheus/rules/slo.yml from config/example.yaml.
 * Pure: the same settings give the same text.
 */
import { Document, type YAMLMap } from "yaml";
import { DAY, HOUR, MINUTE, SECOND } from "../shared/duration.js";
import { round, type SloSettings } from "./config.js";
import { canaryAvailability, canaryLatency, errorRatioName, type Sli, serviceAvailability } from "./sli.js";

/** Where the runbooks are when none is given: the base config/prometheus/thresholds.yml ships. */
export const DEFAULT_RUNBOOK_BASE_URL =
  "https://github.com/OWNER/vdbcloud-exporter/blob/main/docs/monitoring.md";

/** Options of {@link renderSloRules}. */
export interface SloRulesOptions {
  /** Each alert's runbook_url is this, "#" and the alert's name in lower case (docs/monitoring.md). */
  readonly runbookBaseUrl?: string;
  /** Where the settings came from, for the header ("config/example.yaml"). */
  readonly source?: string;
}

const UNITS = [
  ["d", DAY],
  ["h", HOUR],
  ["m", MINUTE],
  ["s", SECOND],
] as const;

/** Whole seconds as a Prometheus duration in its largest exact unit: 5m, 1h, 1d, 30d, 90s. */
export function promDuration(ms: number): string {
  for (const [unit, size] of UNITS) if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  throw new RangeError(`${ms} ms is not whole seconds`);
}

/** "2 days", "5 hours", "40 minutes": how long a budget lasts, for the descriptions. */
function lasting(ms: number): string {
  const [unit, size] = ms >= 2 * DAY ? ["day", DAY] : ms >= 2 * HOUR ? ["hour", HOUR] : ["minute", MINUTE];
  const n = Number((ms / size).toPrecision(2));
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

const percent = (ratio: number): string => `${round(ratio * 100)}%`;

/** One severity's alert of an SLI. */
interface Severity {
  readonly name: "page" | "ticket";
  readonly label: "critical" | "warning";
  readonly pace: string;
}

const SEVERITIES: readonly Severity[] = [
  { name: "page", label: "critical", pace: "fast" },
  { name: "ticket", label: "warning", pace: "steadily" },
];

type Pair = SloSettings["windows"]["page"][number];

/** Every window the alerts read, shortest first, once each (whole seconds, checked by the schema). */
export function alertWindows(settings: SloSettings): number[] {
  const all = [...settings.windows.page, ...settings.windows.ticket].flatMap((p) => [p.longMs, p.shortMs]);
  return [...new Set(all)].sort((a, b) => a - b);
}

/** The SLIs with their objectives, in the file's order. */
function slis(settings: SloSettings): Array<{ sli: Sli; objective: number; what: string }> {
  const { canary, service } = settings;
  return [
    { sli: canaryAvailability(), objective: canary.availability, what: "canary availability" },
    {
      sli: canaryLatency(canary.latency.thresholdMs / 1000),
      objective: canary.latency.objective,
      what: `canary latency under ${canary.latency.thresholdMs / 1000}s`,
    },
    { sli: serviceAvailability(), objective: service.availability, what: "service availability" },
  ];
}

/** One rule of the rendered file, a recording rule (`record`) or an alert (`alert`). */
export interface Rule {
  readonly record?: string;
  readonly alert?: string;
  readonly expr: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

/** "14.4x over 1h and 5m". */
function pairText(p: Pair): string {
  return `${p.burnRate}x over ${promDuration(p.longMs)} and ${promDuration(p.shortMs)}`;
}

/** The alert of one severity: its pairs' conditions joined by `or`. */
function alertRule(
  sli: Sli,
  objective: number,
  severity: Severity,
  pairs: readonly Pair[],
  period: number,
  runbookBaseUrl: string,
): Rule {
  const budget = round(1 - objective);
  const conditions = pairs.map((p) => {
    const threshold = round(p.burnRate * budget);
    const long = errorRatioName(sli.id, promDuration(p.longMs));
    const short = errorRatioName(sli.id, promDuration(p.shortMs));
    return `(\n  ${long} > ${threshold}\n  and\n  ${short} > ${threshold}\n)`;
  });
  const windows = pairs.map(pairText);
  const fastest = Math.max(...pairs.map((p) => p.burnRate));
  return {
    alert: sli.alert,
    expr: conditions.join("\nor\n"),
    labels: { severity: severity.label },
    annotations: {
      summary: `${sli.subject}: {{ $value | humanizePercentage }} ${sli.share}, spending the error budget ${severity.pace}`,
      description:
        `${sli.subject}: the share of ${sli.bad} is, over both windows of a pair, above the pair's burn rate ` +
        `times the error budget (${percent(budget)}, for a ${percent(objective)} objective): ${windows.join(", or ")}. ` +
        `{{ $value | humanizePercentage }} over the longer window; at ${fastest}x the ${promDuration(period)} budget ` +
        `is spent in ${lasting(period / fastest)}.`,
      runbook_url: `${runbookBaseUrl}#${sli.alert.toLowerCase()}`,
    },
  };
}

/** The rules of one SLI: base rates, error ratios, objective, burn rates, budget, alerts. */
function sliRules(
  settings: SloSettings,
  { sli, objective }: { sli: Sli; objective: number },
  runbookBaseUrl: string,
): Rule[] {
  const windows = alertWindows(settings).map(promDuration);
  const period = promDuration(settings.periodMs);
  const budget = round(1 - objective);
  const shortest = windows[0] === undefined ? undefined : errorRatioName(sli.id, windows[0]);
  const rules: Rule[] = [
    ...sli.base,
    ...windows.map((w) => ({ record: errorRatioName(sli.id, w), expr: sli.errorRatio(w) })),
  ];
  if (!windows.includes(period))
    rules.push({ record: errorRatioName(sli.id, period), expr: sli.periodRatio(period, shortest) });
  rules.push({ record: `slo:${sli.id}:objective_ratio`, expr: `vector(${objective})` });
  for (const w of windows.includes(period) ? windows : [...windows, period]) {
    rules.push({
      record: `slo:${sli.id}:burn_rate`,
      expr: `${errorRatioName(sli.id, w)} / ${budget}`,
      labels: { window: w },
    });
  }
  rules.push({
    record: `slo:${sli.id}:error_budget_remaining_ratio`,
    expr: `1 - ${errorRatioName(sli.id, period)} / ${budget}`,
  });
  for (const severity of SEVERITIES) {
    const pairs = settings.windows[severity.name];
    if (pairs.length > 0)
      rules.push(alertRule(sli, objective, severity, pairs, settings.periodMs, runbookBaseUrl));
  }
  return rules;
}

/** The header: what made the file and the settings it holds. */
function header(settings: SloSettings, source: string | undefined): string {
  const pairs = (ps: readonly Pair[]) => (ps.length === 0 ? "none" : ps.map(pairText).join(", "));
  const { canary, service } = settings;
  return [
    `Error-budget rules of vdbcloud-exporter, rendered from the slo section${source === undefined ? "" : ` of ${source}`}`,
    "by `vdbcloud-exporter slo-rules --config FILE` (the shipped file: `npm run rules`): do not edit,",
    "render again (docs/slo.md).",
    "",
    `Period ${promDuration(settings.periodMs)}. Objectives: canary availability ${percent(canary.availability)},`,
    `canary latency ${percent(canary.latency.objective)} under ${canary.latency.thresholdMs / 1000}s, service availability ${percent(service.availability)}.`,
    `Page (severity critical): ${pairs(settings.windows.page)}.`,
    `Ticket (severity warning): ${pairs(settings.windows.ticket)}.`,
    "Names: slo:<sli>:error_ratio_rate<window> (the bad share), slo:<sli>:burn_rate{window} (that",
    "share over the error budget), slo:<sli>:error_budget_remaining_ratio (1 - the period's burn rate).",
  ]
    .map((l) => (l === "" ? "" : ` ${l}`))
    .join("\n");
}

/** The rules file for `settings`, as YAML text. */
export function renderSloRules(settings: SloSettings, options: SloRulesOptions = {}): string {
  const runbookBaseUrl = options.runbookBaseUrl ?? DEFAULT_RUNBOOK_BASE_URL;
  const doc = new Document({ groups: [] as unknown[] });
  doc.commentBefore = header(settings, options.source);
  const groups = doc.get("groups") as { add(node: unknown): void };
  for (const entry of slis(settings)) {
    const group = doc.createNode({
      name: `vdbcloud-slo-${entry.sli.id.replaceAll("_", "-")}`,
      rules: sliRules(settings, entry, runbookBaseUrl),
    }) as YAMLMap;
    group.commentBefore = ` ${entry.what}: objective ${percent(entry.objective)}, labels ${entry.sli.labels.join(", ")}`;
    groups.add(group);
  }
  return doc.toString({ lineWidth: 0 });
}
