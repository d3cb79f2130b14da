/**
 * docs/metrics.md is the family catalog's own rendering: it is not stale, every family of
 * families.ts carries its reference entry, and every `vdbcloud_` family the permissive demo
 * (the one with every family and collector on) exposes is in it, with the labels it documents.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METRICS_DOC_FILE, README_FILE, renderMetricsDoc, renderReadme } from "../scripts/metricsDoc.js";
import { DEMO_CLUSTERS, demoConfig, demoRunOptions, startDemoSimulator } from "../src/app/demo.js";
import { REFERENCE_AREAS } from "../src/collectors/registry.js";
import { familyReference } from "../src/metrics/reference.js";
import { ENDPOINTS } from "../src/upstream/endpoints/table.js";
import { type Harness, parseSamples, startHarness } from "./helpers/harness.js";

const ROOT = join(import.meta.dirname, "..");
const committed = readFileSync(join(ROOT, METRICS_DOC_FILE), "utf8");
const families = familyReference(REFERENCE_AREAS).flatMap((a) => a.families);

describe("docs/metrics.md", () => {
  it("is what `npm run generate` writes from the families' reference entries", () => {
    expect(committed, "run `npm run generate`").toBe(renderMetricsDoc());
  });

  it("and the README's table of families by area are what `npm run generate` writes", () => {
    const readme = readFileSync(join(ROOT, README_FILE), "utf8");
    expect(readme, "run `npm run generate`").toBe(renderReadme(readme));
    for (const area of familyReference(REFERENCE_AREAS))
      expect(readme).toContain(`[${area.title}](docs/metrics.md#`);
  });

  it("lists every family of families.ts, each with a reference entry", () => {
    expect(families.length).toBeGreaterThan(60);
    const undocumented = families.filter((f) => f.doc === undefined).map((f) => f.name);
    expect(undocumented, "families without a reference entry (the spec of gauge, counter, ...)").toEqual([]);
    for (const f of families) {
      expect(committed).toContain(`### ${f.name}\n`);
      expect(f.doc?.unit, f.name).not.toBe("");
      expect(f.doc?.source, f.name).not.toBe("");
      expect(f.doc?.absent, f.name).not.toBe("");
    }
  });

  it("names in each source only endpoints the endpoint table declares", () => {
    const declared = new Set<string>(ENDPOINTS);
    const named = families.flatMap((f) =>
      [...(f.doc?.source ?? "").matchAll(/\b(GET|POST) (\/v\d\/[^\s?,;:)]*)/g)].map((m) => ({
        family: f.name,
        endpoint: `${m[1]} ${m[2]}`,
      })),
    );
    expect(named.length).toBeGreaterThan(60);
    expect(named.filter((n) => !declared.has(n.endpoint))).toEqual([]);
  });

  it("names each family once", () => {
    const names = families.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("the permissive demo against docs/metrics.md", () => {
  let h: Harness | undefined;
  const tokenDir = mkdtempSync(join(tmpdir(), "vdbcloud-metrics-doc-"));

  beforeAll(async () => {
    // The demo as `--demo --demo-metric-catalog permissive` runs it: its simulator, its config.
    const sim = await startDemoSimulator({ clusters: DEMO_CLUSTERS, metricCatalog: "permissive" });
    const run = demoConfig(sim, demoRunOptions("127.0.0.1:0", tokenDir, "permissive"));
    h = await startHarness({
      simulator: sim,
      config: (raw) => {
        for (const key of Object.keys(raw)) delete raw[key];
        Object.assign(raw, run);
      },
    });
    await h.exporter.scheduler.firstCycle();
    await h.settle();
  }, 120_000);

  afterAll(async () => {
    const sim = h?.sim;
    await h?.close();
    await sim?.close();
    rmSync(tokenDir, { recursive: true, force: true });
  });

  it("exposes no vdbcloud_ family the reference lacks, and labels each as documented", async () => {
    const text = await (h as Harness).metrics();
    const exposed = new Set([...text.matchAll(/^# TYPE (vdbcloud_\S+) /gm)].map((m) => m[1] as string));
    expect(exposed.size).toBeGreaterThan(50);
    const documented = new Set([...committed.matchAll(/^### (vdbcloud_\S+)$/gm)].map((m) => m[1] as string));
    expect([...exposed].filter((name) => !documented.has(name))).toEqual([]);

    // Each sample's labels are the documented ones, in their order (a scope's optional ones may be missing).
    const docs = new Map(families.map((f) => [f.name, f.doc?.labels ?? []]));
    const familyOf = (series: string): string =>
      [...exposed].find(
        (f) => series === f || series === `${f}_bucket` || series === `${f}_sum` || series === `${f}_count`,
      ) ?? series;
    const wrong = new Set<string>();
    for (const s of parseSamples(text)) {
      if (!s.name.startsWith("vdbcloud_")) continue;
      const family = familyOf(s.name);
      const expected = docs.get(family) ?? [];
      const names = Object.keys(s.labels).filter((l) => l !== "le");
      let at = 0;
      for (const l of names) {
        at = expected.indexOf(l, at);
        if (at < 0) {
          wrong.add(`${family}: ${names.join(",")} not within ${expected.join(",")}`);
          break;
        }
        at++;
      }
    }
    expect([...wrong]).toEqual([]);
  });
});
