/**
 * A small reader of the Prometheus text format 0.0.4 (and the sample lines of OpenMetrics),
 * enough for the harness: it rebuilds the exporter's series for the prom-client baseline and
 * tracks which series a scrape contains. It is not a validator (promtool is, in the tests).
 */

/** One sample line. `id` is the line without its value: the series identity as exposed. */
export interface ParsedSample {
  readonly id: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A family's HELP and TYPE lines, by family name. */
export interface FamilyMeta {
  readonly help: string;
  readonly type: string;
}

export interface ParsedExposition {
  readonly samples: ParsedSample[];
  readonly families: ReadonlyMap<string, FamilyMeta>;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \S+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescapeValue(raw: string): string {
  if (!raw.includes("\\")) return raw;
  return raw.replace(/\\(.)/g, (_m, c: string) => (c === "n" ? "\n" : c));
}

function parseValue(raw: string): number {
  if (raw === "+Inf") return Number.POSITIVE_INFINITY;
  if (raw === "-Inf") return Number.NEGATIVE_INFINITY;
  return Number(raw);
}

/** Parses label pairs of a `{...}` body (without the braces). */
export function parseLabels(body: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const m of body.matchAll(LABEL)) labels[m[1] as string] = unescapeValue(m[2] as string);
  return labels;
}

/**
 * Parses an exposition. Lines that are neither comments nor samples are ignored (the harness
 * measures; it does not judge the format). HELP text is kept escaped as it was exposed.
 */
export function parseExposition(text: string): ParsedExposition {
  const samples: ParsedSample[] = [];
  const help = new Map<string, string>();
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (m?.[1] === "HELP") help.set(m[2] as string, m[3] ?? "");
      else if (m?.[1] === "TYPE") types.set(m[2] as string, m[3] ?? "");
      continue;
    }
    const m = LINE.exec(line);
    if (!m) continue;
    const name = m[1] as string;
    const body = m[2];
    samples.push({
      id: body === undefined ? name : `${name}{${body}}`,
      name,
      labels: body === undefined ? {} : parseLabels(body),
      value: parseValue(m[3] as string),
    });
  }
  const families = new Map<string, FamilyMeta>();
  for (const [name, type] of types) families.set(name, { type, help: help.get(name) ?? "" });
  return { samples, families };
}
