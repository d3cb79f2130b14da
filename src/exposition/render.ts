import type { FamilyDef, Sample } from "../metrics/sample.js";

/** Escapes a label value for both exposition formats: backslash, double quote and newline. */
export function escapeLabelValue(value: string): string {
  // Fast path: most values need no escaping, and this runs once per sample at poll time.
  if (!/[\\"\n]/.test(value)) return value;
  return value.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`));
}

/** HELP text escaping (text format 0.0.4 escapes backslash and newline; OpenMetrics also quotes). */
function escapeHelp(help: string, openMetrics: boolean): string {
  const re = openMetrics ? /[\\"\n]/g : /[\\\n]/g;
  return help.replace(re, (c) => (c === "\n" ? "\\n" : `\\${c}`));
}

/** Formats a sample value the way Prometheus parses it (Go's ParseFloat accepts JS notation). */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

/** One sample line, without a timestamp (docs/design.md section 6: never attach timestamps). */
export function renderSample(sample: Sample): string {
  let labels = "";
  for (const key in sample.labels) {
    const v = sample.labels[key] as string;
    labels += labels === "" ? `${key}="${escapeLabelValue(v)}"` : `,${key}="${escapeLabelValue(v)}"`;
  }
  const series = sample.suffix === undefined ? sample.family : `${sample.family}${sample.suffix}`;
  const name = labels === "" ? series : `${series}{${labels}}`;
  return `${name} ${formatValue(sample.value)}\n`;
}

/**
 * The HELP and TYPE header of a family. In OpenMetrics a counter's TYPE line names the family
 * without its `_total` suffix; gauges are identical in both formats.
 */
export function renderHeader(def: FamilyDef, openMetrics: boolean): string {
  const name = openMetrics && def.type === "counter" ? def.name.replace(/_total$/, "") : def.name;
  return `# HELP ${name} ${escapeHelp(def.help, openMetrics)}\n# TYPE ${name} ${def.type}\n`;
}

/** The sample lines of one family, and how many samples (series) they are. */
export interface RenderedFamily {
  readonly text: string;
  readonly series: number;
}

/**
 * Renders samples grouped by family: returns, per family name, the concatenated sample lines.
 * Samples of a family not in `families` are skipped (a mapping bug must not break exposition,
 * and the store leaves out the families the config denies this way).
 */
export function renderChunks(
  families: readonly FamilyDef[],
  samples: readonly Sample[],
): Map<string, RenderedFamily> {
  const known = new Set(families.map((f) => f.name));
  // Lines are collected and joined once: appending to a string per sample builds a rope of
  // cons-strings that costs several times the text's size until it is flattened.
  const lines = new Map<string, string[]>();
  for (const s of samples) {
    if (!known.has(s.family)) continue;
    const list = lines.get(s.family);
    if (list) list.push(renderSample(s));
    else lines.set(s.family, [renderSample(s)]);
  }
  const out = new Map<string, RenderedFamily>();
  for (const [family, list] of lines) out.set(family, { text: list.join(""), series: list.length });
  return out;
}
