/**
 * Applies config/prometheus/thresholds.yml to the alerting rules: each listed alert's threshold
 * (the right operand of its expression's final comparison), its `for`, the figures its summary
 * and description quote, and every alert's runbook_url. Every alert and recording rule over a
 * cluster metric family reads "the exporter's family, or its native recording"
 * (scripts/native.ts withNativeSources), and native.yml, those recordings, is rendered from
 * the same table. The rules files stay hand-written YAML (comments, order and quoting kept);
 * only those values are rewritten, so `npm run rules` is idempotent and a test can prove the
 * files are up to date by rendering them again.
 */
import { Document, isMap, isScalar, isSeq, parse, parseDocument, type Scalar, type YAMLMap } from "yaml";
import { z } from "zod";
import { parseSloSection } from "../src/slo/config.js";
import { renderSloRules } from "../src/slo/rules.js";
import {
  NATIVE_RATE_WINDOW,
  NATIVE_SOURCES,
  type NativeRule,
  nativeRuleGroups,
  recordsOf,
  withNativeSources,
} from "./native.js";

export const ALERTS_FILE = "config/prometheus/rules/alerts.yml";
export const RECORDING_FILE = "config/prometheus/rules/recording.yml";
export const NATIVE_FILE = "config/prometheus/rules/native.yml";
export const THRESHOLDS_FILE = "config/prometheus/thresholds.yml";
/** The error-budget rules, rendered from config/example.yaml's `slo:` (src/slo/rules.ts). */
export const SLO_FILE = "config/prometheus/rules/slo.yml";
export const EXAMPLE_CONFIG_FILE = "config/example.yaml";

/** The thresholds file disagrees with the rules, or is malformed: names the alert or field. */
export class RulesRenderError extends Error {
  readonly code = "rules_render";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RulesRenderError";
  }
}

const PROM_DURATION = /^(\d+)([smhd])$/;

const thresholdsSchema = z
  .object({
    runbook_base_url: z.url({ protocol: /^https?$/ }),
    alerts: z.record(
      z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/),
      z
        .object({
          // `.inf`: an alert that is off until its threshold is set (a budget): `> Inf` never holds.
          threshold: z.union([z.number().finite(), z.literal(Number.POSITIVE_INFINITY)]),
          for: z.string().regex(PROM_DURATION, "a Prometheus duration such as 10m"),
        })
        .strict(),
    ),
  })
  .strict();

/** The parsed thresholds file. */
export type Thresholds = z.infer<typeof thresholdsSchema>;

export function parseThresholds(text: string): Thresholds {
  const r = thresholdsSchema.safeParse(parse(text));
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  throw new RulesRenderError(`${THRESHOLDS_FILE}: ${issues}`, { cause: r.error });
}

/** The anchor docs/monitoring.md gives an alert's heading (GitHub's rule for a plain word). */
export function runbookAnchor(alert: string): string {
  return alert.toLowerCase();
}

const FINAL_COMPARISON = /(>=|<=|>|<|==|!=)(\s*)(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|\+?Inf)\s*$/;

/** A threshold as PromQL writes it: `Inf` for infinity. */
function promNumber(value: number): string {
  return value === Number.POSITIVE_INFINITY ? "Inf" : String(value);
}

/**
 * How a threshold reads in prose: ratios as percent, seconds as a duration (whole days as days,
 * a key's age, else minutes or seconds), else the number.
 */
export function formatThreshold(expr: string, value: number): string {
  if (/_ratio\b/.test(expr)) return `${Number((value * 100).toPrecision(12))}%`;
  if (/_seconds\b/.test(expr) && value >= 86_400 && value % 86_400 === 0) return `${value / 86_400}d`;
  if (/_seconds\b/.test(expr)) return value >= 60 && value % 60 === 0 ? `${value / 60}m` : `${value}s`;
  return String(value);
}

const UNIT_WORDS: Record<string, string> = { s: "second", m: "minute", h: "hour", d: "day" };

/** "10m" -> "10 minutes", as the descriptions say it. */
export function durationWords(d: string): string {
  const m = PROM_DURATION.exec(d);
  if (!m) return d;
  const n = Number(m[1]);
  return `${n} ${UNIT_WORDS[m[2] as string]}${n === 1 ? "" : "s"}`;
}

function replaceFigure(text: string, from: string, to: string): string {
  if (from === to) return text;
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return text.replace(new RegExp(`(?<![\\w.])${escaped}(?![\\w%]|\\.\\d)`, "g"), to);
}

function scalarAt(map: YAMLMap, key: string): Scalar | undefined {
  const node = map.get(key, true);
  return isScalar(node) ? node : undefined;
}

function applyThreshold(rule: YAMLMap, alert: string, t: Thresholds["alerts"][string]): void {
  const expr = scalarAt(rule, "expr");
  const match = typeof expr?.value === "string" ? FINAL_COMPARISON.exec(expr.value) : null;
  if (!expr || !match) {
    throw new RulesRenderError(`${ALERTS_FILE}: ${alert}: its expr must end with a comparison to a number`);
  }
  const text = expr.value as string;
  const old = /Inf$/.test(match[3] ?? "") ? Number.POSITIVE_INFINITY : Number(match[3]);
  expr.value = `${text.slice(0, match.index)}${match[1]}${match[2]}${promNumber(t.threshold)}${text.slice(match.index + match[0].length)}`;
  const forNode = scalarAt(rule, "for");
  const oldFor = typeof forNode?.value === "string" ? forNode.value : undefined;
  if (forNode) forNode.value = t.for;
  else rule.set("for", t.for);
  const annotations = rule.get("annotations");
  if (!isMap(annotations)) return;
  for (const key of ["summary", "description"]) {
    const node = scalarAt(annotations, key);
    if (typeof node?.value !== "string") continue;
    let s = replaceFigure(node.value, formatThreshold(text, old), formatThreshold(text, t.threshold));
    if (oldFor) s = s.replaceAll(`for ${durationWords(oldFor)}`, `for ${durationWords(t.for)}`);
    node.value = s;
  }
}

/** Every rule (a map) of a rules document, group by group. */
function rulesIn(doc: ReturnType<typeof parseDocument>, file: string): YAMLMap[] {
  const groups = doc.get("groups");
  if (!isSeq(groups)) throw new RulesRenderError(`${file}: no groups`);
  return groups.items.flatMap((group) => {
    const rules = isMap(group) ? group.get("rules") : undefined;
    return isSeq(rules) ? rules.items.filter((rule): rule is YAMLMap => isMap(rule)) : [];
  });
}

/** Rewrites a rule's expr to read either source; leaves the node alone when nothing changes. */
function readEitherSource(rule: YAMLMap, file: string): void {
  const expr = scalarAt(rule, "expr");
  if (typeof expr?.value !== "string") return;
  let text: string;
  try {
    text = withNativeSources(expr.value);
  } catch (error) {
    const name = String(rule.get("alert") ?? rule.get("record"));
    throw new RulesRenderError(`${file}: ${name}: ${(error as Error).message}`, { cause: error });
  }
  if (text !== expr.value) expr.value = text;
}

/** alerts.yml with the thresholds applied, every alert's runbook_url set, reading either source. */
export function renderAlerts(alertsText: string, thresholdsText: string): string {
  const thresholds = parseThresholds(thresholdsText);
  const doc = parseDocument(alertsText);
  const seen = new Set<string>();
  for (const rule of rulesIn(doc, ALERTS_FILE)) {
    const alert = rule.get("alert");
    if (typeof alert !== "string") continue;
    seen.add(alert);
    readEitherSource(rule, ALERTS_FILE);
    const t = thresholds.alerts[alert];
    if (t) applyThreshold(rule, alert, t);
    let annotations = rule.get("annotations");
    if (!isMap(annotations)) {
      annotations = doc.createNode({});
      rule.set("annotations", annotations);
    }
    (annotations as YAMLMap).set("runbook_url", `${thresholds.runbook_base_url}#${runbookAnchor(alert)}`);
  }
  const unknown = Object.keys(thresholds.alerts).filter((a) => !seen.has(a));
  if (unknown.length > 0) {
    throw new RulesRenderError(`${THRESHOLDS_FILE}: alerts.${unknown[0]}: no such alert in ${ALERTS_FILE}`);
  }
  return doc.toString({ lineWidth: 0 });
}

/** recording.yml with every rule over a cluster metric family reading either source. */
export function renderRecording(recordingText: string): string {
  const doc = parseDocument(recordingText);
  for (const rule of rulesIn(doc, RECORDING_FILE)) readEitherSource(rule, RECORDING_FILE);
  return doc.toString({ lineWidth: 0 });
}

const NATIVE_HEADER = `Generated by \`npm run rules\` from scripts/native.ts: do not edit.

Recording rules for clusters Prometheus scrapes through the service's own endpoint
(GET {base_url}/v2/clusters/{id}/metrics/export, config/prometheus/native-export.yml): each
gives, from the native zilliz_* series, the value of one exporter family with exactly that
family's labels, so the dashboards and alerts read "the exporter's family, or this recording"
(docs/monitoring.md, "Either source"). Rates are over ${NATIVE_RATE_WINDOW}: at least four scrapes
at the endpoint's 60 s minimum.`;

/** config/prometheus/rules/native.yml, from the table of scripts/native.ts. */
export function renderNativeRules(): string {
  const doc = new Document({ groups: [] as unknown[] });
  doc.commentBefore = NATIVE_HEADER.split("\n")
    .map((l) => (l === "" ? "" : ` ${l}`))
    .join("\n");
  const groups = doc.get("groups") as { add(node: unknown): void };
  const familyOf = new Map(NATIVE_SOURCES.flatMap((s) => s.rules.map((r) => [r, s] as const)));
  for (const group of nativeRuleGroups()) {
    const rules = group.rules.map((rule: NativeRule, i) => {
      const node = doc.createNode(
        rule.labels === undefined
          ? { record: rule.record, expr: rule.expr }
          : { record: rule.record, expr: rule.expr, labels: rule.labels },
      ) as YAMLMap;
      const source = familyOf.get(rule);
      const previous = group.rules[i - 1];
      if (source !== undefined && (previous === undefined || familyOf.get(previous) !== source)) {
        node.commentBefore = ` ${source.family.name}: ${source.from}`;
      }
      return node;
    });
    groups.add(doc.createNode({ name: group.name, rules }));
  }
  return doc.toString({ lineWidth: 0 });
}

/** The rules documentation of docs/monitoring.md between these markers is rendered from the table. */
export const MONITORING_DOC_FILE = "docs/monitoring.md";
export const NATIVE_DOC_BEGIN =
  "<!-- BEGIN generated: native recordings (npm run rules; edit scripts/native.ts) -->";
export const NATIVE_DOC_END = "<!-- END generated: native recordings -->";

/** docs/monitoring.md with its table of native recordings rendered from the table. */
export function renderMonitoringDoc(docText: string): string {
  const begin = docText.indexOf(NATIVE_DOC_BEGIN);
  const end = docText.indexOf(NATIVE_DOC_END);
  if (begin < 0 || end < begin) {
    throw new RulesRenderError(
      `${MONITORING_DOC_FILE}: the markers of the native recordings table are missing`,
    );
  }
  const rows = NATIVE_SOURCES.map((s) => {
    const records = recordsOf(s)
      .map((r) => `\`${r}\``)
      .join(", ");
    return `| \`${s.family.name}\` | ${records} | ${s.from.replaceAll("|", "\\|")} |`;
  });
  const table = ["| exporter family | native recording(s) | from |", "|---|---|---|", ...rows].join("\n");
  return `${docText.slice(0, begin)}${NATIVE_DOC_BEGIN}\n${table}\n${docText.slice(end)}`;
}

/**
 * config/prometheus/rules/slo.yml: the error-budget rules of config/example.yaml's `slo:` section
 * (the defaults where it sets none), with the runbook links of thresholds.yml, exactly as
 * `vdbcloud-exporter slo-rules` prints them for that file.
 */
export function renderShippedSloRules(exampleText: string, thresholdsText: string): string {
  const example = parse(exampleText) as { slo?: unknown } | null;
  const slo = parseSloSection(example?.slo);
  if (!slo.success) {
    const issues = slo.error.issues.map((i) => `slo.${i.path.join(".")}: ${i.message}`).join("; ");
    throw new RulesRenderError(`${EXAMPLE_CONFIG_FILE}: ${issues}`, { cause: slo.error });
  }
  return renderSloRules(slo.data, {
    runbookBaseUrl: parseThresholds(thresholdsText).runbook_base_url,
    source: EXAMPLE_CONFIG_FILE,
  });
}
