/**
 * Reading the PromQL back out of dashboard JSON, so tests can check it against the real
 * Prometheus (promtool, a live server) exactly as Grafana would send it.
 */

/** Where a query came from, for readable test failures. */
export interface DashboardQuery {
  readonly dashboard: string;
  /** "panel 12 "Title" A", "variable cluster", "annotation Alerts". */
  readonly where: string;
  readonly kind: "panel" | "variable" | "annotation";
  /** The PromQL as written, Grafana variables unexpanded. For variables: the selector of label_values. */
  readonly expr: string;
  /** For `label_values(selector, label)` variables: the label whose values are listed. */
  readonly label?: string;
}

/** Grafana's built-in interval variables, with the values a 30 s scrape interval gives them. */
export const BUILTIN_VARIABLES: Readonly<Record<string, string>> = {
  __rate_interval: "2m",
  __interval: "30s",
  __interval_ms: "30000",
  __range: "6h",
  __range_s: "21600",
  __range_ms: "21600000",
};

/** Raised when a variable query is not a `label_values(...)` form these dashboards use. */
export class UnsupportedVariableQueryError extends Error {
  readonly code = "UNSUPPORTED_VARIABLE_QUERY";
  constructor(
    readonly query: string,
    options?: ErrorOptions,
  ) {
    super(`unsupported variable query: ${query}`, options);
    this.name = "UnsupportedVariableQueryError";
  }
}

/**
 * Splits `label_values(selector, label)` (or `label_values(label)`) into its parts.
 * Throws {@link UnsupportedVariableQueryError} for any other form.
 */
export function parseLabelValues(query: string): { selector: string | undefined; label: string } {
  const m = /^\s*label_values\(\s*(?:(.*),\s*)?([a-zA-Z_][a-zA-Z0-9_]*)\s*\)\s*$/s.exec(query);
  if (m === null || m[2] === undefined) throw new UnsupportedVariableQueryError(query);
  const selector = m[1]?.trim();
  return { selector: selector === "" ? undefined : selector, label: m[2] };
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function variableQueryText(variable: Obj): string | undefined {
  const q = variable.query;
  if (typeof q === "string") return q;
  if (isObj(q) && typeof q.query === "string") return q.query;
  return undefined;
}

/** Every panel (including panels nested in collapsed rows), in document order. */
export function allPanels(dashboard: Obj): Obj[] {
  const out: Obj[] = [];
  for (const p of asArray(dashboard.panels)) {
    if (!isObj(p)) continue;
    out.push(p);
    for (const nested of asArray(p.panels)) if (isObj(nested)) out.push(nested);
  }
  return out;
}

/**
 * Every PromQL query of a dashboard JSON: panel targets, query variables (the selector of
 * `label_values`) and annotations.
 */
export function dashboardQueries(dashboard: Obj, name: string): DashboardQuery[] {
  const out: DashboardQuery[] = [];
  for (const panel of allPanels(dashboard)) {
    for (const target of asArray(panel.targets)) {
      if (!isObj(target) || typeof target.expr !== "string") continue;
      const where = `panel ${String(panel.id)} "${String(panel.title)}" ${String(target.refId)}`;
      out.push({ dashboard: name, where, kind: "panel", expr: target.expr });
    }
  }
  const templating = isObj(dashboard.templating) ? dashboard.templating : {};
  for (const variable of asArray(templating.list)) {
    if (!isObj(variable) || variable.type !== "query") continue;
    const text = variableQueryText(variable) ?? "";
    const { selector, label } = parseLabelValues(text);
    // label_values(label) without a selector lists a label over all series: nothing to check.
    if (selector === undefined) continue;
    out.push({
      dashboard: name,
      where: `variable ${String(variable.name)}`,
      kind: "variable",
      expr: selector,
      label,
    });
  }
  const annotations = isObj(dashboard.annotations) ? dashboard.annotations : {};
  for (const a of asArray(annotations.list)) {
    if (!isObj(a) || typeof a.expr !== "string") continue;
    out.push({ dashboard: name, where: `annotation ${String(a.name)}`, kind: "annotation", expr: a.expr });
  }
  return out;
}

// $name, ${name}, ${name:format}, [[name]] and [[name:format]]: Grafana's variable syntaxes.
const VARIABLE_RE =
  /\$\{([a-zA-Z_][a-zA-Z0-9_]*)(?::[^}]*)?\}|\$([a-zA-Z_][a-zA-Z0-9_]*)|\[\[([a-zA-Z_][a-zA-Z0-9_]*)(?::[^\]]*)?\]\]/g;

/** The names of the Grafana variables an expression uses (built-ins included), deduplicated. */
export function variablesIn(expr: string): string[] {
  const names = new Set<string>();
  for (const m of expr.matchAll(VARIABLE_RE)) {
    const name = m[1] ?? m[2] ?? m[3];
    if (name !== undefined) names.add(name);
  }
  return [...names];
}

/**
 * Replaces Grafana variables the way Grafana would before sending the query: built-ins from
 * {@link BUILTIN_VARIABLES} (or `values`), any other variable by `values[name]`, else by
 * `fallback`. Custom variables must only appear inside regex matchers (`=~"$x"`), so a
 * fallback like ".+" selects every value, as the "All" option does.
 */
export function expandVariables(
  expr: string,
  values: Readonly<Record<string, string>> = {},
  fallback = ".+",
): string {
  return expr.replace(VARIABLE_RE, (_whole, a?: string, b?: string, c?: string) => {
    const name = a ?? b ?? c ?? "";
    return values[name] ?? BUILTIN_VARIABLES[name] ?? fallback;
  });
}

/**
 * Places where a custom (non built-in) variable is used outside a regex label matcher, which
 * would break with multi-value or "All" selections. Empty when every use is `=~"...$x..."`.
 */
export function variablesOutsideRegexMatchers(expr: string): string[] {
  // Blank out the regex matcher values, then anything still looking like a variable is misused.
  const withoutRegexValues = expr.replace(/([=!]~\s*)"(?:[^"\\]|\\.)*"/g, '$1""');
  return variablesIn(withoutRegexValues).filter((name) => !(name in BUILTIN_VARIABLES));
}

const PROMQL_KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "offset",
  "and",
  "or",
  "unless",
  "atan2",
  "inf",
  "nan",
]);

/**
 * The metric names an expression selects (after variable expansion), best effort without a
 * full parser: identifiers that are not functions, aggregations, keywords, label names or
 * string contents. Names inside `{__name__="..."}` are not resolved.
 */
export function metricNamesIn(expr: string): string[] {
  const cleaned = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    // Label lists of by/without/on/ignoring/group_left/group_right.
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const names = new Set<string>();
  for (const m of cleaned.matchAll(/(?<![\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    const ident = m[1];
    if (ident === undefined || m[2] !== undefined) continue; // a function or aggregation call
    if (PROMQL_KEYWORDS.has(ident.toLowerCase())) continue;
    names.add(ident);
  }
  return [...names];
}
