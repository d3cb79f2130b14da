/**
 * Small typed builders for the Grafana (10+) dashboard JSON model: just the panel kinds these
 * dashboards use. Every panel and query goes through the `${datasource}` variable, so the JSON
 * never names a datasource UID of any particular Grafana.
 */

/** The datasource reference every panel, query and variable uses: Grafana's `${datasource}`. */
export const DATASOURCE = { type: "prometheus", uid: `$\{datasource}` } as const;

/** Grafana units used here (the unit picker's ids). */
export type Unit =
  | "percentunit"
  | "bytes"
  | "decbytes"
  | "s"
  | "reqps"
  | "ops"
  | "short"
  | "none"
  | "dateTimeAsIso"
  | "dtdurations";

/** One threshold step: the first one starts at -infinity (value null). */
export interface ThresholdStep {
  readonly color: string;
  readonly value: number | null;
}

/** One PromQL query of a panel. */
export interface QuerySpec {
  readonly expr: string;
  readonly legend?: string;
  /** Instant queries feed tables; range queries feed graphs. */
  readonly instant?: boolean;
  readonly format?: "time_series" | "table" | "heatmap";
}

/**
 * A value mapping, e.g. 1 -> "OK" in green. With `regex`, `value` is a pattern matched
 * against the whole text; without `text` the value is shown as is, only coloured.
 */
export interface ValueMapping {
  readonly value: string;
  readonly text?: string;
  readonly color: string;
  readonly regex?: boolean;
}

/** A per-field override in a table: unit and display name of one column. */
export interface ColumnSpec {
  readonly field: string;
  readonly displayName?: string;
  readonly unit?: Unit;
  readonly thresholds?: readonly ThresholdStep[];
  readonly mappings?: readonly ValueMapping[];
  /** Show the cell coloured by thresholds/mappings. */
  readonly colored?: boolean;
}

/** A link from a panel (e.g. to the cluster detail dashboard). */
export interface LinkSpec {
  readonly title: string;
  readonly url: string;
}

interface CommonSpec {
  readonly title: string;
  /** Required: what the panel shows and how to read it (shown on hover). */
  readonly description: string;
  readonly queries: readonly QuerySpec[];
  readonly unit?: Unit;
  readonly min?: number;
  readonly max?: number;
  readonly decimals?: number;
  readonly thresholds?: readonly ThresholdStep[];
  readonly mappings?: readonly ValueMapping[];
  readonly links?: readonly LinkSpec[];
  /** Grid width (of 24) and height; defaults depend on the panel kind. */
  readonly w?: number;
  readonly h?: number;
}

/** A time series graph. */
export interface TimeseriesSpec extends CommonSpec {
  readonly kind: "timeseries";
  readonly stack?: boolean;
  /** Draw the thresholds as lines/areas on the graph. */
  readonly thresholdStyle?: "line" | "area" | "off";
  readonly legendCalcs?: readonly string[];
}

/** A single big number (or several, one per series). */
export interface StatSpec extends CommonSpec {
  readonly kind: "stat";
  readonly colorMode?: "background" | "value" | "none";
  readonly textMode?: "auto" | "value" | "name" | "value_and_name";
}

/** A table of instant queries merged on their common labels. */
export interface TableSpec extends CommonSpec {
  readonly kind: "table";
  readonly columns?: readonly ColumnSpec[];
  /** Label columns to hide (Time, job and instance are always hidden). */
  readonly hide?: readonly string[];
}

/** A heatmap of pre-bucketed histogram data (`le` buckets). */
export interface HeatmapSpec extends CommonSpec {
  readonly kind: "heatmap";
}

/** Bar gauge: one bar per series, good for "how many per state". */
export interface BarGaugeSpec extends CommonSpec {
  readonly kind: "bargauge";
}

/** Any panel kind; `kind` selects the Grafana panel type. */
export type PanelSpec = TimeseriesSpec | StatSpec | TableSpec | HeatmapSpec | BarGaugeSpec;

/** A titled row of panels. */
export interface RowSpec {
  readonly title: string;
  readonly panels: readonly PanelSpec[];
}

/** A dashboard variable. */
export type VariableSpec =
  | { readonly kind: "datasource" }
  | {
      readonly kind: "query";
      readonly name: string;
      readonly label: string;
      /** A `label_values(...)` query. */
      readonly query: string;
      readonly multi: boolean;
      readonly includeAll: boolean;
      /** Value used for "All"; omit to let Grafana list the current options (keeps parent filters). */
      readonly allValue?: string;
    };

/** An annotation driven by a PromQL query. */
export interface AnnotationSpec {
  readonly name: string;
  readonly expr: string;
  readonly titleFormat: string;
  readonly textFormat: string;
  readonly iconColor: string;
}

/** A whole dashboard. `uid` must stay stable: links and users' bookmarks depend on it. */
export interface DashboardSpec {
  readonly uid: string;
  readonly title: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly variables: readonly VariableSpec[];
  readonly annotations?: readonly AnnotationSpec[];
  readonly rows: readonly RowSpec[];
  readonly time?: { readonly from: string; readonly to: string };
  readonly refresh?: string;
}

/**
 * Dashboard schema version written (Grafana 10 is 38+). Grafana runs no migrations on a
 * dashboard already at its version, so panels load exactly as generated.
 */
export const SCHEMA_VERSION = 39;

/** A dashboard spec that cannot be rendered (too many queries, a panel wider than the grid). */
export class DashboardSpecError extends Error {
  readonly code = "INVALID_DASHBOARD_SPEC";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DashboardSpecError";
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const REF_IDS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function refId(index: number): string {
  const id = REF_IDS[index];
  if (id === undefined) throw new DashboardSpecError(`too many queries in one panel (${index + 1})`);
  return id;
}

function thresholdsJson(steps: readonly ThresholdStep[] | undefined): JsonObject {
  const list = steps ?? [{ color: "green", value: null }];
  return { mode: "absolute", steps: list.map((s) => ({ color: s.color, value: s.value })) };
}

function mappingResult(m: ValueMapping, index: number): JsonObject {
  const result: JsonObject = { color: m.color, index };
  if (m.text !== undefined) result.text = m.text;
  return result;
}

function mappingsJson(mappings: readonly ValueMapping[] | undefined): Json[] {
  if (mappings === undefined || mappings.length === 0) return [];
  const out: Json[] = [];
  const options: JsonObject = {};
  mappings.forEach((m, index) => {
    if (m.regex === true) {
      // Anchored: Grafana matches regex mappings anywhere in the text otherwise.
      out.push({ type: "regex", options: { pattern: `^${m.value}$`, result: mappingResult(m, index) } });
    } else {
      options[m.value] = mappingResult(m, index);
    }
  });
  // Exact values first: Grafana applies mappings in list order.
  return Object.keys(options).length > 0 ? [{ type: "value", options }, ...out] : out;
}

function targetsJson(queries: readonly QuerySpec[], defaultInstant: boolean): Json[] {
  return queries.map((q, index) => {
    const instant = q.instant ?? defaultInstant;
    const target: JsonObject = {
      datasource: { ...DATASOURCE },
      editorMode: "code",
      expr: q.expr,
      refId: refId(index),
      range: !instant,
      instant,
      format: q.format ?? (instant ? "table" : "time_series"),
    };
    if (q.legend !== undefined) target.legendFormat = q.legend;
    return target;
  });
}

function defaultsJson(spec: CommonSpec): JsonObject {
  const defaults: JsonObject = {
    unit: spec.unit ?? "short",
    thresholds: thresholdsJson(spec.thresholds),
    mappings: mappingsJson(spec.mappings),
  };
  if (spec.min !== undefined) defaults.min = spec.min;
  if (spec.max !== undefined) defaults.max = spec.max;
  if (spec.decimals !== undefined) defaults.decimals = spec.decimals;
  if (spec.links !== undefined) defaults.links = spec.links.map((l) => ({ title: l.title, url: l.url }));
  return defaults;
}

function timeseriesJson(spec: TimeseriesSpec): JsonObject {
  const defaults = defaultsJson(spec);
  defaults.color = { mode: "palette-classic" };
  defaults.custom = {
    drawStyle: "line",
    lineWidth: 1,
    fillOpacity: spec.stack === true ? 40 : 10,
    gradientMode: "none",
    showPoints: "never",
    spanNulls: false,
    stacking: { mode: spec.stack === true ? "normal" : "none", group: "A" },
    thresholdsStyle: { mode: spec.thresholdStyle ?? (spec.thresholds === undefined ? "off" : "line") },
  };
  return {
    type: "timeseries",
    fieldConfig: { defaults, overrides: [] },
    options: {
      legend: {
        displayMode: "table",
        placement: "bottom",
        showLegend: true,
        calcs: [...(spec.legendCalcs ?? ["lastNotNull", "max"])],
      },
      tooltip: { mode: "multi", sort: "desc" },
    },
    targets: targetsJson(spec.queries, false),
  };
}

function statJson(spec: StatSpec): JsonObject {
  const defaults = defaultsJson(spec);
  defaults.color = { mode: "thresholds" };
  return {
    type: "stat",
    fieldConfig: { defaults, overrides: [] },
    options: {
      reduceOptions: { calcs: ["lastNotNull"], fields: "", values: false },
      colorMode: spec.colorMode ?? "background",
      graphMode: "none",
      justifyMode: "auto",
      orientation: "auto",
      textMode: spec.textMode ?? "auto",
    },
    targets: targetsJson(spec.queries, true).map((t) => ({ ...(t as JsonObject), format: "time_series" })),
  };
}

function columnOverride(column: ColumnSpec): JsonObject {
  const properties: Json[] = [];
  if (column.displayName !== undefined) properties.push({ id: "displayName", value: column.displayName });
  if (column.unit !== undefined) properties.push({ id: "unit", value: column.unit });
  if (column.thresholds !== undefined) {
    properties.push({ id: "thresholds", value: thresholdsJson(column.thresholds) });
  }
  if (column.mappings !== undefined)
    properties.push({ id: "mappings", value: mappingsJson(column.mappings) });
  if (column.colored === true) {
    properties.push({ id: "custom.cellOptions", value: { type: "color-background", mode: "basic" } });
  }
  return { matcher: { id: "byName", options: column.field }, properties };
}

function tableJson(spec: TableSpec): JsonObject {
  const defaults = defaultsJson(spec);
  defaults.custom = { align: "auto", cellOptions: { type: "auto" }, filterable: true };
  const excludeByName: JsonObject = { Time: true, job: true, instance: true, __name__: true };
  for (const name of spec.hide ?? []) excludeByName[name] = true;
  return {
    type: "table",
    fieldConfig: { defaults, overrides: (spec.columns ?? []).map(columnOverride) },
    options: { showHeader: true, cellHeight: "sm", footer: { show: false, reducer: ["sum"], fields: "" } },
    targets: targetsJson(spec.queries, true),
    // Several instant queries become one table: merge joins rows on their common label columns.
    transformations: [
      { id: "merge", options: {} },
      { id: "organize", options: { excludeByName, renameByName: {}, indexByName: {} } },
    ],
  };
}

function heatmapJson(spec: HeatmapSpec): JsonObject {
  return {
    type: "heatmap",
    fieldConfig: {
      defaults: {
        ...defaultsJson(spec),
        custom: { hideFrom: { legend: false, tooltip: false, viz: false } },
      },
      overrides: [],
    },
    options: {
      calculate: false,
      cellGap: 1,
      color: {
        mode: "scheme",
        scheme: "Oranges",
        steps: 64,
        exponent: 0.5,
        fill: "dark-orange",
        reverse: false,
      },
      yAxis: { axisPlacement: "left", unit: spec.unit ?? "s", reverse: false },
      rowsFrame: { layout: "auto" },
      tooltip: { mode: "single", yHistogram: true, showColorScale: false },
      legend: { show: true },
      cellValues: { unit: "short" },
      filterValues: { le: 1e-9 },
    },
    targets: targetsJson(spec.queries, false).map((t) => ({ ...(t as JsonObject), format: "heatmap" })),
  };
}

function barGaugeJson(spec: BarGaugeSpec): JsonObject {
  const defaults = defaultsJson(spec);
  defaults.color = { mode: "thresholds" };
  return {
    type: "bargauge",
    fieldConfig: { defaults, overrides: [] },
    options: {
      reduceOptions: { calcs: ["lastNotNull"], fields: "", values: false },
      orientation: "horizontal",
      displayMode: "gradient",
      showUnfilled: true,
      valueMode: "color",
      namePlacement: "auto",
      sizing: "auto",
      minVizHeight: 10,
      minVizWidth: 0,
      maxVizHeight: 300,
    },
    targets: targetsJson(spec.queries, true).map((t) => ({ ...(t as JsonObject), format: "time_series" })),
  };
}

const DEFAULT_SIZE: Readonly<Record<PanelSpec["kind"], { w: number; h: number }>> = {
  timeseries: { w: 12, h: 8 },
  stat: { w: 4, h: 4 },
  table: { w: 24, h: 8 },
  heatmap: { w: 12, h: 8 },
  bargauge: { w: 8, h: 8 },
};

function panelBody(spec: PanelSpec): JsonObject {
  switch (spec.kind) {
    case "timeseries":
      return timeseriesJson(spec);
    case "stat":
      return statJson(spec);
    case "table":
      return tableJson(spec);
    case "heatmap":
      return heatmapJson(spec);
    case "bargauge":
      return barGaugeJson(spec);
  }
}

/**
 * Lays out rows top to bottom, panels left to right wrapping at 24 columns, and numbers
 * panels from 1 in that order, so ids and positions are deterministic.
 */
export function layoutPanels(rows: readonly RowSpec[]): JsonObject[] {
  const out: JsonObject[] = [];
  let id = 1;
  let y = 0;
  for (const row of rows) {
    out.push({
      type: "row",
      id: id++,
      title: row.title,
      collapsed: false,
      panels: [],
      gridPos: { h: 1, w: 24, x: 0, y },
    });
    y += 1;
    let x = 0;
    let lineHeight = 0;
    for (const spec of row.panels) {
      const size = DEFAULT_SIZE[spec.kind];
      const w = spec.w ?? size.w;
      const h = spec.h ?? size.h;
      if (w < 1 || w > 24) throw new DashboardSpecError(`panel "${spec.title}": width ${w} is outside 1..24`);
      if (x + w > 24) {
        y += lineHeight;
        x = 0;
        lineHeight = 0;
      }
      out.push({
        id: id++,
        title: spec.title,
        description: spec.description,
        datasource: { ...DATASOURCE },
        gridPos: { h, w, x, y },
        ...panelBody(spec),
      });
      x += w;
      lineHeight = Math.max(lineHeight, h);
    }
    y += lineHeight;
  }
  return out;
}

function variableJson(spec: VariableSpec): JsonObject {
  if (spec.kind === "datasource") {
    return {
      name: "datasource",
      label: "Data source",
      type: "datasource",
      query: "prometheus",
      current: {},
      hide: 0,
      includeAll: false,
      multi: false,
      options: [],
      refresh: 1,
      regex: "",
      skipUrlSync: false,
    };
  }
  const variable: JsonObject = {
    name: spec.name,
    label: spec.label,
    type: "query",
    datasource: { ...DATASOURCE },
    definition: spec.query,
    query: { query: spec.query, refId: "PrometheusVariableQueryEditor-VariableQuery" },
    current: {},
    hide: 0,
    includeAll: spec.includeAll,
    multi: spec.multi,
    options: [],
    // 2 = refresh on time range change: new clusters and jobs show up without a reload.
    refresh: 2,
    regex: "",
    skipUrlSync: false,
    sort: 1,
  };
  if (spec.allValue !== undefined) variable.allValue = spec.allValue;
  return variable;
}

function annotationJson(spec: AnnotationSpec): JsonObject {
  return {
    name: spec.name,
    datasource: { ...DATASOURCE },
    enable: true,
    hide: false,
    iconColor: spec.iconColor,
    expr: spec.expr,
    step: "60s",
    titleFormat: spec.titleFormat,
    textFormat: spec.textFormat,
    tagKeys: "severity",
    useValueForTime: false,
  };
}

/** Renders a dashboard spec to Grafana's JSON model (provisionable and importable as is). */
export function renderDashboard(spec: DashboardSpec): JsonObject {
  return {
    uid: spec.uid,
    title: spec.title,
    description: spec.description,
    tags: [...spec.tags],
    editable: true,
    graphTooltip: 1,
    fiscalYearStartMonth: 0,
    liveNow: false,
    schemaVersion: SCHEMA_VERSION,
    version: 1,
    refresh: spec.refresh ?? "30s",
    time: spec.time ?? { from: "now-6h", to: "now" },
    timepicker: {},
    timezone: "",
    weekStart: "",
    links: [
      {
        title: "vdbcloud dashboards",
        type: "dashboards",
        tags: ["vdbcloud"],
        asDropdown: true,
        includeVars: true,
        keepTime: true,
        icon: "external link",
        targetBlank: false,
        url: "",
        tooltip: "",
      },
    ],
    annotations: { list: (spec.annotations ?? []).map(annotationJson) },
    templating: { list: spec.variables.map(variableJson) },
    panels: layoutPanels(spec.rows),
  };
}
