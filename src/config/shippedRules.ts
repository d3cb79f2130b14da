/**
 * The Prometheus alerting and recording rules the package ships (config/prometheus/rules/*.yml),
 * read for `--check-config`: which exporter families each rule reads, so that the check can warn
 * when `families.deny` (or an allow list) removes a family a shipped rule needs. The directory is
 * found beside the installed package (dist/config/ -> config/prometheus/rules/; the Docker image
 * copies it to the same place), never through the working directory.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { isRecord } from "./schemaKit.js";

/** Where the package keeps its rule files (src/config/ in a checkout, dist/config/ once built). */
export const SHIPPED_RULES_DIR = fileURLToPath(new URL("../../config/prometheus/rules/", import.meta.url));

/** One rule of a shipped file and the exporter families its expression reads. */
export interface ShippedRule {
  /** The file's name, e.g. "alerts.yml". */
  readonly file: string;
  readonly kind: "alert" | "record";
  /** The alert's name or the recorded series' name. */
  readonly name: string;
  /**
   * Each family it reads, directly or through a recorded series another shipped rule records
   * (`via`: that series).
   */
  readonly reads: readonly { readonly family: string; readonly via?: string }[];
}

/** String literals of PromQL (double, single or back quotes): a label value never names a series. */
const STRINGS = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g;
/**
 * The exporter's series and recorded series: its namespace, then `_` (families) or `:` (rules),
 * and the error-budget rules' recorded series (`slo:<sli>:...`, Sloth's level).
 */
const SERIES = /(?<![A-Za-z0-9_:])(?:vdbcloud[_:]|slo:)[A-Za-z0-9_:]*/g;
/** What a histogram's family adds to its name in the series it exposes. */
const HISTOGRAM_SERIES = /_(bucket|sum|count)$/;

/**
 * The series names `expr` reads in the exporter's namespace (`vdbcloud_...`, and recorded
 * `vdbcloud:...` ones), each once, in order. Label names and functions never start with it, so
 * a scan outside string literals finds exactly the selectors' names.
 */
export function seriesRead(expr: string): string[] {
  return [...new Set(expr.replace(STRINGS, '""').match(SERIES) ?? [])];
}

/**
 * The family a series belongs to: itself, or for `<h>_bucket`, `_sum` and `_count` the histogram
 * `<h>` when `histograms` holds it.
 */
function familyOfSeries(series: string, histograms: ReadonlySet<string>): string {
  const base = series.replace(HISTOGRAM_SERIES, "");
  return base !== series && histograms.has(base) ? base : series;
}

/** A rule as its file gives it. */
interface RawRule {
  readonly file: string;
  readonly kind: "alert" | "record";
  readonly name: string;
  readonly expr: string;
}

/** The rules of one parsed rule file (groups[].rules[]); anything else in it is ignored. */
function rulesOf(file: string, doc: unknown): RawRule[] {
  const groups = isRecord(doc) && Array.isArray(doc.groups) ? doc.groups : [];
  return groups.flatMap((group: unknown) => {
    const rules = isRecord(group) && Array.isArray(group.rules) ? group.rules : [];
    return rules.flatMap((rule: unknown): RawRule[] => {
      if (!isRecord(rule) || typeof rule.expr !== "string") return [];
      if (typeof rule.alert === "string") return [{ file, kind: "alert", name: rule.alert, expr: rule.expr }];
      if (typeof rule.record === "string")
        return [{ file, kind: "record", name: rule.record, expr: rule.expr }];
      return [];
    });
  });
}

/**
 * The rules of parsed rule files (`files`: file name -> YAML document), with the families each
 * reads; a recorded series read by another rule stands for the families of the rule recording it.
 */
export function shippedRules(
  files: ReadonlyMap<string, unknown>,
  histograms: ReadonlySet<string>,
): ShippedRule[] {
  const raw = [...files].flatMap(([file, doc]) => rulesOf(file, doc));
  const recorders = new Map(raw.filter((r) => r.kind === "record").map((r) => [r.name, r]));
  const familiesOf = (rule: RawRule, seen: ReadonlySet<string>): Map<string, string | undefined> => {
    const out = new Map<string, string | undefined>();
    for (const series of seriesRead(rule.expr)) {
      const recorder = recorders.get(series);
      if (recorder === undefined) {
        const family = familyOfSeries(series, histograms);
        if (!out.has(family)) out.set(family, undefined);
        continue;
      }
      if (seen.has(series)) continue;
      for (const family of familiesOf(recorder, new Set([...seen, series])).keys()) {
        if (!out.has(family)) out.set(family, series);
      }
    }
    return out;
  };
  return raw.map((rule) => ({
    file: rule.file,
    kind: rule.kind,
    name: rule.name,
    reads: [...familiesOf(rule, new Set([rule.name]))].map(([family, via]) =>
      via === undefined ? { family } : { family, via },
    ),
  }));
}

/**
 * Reads every *.yml file of `dir` (sorted by name) as shipped rules; undefined when the
 * directory cannot be read (an installation without it: nothing to check).
 */
export async function loadShippedRules(
  histograms: ReadonlySet<string>,
  dir = SHIPPED_RULES_DIR,
): Promise<ShippedRule[] | undefined> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".yml") || n.endsWith(".yaml")).sort();
  } catch {
    return undefined;
  }
  const files = new Map<string, unknown>();
  for (const name of names) files.set(name, parse(await readFile(join(dir, name), "utf8")));
  return shippedRules(files, histograms);
}
