import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { STATIC_FAMILIES } from "../collectors/registry.js";
import { PROCESS_SELF_HISTOGRAMS } from "../metrics/families.js";
import { loadShippedRules, SHIPPED_RULES_DIR, seriesRead, shippedRules } from "./shippedRules.js";

// A rule reads a histogram (the exporter's own, or a collector's) through its _bucket, _sum and _count.
const HISTOGRAMS = new Set([
  ...Object.values(PROCESS_SELF_HISTOGRAMS).map((h) => h.name),
  ...STATIC_FAMILIES.filter((f) => f.type === "histogram").map((f) => f.name),
]);
const ROOT = resolve(import.meta.dirname, "../..");

describe("seriesRead", () => {
  it.each([
    ["a selector", 'vdbcloud_collector_up{collector="backups"} == 0', ["vdbcloud_collector_up"]],
    [
      "names in label values and strings are no series",
      'vdbcloud_collector_up{target="vdbcloud_fake"} and on (cluster_id) label_replace(vdbcloud_cluster_info, "x", "vdbcloud_y", "", "")',
      ["vdbcloud_collector_up", "vdbcloud_cluster_info"],
    ],
    [
      "recorded series, histogram series, functions and label lists",
      "histogram_quantile(0.99, sum by (job, le) (rate(vdbcloud_api_request_duration_seconds_bucket[5m]))) / vdbcloud:x:sum",
      ["vdbcloud_api_request_duration_seconds_bucket", "vdbcloud:x:sum"],
    ],
    ["each once", "vdbcloud_vcu + vdbcloud_vcu", ["vdbcloud_vcu"]],
    ["other namespaces are not the exporter's", 'up{job="vdbcloud"} == 0 or my_vdbcloud_thing', []],
    [
      "the error-budget rules' recorded series",
      "slo:canary_latency:error_ratio_rate1h > 0.144 and my_slo:x",
      ["slo:canary_latency:error_ratio_rate1h"],
    ],
  ])("%s", (_title, expr, series) => {
    expect(seriesRead(expr)).toEqual(series);
  });
});

describe("shippedRules", () => {
  it("reads a family through the recorded series that hold it, and histograms by family", () => {
    const doc = {
      groups: [
        {
          rules: [
            { record: "vdbcloud:a:sum", expr: "sum(vdbcloud_a)" },
            { record: "vdbcloud:b:ratio", expr: "vdbcloud:a:sum / vdbcloud_b" },
            { alert: "B", expr: "vdbcloud:b:ratio > 1 and vdbcloud_a > 0" },
            { alert: "H", expr: "rate(vdbcloud_api_request_duration_seconds_count[5m]) > 0" },
            // A circle of recorded series ends, and an item without expr is left out.
            { record: "vdbcloud:loop", expr: "vdbcloud:loop + vdbcloud_c" },
            { alert: "nothing" },
          ],
        },
      ],
    };
    const rules = shippedRules(new Map([["r.yml", doc]]), HISTOGRAMS);
    expect(rules.map((r) => [r.kind, r.name, r.reads])).toEqual([
      ["record", "vdbcloud:a:sum", [{ family: "vdbcloud_a" }]],
      [
        "record",
        "vdbcloud:b:ratio",
        [{ family: "vdbcloud_a", via: "vdbcloud:a:sum" }, { family: "vdbcloud_b" }],
      ],
      [
        "alert",
        "B",
        [
          { family: "vdbcloud_a", via: "vdbcloud:b:ratio" },
          { family: "vdbcloud_b", via: "vdbcloud:b:ratio" },
        ],
      ],
      ["alert", "H", [{ family: "vdbcloud_api_request_duration_seconds" }]],
      ["record", "vdbcloud:loop", [{ family: "vdbcloud_c" }]],
    ]);
    expect(rules.every((r) => r.file === "r.yml")).toBe(true);
  });
});

describe("the shipped rules", () => {
  it("are read from the package's config/prometheus/rules", async () => {
    expect(SHIPPED_RULES_DIR).toBe(`${join(ROOT, "config/prometheus/rules")}/`);
    const rules = await loadShippedRules(HISTOGRAMS);
    expect(new Set(rules?.map((r) => r.file))).toEqual(
      new Set(["alerts.yml", "native.yml", "recording.yml", "slo.yml"]),
    );
    const byName = new Map(rules?.map((r) => [r.name, r]));
    expect(byName.get("VdbcloudExporterNotPolling")?.reads).toEqual([
      { family: "vdbcloud_api_requests_total" },
    ]);
    expect(byName.get("vdbcloud:api_request_duration_seconds:p99_rate5m")?.reads).toEqual([
      { family: "vdbcloud_api_request_duration_seconds" },
    ]);
    expect(byName.get("vdbcloud:month_end_projected_cost:sum")?.reads).toEqual([
      { family: "vdbcloud_month_to_date_cost", via: "vdbcloud:month_to_date_cost:sum" },
    ]);
  });

  it("read only families the exporter declares, so a denied one is never missed by a typo", async () => {
    const known = new Set([...STATIC_FAMILIES.map((f) => f.name), ...HISTOGRAMS]);
    const rules = (await loadShippedRules(HISTOGRAMS)) ?? [];
    expect(rules.length).toBeGreaterThan(20);
    const unknown = rules.flatMap((r) =>
      r.reads.filter((x) => !known.has(x.family)).map((x) => `${r.name}: ${x.family}`),
    );
    expect(unknown).toEqual([]);
  });

  it("are none where the directory is missing", async () => {
    expect(await loadShippedRules(HISTOGRAMS, join(ROOT, "no-such-dir"))).toBeUndefined();
  });

  it("are in the image beside dist/, where the built module looks for them", () => {
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
    const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(runtime).toMatch(/^WORKDIR \/app$/m);
    expect(runtime).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runtime).toMatch(/^COPY config\/prometheus\/rules \.\/config\/prometheus\/rules$/m);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain("config");
  });
});
