/**
 * The committed dashboards: up to date with their generator, structurally importable by
 * Grafana 10+, every query valid PromQL (checked by the real promtool) over families the
 * exporter exposes or rules recording.yml, native.yml and slo.yml define, every query over a cluster
 * metric family reading either source.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { renderAll } from "../grafana/boards/index.js";
import {
  type DashboardSpec,
  DashboardSpecError,
  layoutPanels,
  type PanelSpec,
  renderDashboard,
  SCHEMA_VERSION,
} from "../grafana/lib/panels.js";
import {
  allPanels,
  dashboardQueries,
  expandVariables,
  metricNamesIn,
  parseLabelValues,
  variablesIn,
  variablesOutsideRegexMatchers,
} from "../grafana/lib/queries.js";
import { withNativeSources } from "../scripts/native.js";
import { EXPOSED_FAMILIES, PROMETHEUS_SERIES, seriesNamesOf } from "./helpers/families.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const DASHBOARD_DIR = join(ROOT, "grafana", "dashboards");

type Obj = Record<string, unknown>;

/** How Grafana spells a reference to the `datasource` variable. */
const DATASOURCE_VARIABLE_REF = `$\{datasource}`;

const files = readdirSync(DASHBOARD_DIR)
  .filter((f) => f.endsWith(".json"))
  .sort();
const dashboards = new Map<string, Obj>(
  files.map((f) => [f, JSON.parse(readFileSync(join(DASHBOARD_DIR, f), "utf8")) as Obj]),
);
const queries = [...dashboards].flatMap(([file, d]) => dashboardQueries(d, file));

/** The recorded names of rule files of config/prometheus/rules, each once. */
function recordedNames(files: readonly string[]): string[] {
  return [
    ...new Set(
      files.flatMap((file) =>
        (
          parse(readFileSync(join(ROOT, "config", "prometheus", "rules", file), "utf8")) as {
            groups: Array<{ rules: Array<{ record?: string }> }>;
          }
        ).groups.flatMap((g) => g.rules.flatMap((r) => (r.record === undefined ? [] : [r.record]))),
      ),
    ),
  ];
}

/** The recorded names of recording.yml and native.yml (a natively scraped cluster's families). */
const recordingRules = recordedNames(["recording.yml", "native.yml"]);

/**
 * The error-budget rules' recorded names (slo.yml): the SLO dashboard reads some, the alerts
 * need every window, so they are known series but not each a dashboard's.
 */
const sloRecordings = recordedNames(["slo.yml"]);

const KNOWN_SERIES = new Set([
  ...EXPOSED_FAMILIES.flatMap(seriesNamesOf),
  ...recordingRules,
  ...sloRecordings,
  ...PROMETHEUS_SERIES,
]);

function panelsOf(d: Obj): Obj[] {
  return allPanels(d).filter((p) => p.type !== "row");
}

/** Every `datasource` object anywhere in the JSON. */
function datasourceRefs(node: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) {
    for (const n of node) datasourceRefs(n, out);
  } else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "datasource") out.push(value);
      datasourceRefs(value, out);
    }
  }
  return out;
}

describe("generated dashboards", () => {
  const rendered = renderAll();

  it("the committed files are exactly the generator's dashboards (run `npx tsx grafana/generate.ts`)", () => {
    expect(files).toEqual([...rendered.keys()].sort());
    for (const [file, json] of rendered) expect(dashboards.get(file), file).toEqual(json);
  });

  it("uids are unique and stable", () => {
    const uids = [...dashboards.values()].map((d) => d.uid);
    expect(uids.sort()).toEqual([
      "vdbcloud-cluster",
      "vdbcloud-collections",
      "vdbcloud-cost",
      "vdbcloud-data-protection",
      "vdbcloud-exporter",
      "vdbcloud-jobs",
      "vdbcloud-overview",
      "vdbcloud-slo",
    ]);
  });
});

describe.each([...dashboards])("dashboard %s", (_file, d) => {
  it("is a Grafana 10+ dashboard with a datasource variable of type prometheus", () => {
    expect(d.schemaVersion).toBeGreaterThanOrEqual(38);
    expect(typeof d.title).toBe("string");
    const list = (d.templating as { list: Obj[] }).list;
    expect(list[0]).toMatchObject({ name: "datasource", type: "datasource", query: "prometheus" });
  });

  it("references datasources only through the datasource variable (no hard-coded uid)", () => {
    const refs = datasourceRefs(d);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref).toEqual({ type: "prometheus", uid: DATASOURCE_VARIABLE_REF });
  });

  it("has unique panel ids and panels that fit the 24-column grid without overlapping", () => {
    const panels = allPanels(d);
    const ids = panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const boxes = panels.map((p) => p.gridPos as { x: number; y: number; w: number; h: number });
    for (const [i, a] of boxes.entries()) {
      expect(a.x + a.w).toBeLessThanOrEqual(24);
      for (const b of boxes.slice(i + 1)) {
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `${JSON.stringify(a)} overlaps ${JSON.stringify(b)}`).toBe(false);
      }
    }
  });

  it("gives every panel a description, a unit and at least one query", () => {
    for (const p of panelsOf(d)) {
      expect(p.description, String(p.title)).toMatch(/\S{3,}/);
      const defaults = (p.fieldConfig as { defaults: Obj }).defaults;
      expect(defaults.unit, String(p.title)).toEqual(expect.any(String));
      expect((p.targets as unknown[]).length, String(p.title)).toBeGreaterThan(0);
    }
  });

  it("uses its custom variables only inside regex matchers (safe with multi-value and All)", () => {
    const names = new Set(((d.templating as { list: Obj[] }).list ?? []).map((v) => String(v.name)));
    for (const q of dashboardQueries(d, "")) {
      expect(variablesOutsideRegexMatchers(q.expr), `${q.where}: ${q.expr}`).toEqual([]);
      for (const v of variablesIn(q.expr)) {
        if (!v.startsWith("__")) expect(names, `${q.where} uses undefined $${v}`).toContain(v);
      }
    }
  });
});

describe("dashboard contents", () => {
  it("overview variables chain project -> region -> cluster from vdbcloud_cluster_info", () => {
    const overview = dashboards.get("vdbcloud-overview.json") ?? {};
    const list = (overview.templating as { list: Obj[] }).list;
    const byName = new Map(list.map((v) => [v.name, v]));
    for (const [name, label] of [
      ["project", "project_id"],
      ["region", "region_id"],
      ["cluster", "cluster_id"],
    ] as const) {
      const v = byName.get(name);
      const parsed = parseLabelValues(String(v?.definition));
      expect(parsed.label).toBe(label);
      expect(parsed.selector).toMatch(/^vdbcloud_cluster_info\b/);
    }
  });

  it("only reads families the exporter exposes or recording.yml, native.yml and slo.yml define", () => {
    const unknown = queries.flatMap((q) =>
      metricNamesIn(expandVariables(q.expr))
        .filter((m) => !KNOWN_SERIES.has(m))
        .map((m) => `${q.dashboard} ${q.where}: ${m}`),
    );
    expect(unknown).toEqual([]);
  });

  it("shows every exposed family on some dashboard and uses every recording rule", () => {
    const used = new Set(queries.flatMap((q) => metricNamesIn(expandVariables(q.expr))));
    const unshown = EXPOSED_FAMILIES.filter((f) => !seriesNamesOf(f).some((s) => used.has(s)));
    expect(unshown).toEqual([]);
    expect(recordingRules.filter((r) => !used.has(r))).toEqual([]);
  });

  it("reads the exporter's family or its native recording in every query over a cluster family", () => {
    const either = queries.filter((q) => / or on \(/.test(q.expr) && /vdbcloud_cluster:/.test(q.expr));
    expect(either.length).toBeGreaterThan(30);
    for (const q of queries) {
      const where = `${q.dashboard} ${q.where}: ${q.expr}`;
      // The exporter's own dashboard: the data age of its polls, not of the native scrapes.
      if (q.dashboard === "vdbcloud-exporter.json")
        expect(q.expr, where).not.toMatch(/vdbcloud_(cluster|collection):/);
      else expect(withNativeSources(q.expr), where).toBe(q.expr);
    }
  });

  it("shows every cluster metric family on the cluster dashboard", () => {
    const cluster = dashboards.get("vdbcloud-cluster.json") ?? {};
    const used = new Set(
      dashboardQueries(cluster, "cluster").flatMap((q) => metricNamesIn(expandVariables(q.expr))),
    );
    // Cluster families are the ones keyed by cluster_id from Query Cluster Metrics (docs/design.md section 5).
    const clusterFamilies = EXPOSED_FAMILIES.slice(0, EXPOSED_FAMILIES.indexOf("vdbcloud_import_job_state"));
    expect(clusterFamilies.length).toBeGreaterThan(15);
    expect(clusterFamilies.filter((f) => !used.has(f))).toEqual([]);
  });
});

describe("metric name extraction (used by the checks above)", () => {
  it.each([
    ["sum by (cluster_id) (rate(vdbcloud_a_total[5m]))", ["vdbcloud_a_total"]],
    ['x{a="b c"} * on (cluster_id) group_left (cluster_name) max by (cluster_id) (y)', ["x", "y"]],
    ["time() - vdbcloud_t offset 5m > 1e3", ["vdbcloud_t"]],
    ['vdbcloud:rec:max{job=~"$job"} or vector(0)', ["vdbcloud:rec:max"]],
    ['count(z == 1) by (status) and bool w{s!="running"}', ["z", "w"]],
  ])("%s -> %j", (expr, names) => {
    expect(metricNamesIn(expandVariables(expr)).sort()).toEqual([...names].sort());
  });

  it.each([
    ['x{c=~"$cluster"}[$__rate_interval]', {}, 'x{c=~".+"}[2m]'],
    [`x{c=~"$\{cluster:pipe}", d=~"[[db]]"}`, { cluster: "a|b" }, 'x{c=~"a|b", d=~".+"}'],
  ])("expands %s", (expr, values, expected) => {
    expect(expandVariables(expr, values)).toBe(expected);
  });

  it("flags variables outside regex matchers", () => {
    expect(variablesOutsideRegexMatchers('x{c="$cluster", d=~"$db"}[$__interval]')).toEqual(["cluster"]);
  });
});

describe("panel layout (grafana/lib/panels.ts)", () => {
  const stat = (title: string, w?: number): PanelSpec => ({
    kind: "stat",
    title,
    description: "d",
    queries: [{ expr: "up" }],
    ...(w === undefined ? {} : { w }),
  });

  it("numbers panels in order and wraps rows at 24 columns", () => {
    const panels = layoutPanels([
      { title: "r1", panels: [stat("a", 12), stat("b", 8), stat("c", 8)] },
      { title: "r2", panels: [stat("d")] },
    ]);
    expect(panels.map((p) => [p.id, p.type, p.title, p.gridPos])).toEqual([
      [1, "row", "r1", { h: 1, w: 24, x: 0, y: 0 }],
      [2, "stat", "a", { h: 4, w: 12, x: 0, y: 1 }],
      [3, "stat", "b", { h: 4, w: 8, x: 12, y: 1 }],
      [4, "stat", "c", { h: 4, w: 8, x: 0, y: 5 }],
      [5, "row", "r2", { h: 1, w: 24, x: 0, y: 9 }],
      [6, "stat", "d", { h: 4, w: 4, x: 0, y: 10 }],
    ]);
  });

  it.each([0, 25])("rejects a panel %i columns wide", (w) => {
    expect(() => layoutPanels([{ title: "r", panels: [stat("x", w)] }])).toThrow(DashboardSpecError);
  });

  it("puts exact value mappings before regex ones, anchored", () => {
    const [, panel = {}] = layoutPanels([
      {
        title: "r",
        panels: [
          {
            ...stat("m"),
            mappings: [
              { value: ".*", color: "orange", regex: true },
              { value: "running", color: "green" },
            ],
          },
        ],
      },
    ]);
    const fieldConfig = panel.fieldConfig as { defaults: { mappings: unknown[] } };
    const mappings = fieldConfig.defaults.mappings;
    expect(mappings).toEqual([
      { type: "value", options: { running: { color: "green", index: 1 } } },
      { type: "regex", options: { pattern: "^.*$", result: { color: "orange", index: 0 } } },
    ]);
  });
});

describe("rendering through Grafana's builders (grafana/lib/panels.ts)", () => {
  const spec: DashboardSpec = {
    uid: "u",
    title: "t",
    description: "d",
    tags: ["vdbcloud"],
    variables: [
      { kind: "datasource" },
      { kind: "query", name: "v", label: "V", query: "label_values(up, job)", multi: true, includeAll: true },
    ],
    annotations: [
      {
        name: "a",
        expr: "ALERTS",
        titleFormat: "{{alertname}}",
        textFormat: "{{severity}}",
        iconColor: "red",
      },
    ],
    rows: [
      {
        title: "r",
        panels: [
          {
            kind: "timeseries",
            title: "ts",
            description: "d",
            queries: [{ expr: "up" }],
            links: [{ title: "l", url: "/d/x" }],
          },
          { kind: "stat", title: "st", description: "d", queries: [{ expr: "up" }] },
          {
            kind: "table",
            title: "tb",
            description: "d",
            queries: [{ expr: "up" }, { expr: "up", instant: false }],
          },
          { kind: "heatmap", title: "hm", description: "d", queries: [{ expr: "up" }] },
          { kind: "bargauge", title: "bg", description: "d", queries: [{ expr: "up" }] },
        ],
      },
    ],
  };
  const json = renderDashboard(spec);
  const panels = (json.panels as Obj[]).filter((p) => p.type !== "row");
  const templating = (json.templating as { list: Obj[] }).list;

  it("writes the schema version the model is written for, not the SDK's own", () => {
    expect(json.schemaVersion).toBe(SCHEMA_VERSION);
  });

  it("is plain JSON with identifying keys first (no builder leftovers, stable file order)", () => {
    expect(JSON.parse(JSON.stringify(json))).toStrictEqual(json);
    expect(Object.keys(json).slice(0, 3)).toEqual(["uid", "title", "description"]);
    for (const p of panels)
      expect(Object.keys(p).slice(0, 4)).toEqual(["id", "type", "title", "description"]);
  });

  it.each([
    ["ts", "timeseries", [{ instant: false, range: true, format: "time_series" }]],
    ["st", "stat", [{ instant: true, range: false, format: "time_series" }]],
    [
      "tb",
      "table",
      [
        { instant: true, range: false, format: "table" },
        { instant: false, range: true, format: "time_series" },
      ],
    ],
    ["hm", "heatmap", [{ instant: false, range: true, format: "heatmap" }]],
    ["bg", "bargauge", [{ instant: true, range: false, format: "time_series" }]],
  ])("panel %s is a %s panel with queries %j", (title, type, expected) => {
    const panel = panels.find((p) => p.title === title);
    expect(panel?.type).toBe(type);
    const targets = (panel?.targets ?? []) as Obj[];
    expect(targets.map((t) => ({ instant: t.instant, range: t.range, format: t.format }))).toEqual(expected);
    expect(targets.map((t) => t.refId)).toEqual(["A", "B"].slice(0, expected.length));
  });

  it("writes data links as Grafana's field links (title and url only, not dashboard links)", () => {
    const ts = panels.find((p) => p.title === "ts") as { fieldConfig: { defaults: Obj } };
    expect(ts.fieldConfig.defaults.links).toStrictEqual([{ title: "l", url: "/d/x" }]);
  });

  it("adds the fields the SDK's model lacks: the Prometheus annotation fields, a variable's definition", () => {
    expect((json.annotations as { list: Obj[] }).list[0]).toMatchObject({
      expr: "ALERTS",
      titleFormat: "{{alertname}}",
      textFormat: "{{severity}}",
      tagKeys: "severity",
      step: "60s",
      datasource: { type: "prometheus", uid: DATASOURCE_VARIABLE_REF },
    });
    expect(templating[1]).toMatchObject({
      name: "v",
      definition: "label_values(up, job)",
      query: { query: "label_values(up, job)" },
      refresh: 2,
    });
    expect(templating[1]).not.toHaveProperty("allValue");
  });

  it("rejects a panel with more queries than refIds", () => {
    const many = Array.from({ length: 27 }, () => ({ expr: "up" }));
    const rows = [
      { title: "r", panels: [{ kind: "stat", title: "s", description: "d", queries: many } as const] },
    ];
    expect(() => layoutPanels(rows)).toThrow(/too many queries in one panel \(27\)/);
  });
});

const promtool = toolOrSkip("promtool");
const tmp = tempDir("vdbcloud-dashboards-");

function checkRules(exprs: readonly string[]): { status: number | null; output: string } {
  const path = join(tmp, `q${Date.now()}-${Math.random().toString(36).slice(2)}.yml`);
  const rules = exprs.map((expr, i) => ({ record: `dashboard_query_${i}`, expr }));
  writeFileSync(path, stringify({ groups: [{ name: "dashboard-queries", rules }] }));
  const result = spawnSync(toolPath(promtool), ["check", "rules", path], { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("dashboard PromQL", () => {
  // Runs the real promtool (skipped with a printed notice when it is missing; CI fails instead).
  it.skipIf(promtool.skip)("every panel, variable and annotation query parses (promtool check rules)", () => {
    expect(queries.length).toBeGreaterThan(50);
    const { status, output } = checkRules(queries.map((q) => expandVariables(q.expr)));
    // promtool names the failing rule by index: map it back for a readable failure.
    const bad = [...output.matchAll(/dashboard_query_(\d+)/g)].map((m) => {
      const q = queries[Number(m[1])];
      return `${q?.dashboard} ${q?.where}: ${q?.expr}`;
    });
    expect(bad, output).toEqual([]);
    expect(output).toContain(`SUCCESS: ${queries.length} rules found`);
    expect(status, output).toBe(0);
  });

  it.skipIf(promtool.skip)("the check itself rejects invalid PromQL", () => {
    const { status } = checkRules(["sum by (cluster_id (vdbcloud_vcu)"]);
    expect(status).not.toBe(0);
  });
});
