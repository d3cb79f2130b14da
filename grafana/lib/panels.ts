/**
 * Typed builders for the Grafana dashboard model: the project's declarative specs (below) are
 * rendered through Grafana's own builders (`@grafana/grafana-foundation-sdk`, generated from
 * Grafana's schemas), so a misspelt option or a wrong enum value fails type-checking. Every
 * panel and query goes through the `${datasource}` variable, so the JSON never names a
 * datasource UID of any particular Grafana. The few fields the SDK's model does not type are
 * added by hand in one place each (`extended`, `withDataLinks`, override properties).
 */
import * as bargauge from "@grafana/grafana-foundation-sdk/bargauge";
import type * as cog from "@grafana/grafana-foundation-sdk/cog";
import * as common from "@grafana/grafana-foundation-sdk/common";
import * as dashboard from "@grafana/grafana-foundation-sdk/dashboard";
import * as heatmap from "@grafana/grafana-foundation-sdk/heatmap";
import * as prometheus from "@grafana/grafana-foundation-sdk/prometheus";
import * as stat from "@grafana/grafana-foundation-sdk/stat";
import * as table from "@grafana/grafana-foundation-sdk/table";
import * as timeseries from "@grafana/grafana-foundation-sdk/timeseries";

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
  /** Shown instead of "No data" when the absence itself means something. */
  readonly noValue?: string;
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
 * dashboard already at its version, so panels load exactly as generated; newer Grafanas migrate
 * 39 forward on load. The SDK would stamp its own Grafana's version (41 for 11.6), which a
 * Grafana 10 would take for a model newer than itself; the model written is the one these
 * dashboards had at 39, plus schema defaults an older Grafana ignores.
 */
export const SCHEMA_VERSION = 39;

/** The tag the dashboards' link menu lists dashboards by (each dashboard carries it). */
const DASHBOARD_LINK_TAG = "vdbcloud";

/** A dashboard spec that cannot be rendered (too many queries, a panel wider than the grid). */
export class DashboardSpecError extends Error {
  readonly code = "INVALID_DASHBOARD_SPEC";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DashboardSpecError";
  }
}

/** Plain JSON, what the committed dashboard files hold. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object (a panel, a dashboard). */
type JsonObject = { [key: string]: Json };

/** Keys written first in every object, in this order, so a panel reads top-down in the file. */
const LEADING_KEYS = ["uid", "id", "type", "title", "description"];

function keyOrder(a: string, b: string): number {
  const ia = LEADING_KEYS.indexOf(a);
  const ib = LEADING_KEYS.indexOf(b);
  if (ia !== ib) return ia === -1 ? 1 : ib === -1 ? -1 : ia - ib;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Same value, object keys in a fixed order (see `toJson`). */
function canonical(value: Json): Json {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort(keyOrder)) out[key] = canonical(value[key] ?? null);
  return out;
}

/**
 * The SDK's builders return Grafana's model with a few function-valued marker properties
 * (query variants); a JSON round trip leaves exactly what Grafana reads from a file. Keys are
 * put in a fixed order rather than the order the builders happened to set them, so the
 * committed files only change when the model does, not when an SDK release reorders code.
 */
function toJson<T>(value: T): JsonObject {
  return canonical(JSON.parse(JSON.stringify(value)) as Json) as JsonObject;
}

/**
 * A builder whose output gets top-level properties the SDK's model does not type (the
 * Prometheus-specific fields of an annotation, a variable's `definition`).
 */
function extended<T extends object>(builder: cog.Builder<T>, extra: object): cog.Builder<T> {
  return { build: () => Object.assign(builder.build(), extra) };
}

const REF_IDS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function refId(index: number): string {
  const id = REF_IDS[index];
  if (id === undefined) throw new DashboardSpecError(`too many queries in one panel (${index + 1})`);
  return id;
}

function thresholds(list: readonly ThresholdStep[] | undefined): dashboard.ThresholdsConfigBuilder {
  const stepList = list ?? [{ color: "green", value: null }];
  return new dashboard.ThresholdsConfigBuilder()
    .mode(dashboard.ThresholdsMode.Absolute)
    .steps(stepList.map((s) => ({ color: s.color, value: s.value })));
}

function mappingResult(m: ValueMapping, index: number): dashboard.ValueMappingResult {
  return m.text === undefined ? { color: m.color, index } : { color: m.color, index, text: m.text };
}

function mappings(list: readonly ValueMapping[] | undefined): dashboard.ValueMapping[] {
  if (list === undefined || list.length === 0) return [];
  const regexes: dashboard.ValueMapping[] = [];
  const options: Record<string, dashboard.ValueMappingResult> = {};
  list.forEach((m, index) => {
    if (m.regex === true) {
      // Anchored: Grafana matches regex mappings anywhere in the text otherwise.
      regexes.push({
        type: dashboard.MappingType.RegexToText,
        options: { pattern: `^${m.value}$`, result: mappingResult(m, index) },
      });
    } else {
      options[m.value] = mappingResult(m, index);
    }
  });
  // Exact values first: Grafana applies mappings in list order.
  return Object.keys(options).length > 0
    ? [{ type: dashboard.MappingType.ValueToText, options }, ...regexes]
    : regexes;
}

function targets(
  queries: readonly QuerySpec[],
  defaultInstant: boolean,
  format?: prometheus.PromQueryFormat,
): prometheus.DataqueryBuilder[] {
  return queries.map((q, index) => {
    const instant = q.instant ?? defaultInstant;
    const target = new prometheus.DataqueryBuilder()
      .datasource({ ...DATASOURCE })
      .editorMode(prometheus.QueryEditorMode.Code)
      .expr(q.expr)
      .refId(refId(index))
      .format(format ?? QUERY_FORMAT[q.format ?? (instant ? "table" : "time_series")]);
    if (instant) target.instant();
    else target.range();
    return q.legend === undefined ? target : target.legendFormat(q.legend);
  });
}

const QUERY_FORMAT: Readonly<Record<NonNullable<QuerySpec["format"]>, prometheus.PromQueryFormat>> = {
  time_series: prometheus.PromQueryFormat.TimeSeries,
  table: prometheus.PromQueryFormat.Table,
  heatmap: prometheus.PromQueryFormat.Heatmap,
};

/**
 * The field-config and panel-header methods every panel builder of the SDK has (each panel
 * plugin has its own builder class, with these in common).
 */
interface CommonBuilder<B> {
  title(title: string): B;
  description(description: string): B;
  datasource(datasource: dashboard.DataSourceRef): B;
  unit(unit: string): B;
  min(min: number): B;
  max(max: number): B;
  decimals(decimals: number): B;
  thresholds(thresholds: cog.Builder<dashboard.ThresholdsConfig>): B;
  mappings(mappings: dashboard.ValueMapping[]): B;
  withTarget(target: cog.Builder<cog.Dataquery>): B;
}

/** Applies what every panel kind shares: header, unit, range, thresholds, mappings, queries. */
function withCommon<B extends CommonBuilder<B>>(
  builder: B,
  spec: CommonSpec,
  queries: readonly prometheus.DataqueryBuilder[],
): B {
  let b = builder
    .title(spec.title)
    .description(spec.description)
    .datasource({ ...DATASOURCE })
    .unit(spec.unit ?? "short")
    .thresholds(thresholds(spec.thresholds))
    .mappings(mappings(spec.mappings));
  if (spec.min !== undefined) b = b.min(spec.min);
  if (spec.max !== undefined) b = b.max(spec.max);
  if (spec.decimals !== undefined) b = b.decimals(spec.decimals);
  for (const query of queries) b = b.withTarget(query);
  return b;
}

/**
 * Data links (`fieldConfig.defaults.links`): the SDK types them as dashboard links, whose
 * extra fields (type, tags, asDropdown, ...) mean nothing on a field, so they are written by hand.
 */
function withDataLinks(
  builder: cog.Builder<dashboard.Panel>,
  spec: CommonSpec,
): cog.Builder<dashboard.Panel> {
  const links = spec.links;
  if (links === undefined) return builder;
  return {
    build: () => {
      const panel = builder.build();
      const defaults = panel.fieldConfig?.defaults;
      if (defaults !== undefined)
        Object.assign(defaults, { links: links.map((l) => ({ title: l.title, url: l.url })) });
      return panel;
    },
  };
}

const THRESHOLDS_STYLE: Readonly<
  Record<NonNullable<TimeseriesSpec["thresholdStyle"]>, common.GraphThresholdsStyleMode>
> = {
  line: common.GraphThresholdsStyleMode.Line,
  area: common.GraphThresholdsStyleMode.Area,
  off: common.GraphThresholdsStyleMode.Off,
};

function timeseriesPanel(spec: TimeseriesSpec): timeseries.PanelBuilder {
  const stacked = spec.stack === true;
  const style = spec.thresholdStyle ?? (spec.thresholds === undefined ? "off" : "line");
  return withCommon(new timeseries.PanelBuilder(), spec, targets(spec.queries, false))
    .colorScheme(new dashboard.FieldColorBuilder().mode(dashboard.FieldColorModeId.PaletteClassic))
    .drawStyle(common.GraphDrawStyle.Line)
    .lineWidth(1)
    .fillOpacity(stacked ? 40 : 10)
    .gradientMode(common.GraphGradientMode.None)
    .showPoints(common.VisibilityMode.Never)
    .spanNulls(false)
    .stacking(
      new common.StackingConfigBuilder()
        .mode(stacked ? common.StackingMode.Normal : common.StackingMode.None)
        .group("A"),
    )
    .thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(THRESHOLDS_STYLE[style]))
    .legend(
      new common.VizLegendOptionsBuilder()
        .displayMode(common.LegendDisplayMode.Table)
        .placement(common.LegendPlacement.Bottom)
        .showLegend(true)
        .calcs([...(spec.legendCalcs ?? ["lastNotNull", "max"])]),
    )
    .tooltip(
      new common.VizTooltipOptionsBuilder()
        .mode(common.TooltipDisplayMode.Multi)
        .sort(common.SortOrder.Descending),
    );
}

/** The builders of panels that reduce each series to one value (stat, bar gauge). */
interface ReducingBuilder<B> extends CommonBuilder<B> {
  colorScheme(color: cog.Builder<dashboard.FieldColor>): B;
  reduceOptions(reduceOptions: cog.Builder<common.ReduceDataOptions>): B;
}

/**
 * A panel showing each series' last value (instant queries, one value per series) coloured
 * by its thresholds.
 */
function lastValuePanel<B extends ReducingBuilder<B>>(builder: B, spec: CommonSpec): B {
  return withCommon(builder, spec, targets(spec.queries, true, prometheus.PromQueryFormat.TimeSeries))
    .colorScheme(new dashboard.FieldColorBuilder().mode(dashboard.FieldColorModeId.Thresholds))
    .reduceOptions(new common.ReduceDataOptionsBuilder().calcs(["lastNotNull"]).fields("").values(false));
}

const STAT_COLOR_MODE: Readonly<Record<NonNullable<StatSpec["colorMode"]>, common.BigValueColorMode>> = {
  background: common.BigValueColorMode.Background,
  value: common.BigValueColorMode.Value,
  none: common.BigValueColorMode.None,
};

const STAT_TEXT_MODE: Readonly<Record<NonNullable<StatSpec["textMode"]>, common.BigValueTextMode>> = {
  auto: common.BigValueTextMode.Auto,
  value: common.BigValueTextMode.Value,
  name: common.BigValueTextMode.Name,
  value_and_name: common.BigValueTextMode.ValueAndName,
};

function statPanel(spec: StatSpec): stat.PanelBuilder {
  const panel = lastValuePanel(new stat.PanelBuilder(), spec)
    .colorMode(STAT_COLOR_MODE[spec.colorMode ?? "background"])
    .graphMode(common.BigValueGraphMode.None)
    .justifyMode(common.BigValueJustifyMode.Auto)
    .orientation(common.VizOrientation.Auto)
    .textMode(STAT_TEXT_MODE[spec.textMode ?? "auto"]);
  return spec.noValue === undefined ? panel : panel.noValue(spec.noValue);
}

/**
 * Column overrides: Grafana's model types an override's properties as free-form id/value
 * pairs, so these are the one part of a table the SDK cannot check.
 */
function columnProperties(column: ColumnSpec): dashboard.DynamicConfigValue[] {
  const properties: dashboard.DynamicConfigValue[] = [];
  if (column.displayName !== undefined) properties.push({ id: "displayName", value: column.displayName });
  if (column.unit !== undefined) properties.push({ id: "unit", value: column.unit });
  if (column.thresholds !== undefined) {
    properties.push({ id: "thresholds", value: thresholds(column.thresholds).build() });
  }
  if (column.mappings !== undefined) properties.push({ id: "mappings", value: mappings(column.mappings) });
  if (column.colored === true) {
    const cell: common.TableColoredBackgroundCellOptions = {
      type: common.TableCellDisplayMode.ColorBackground,
      mode: common.TableCellBackgroundDisplayMode.Basic,
    };
    properties.push({ id: "custom.cellOptions", value: cell });
  }
  return properties;
}

function tablePanel(spec: TableSpec): table.PanelBuilder {
  const excludeByName: Record<string, boolean> = { Time: true, job: true, instance: true, __name__: true };
  for (const name of spec.hide ?? []) excludeByName[name] = true;
  let b = withCommon(new table.PanelBuilder(), spec, targets(spec.queries, true))
    .align(common.FieldTextAlignment.Auto)
    .cellOptions({ type: common.TableCellDisplayMode.Auto })
    .filterable(true)
    .showHeader(true)
    .cellHeight(common.TableCellHeight.Sm)
    .footer(new common.TableFooterOptionsBuilder().show(false).reducer(["sum"]))
    // Several instant queries become one table: merge joins rows on their common label columns.
    .withTransformation({ id: "merge", options: {} })
    .withTransformation({ id: "organize", options: { excludeByName, renameByName: {}, indexByName: {} } });
  for (const column of spec.columns ?? []) b = b.overrideByName(column.field, columnProperties(column));
  return b;
}

function heatmapPanel(spec: HeatmapSpec): heatmap.PanelBuilder {
  return withCommon(
    new heatmap.PanelBuilder(),
    spec,
    targets(spec.queries, false, prometheus.PromQueryFormat.Heatmap),
  )
    .hideFrom(new common.HideSeriesConfigBuilder().legend(false).tooltip(false).viz(false))
    .calculate(false)
    .cellGap(1)
    .color(
      new heatmap.HeatmapColorOptionsBuilder()
        .mode(heatmap.HeatmapColorMode.Scheme)
        .scheme("Oranges")
        .steps(64)
        .exponent(0.5)
        .fill("dark-orange")
        .reverse(false),
    )
    .yAxis(
      new heatmap.YAxisConfigBuilder()
        .axisPlacement(common.AxisPlacement.Left)
        .unit(spec.unit ?? "s")
        .reverse(false),
    )
    .rowsFrame(new heatmap.RowsHeatmapOptionsBuilder().layout(common.HeatmapCellLayout.Auto))
    .mode(common.TooltipDisplayMode.Single)
    .showYHistogram()
    .showColorScale(false)
    .showLegend()
    .cellValues(new heatmap.CellValuesBuilder().unit("short"))
    .filterValues(new heatmap.FilterValueRangeBuilder().le(1e-9));
}

function barGaugePanel(spec: BarGaugeSpec): bargauge.PanelBuilder {
  return lastValuePanel(new bargauge.PanelBuilder(), spec)
    .orientation(common.VizOrientation.Horizontal)
    .displayMode(common.BarGaugeDisplayMode.Gradient)
    .showUnfilled(true)
    .valueMode(common.BarGaugeValueMode.Color)
    .namePlacement(common.BarGaugeNamePlacement.Auto)
    .sizing(common.BarGaugeSizing.Auto)
    .minVizHeight(10)
    .minVizWidth(0)
    .maxVizHeight(300);
}

const DEFAULT_SIZE: Readonly<Record<PanelSpec["kind"], { w: number; h: number }>> = {
  timeseries: { w: 12, h: 8 },
  stat: { w: 4, h: 4 },
  table: { w: 24, h: 8 },
  heatmap: { w: 12, h: 8 },
  bargauge: { w: 8, h: 8 },
};

/** The SDK builder of one panel, without its id and position. */
function panelBuilder(spec: PanelSpec): cog.Builder<dashboard.Panel> & {
  id(id: number): unknown;
  gridPos(gridPos: dashboard.GridPos): unknown;
} {
  switch (spec.kind) {
    case "timeseries":
      return timeseriesPanel(spec);
    case "stat":
      return statPanel(spec);
    case "table":
      return tablePanel(spec);
    case "heatmap":
      return heatmapPanel(spec);
    case "bargauge":
      return barGaugePanel(spec);
  }
}

/** A row or a panel, positioned, in dashboard order. */
type Placed = { readonly row: dashboard.RowBuilder } | { readonly panel: cog.Builder<dashboard.Panel> };

/**
 * Lays out rows top to bottom, panels left to right wrapping at 24 columns (before a panel
 * that would not fit, unlike the SDK's own auto-layout), and numbers panels from 1 in that
 * order, so ids and positions are deterministic.
 */
function place(rows: readonly RowSpec[]): Placed[] {
  const out: Placed[] = [];
  let id = 1;
  let y = 0;
  for (const row of rows) {
    out.push({ row: new dashboard.RowBuilder(row.title).id(id++).gridPos({ h: 1, w: 24, x: 0, y }) });
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
      const builder = panelBuilder(spec);
      builder.id(id++);
      builder.gridPos({ h, w, x, y });
      out.push({ panel: withDataLinks(builder, spec) });
      x += w;
      lineHeight = Math.max(lineHeight, h);
    }
    y += lineHeight;
  }
  return out;
}

/** The laid-out rows and panels as JSON (see `place` for the layout rules). */
export function layoutPanels(rows: readonly RowSpec[]): JsonObject[] {
  return place(rows).map((p) => toJson("row" in p ? p.row.build() : p.panel.build()));
}

function variable(spec: VariableSpec): cog.Builder<dashboard.VariableModel> {
  if (spec.kind === "datasource") {
    return new dashboard.DatasourceVariableBuilder("datasource")
      .label("Data source")
      .type("prometheus")
      .hide(dashboard.VariableHide.DontHide)
      .includeAll(false)
      .multi(false)
      .regex("");
  }
  let b = new dashboard.QueryVariableBuilder(spec.name)
    .label(spec.label)
    .datasource({ ...DATASOURCE })
    .query({ query: spec.query, refId: "PrometheusVariableQueryEditor-VariableQuery" })
    .hide(dashboard.VariableHide.DontHide)
    .includeAll(spec.includeAll)
    .multi(spec.multi)
    .options([])
    // Refresh on time range change: new clusters and jobs show up without a reload.
    .refresh(dashboard.VariableRefresh.OnTimeRangeChanged)
    .regex("")
    .sort(dashboard.VariableSort.AlphabeticalAsc);
  if (spec.allValue !== undefined) b = b.allValue(spec.allValue);
  // `definition` is the query text Grafana's variable list shows; the SDK's model lacks it.
  return extended(b, { definition: spec.query });
}

function annotation(spec: AnnotationSpec): cog.Builder<dashboard.AnnotationQuery> {
  const b = new dashboard.AnnotationQueryBuilder()
    .name(spec.name)
    .datasource({ ...DATASOURCE })
    .enable(true)
    .hide(false)
    .iconColor(spec.iconColor)
    .expr(spec.expr);
  // The Prometheus annotation fields belong to the datasource plugin, not to the SDK's model.
  return extended(b, {
    step: "60s",
    titleFormat: spec.titleFormat,
    textFormat: spec.textFormat,
    tagKeys: "severity",
    useValueForTime: false,
  });
}

/** Renders a dashboard spec to Grafana's JSON model (provisionable and importable as is). */
export function renderDashboard(spec: DashboardSpec): JsonObject {
  let b = new dashboard.DashboardBuilder(spec.title)
    .uid(spec.uid)
    .description(spec.description)
    .tags([...spec.tags])
    .editable()
    .tooltip(dashboard.DashboardCursorSync.Crosshair)
    .fiscalYearStartMonth(0)
    .liveNow(false)
    .version(1)
    .refresh(spec.refresh ?? "30s")
    .time(spec.time ?? { from: "now-6h", to: "now" })
    .timezone("")
    .weekStart("")
    .link(
      new dashboard.DashboardLinkBuilder("vdbcloud dashboards")
        .type(dashboard.DashboardLinkType.Dashboards)
        .tags([DASHBOARD_LINK_TAG])
        .asDropdown(true)
        .includeVars(true)
        .keepTime(true)
        .icon("external link")
        .targetBlank(false)
        .url("")
        .tooltip(""),
    )
    .annotations((spec.annotations ?? []).map(annotation))
    .variables(spec.variables.map(variable));
  for (const placed of place(spec.rows))
    b = "row" in placed ? b.withRow(placed.row) : b.withPanel(placed.panel);
  const json = toJson(b.build());
  // The SDK stamps its own Grafana's schema version; see SCHEMA_VERSION for why it stays at 39.
  json.schemaVersion = SCHEMA_VERSION;
  return json;
}
