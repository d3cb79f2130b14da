/**
 * The family lists against the simulator: a deny list removes exactly the families it names from
 * /metrics (at start and at a reload, at once), a collector whose every family is denied makes no
 * upstream call, and every family a collector writes is one it declares (the declarations decide
 * which collectors stop, so a family missing from one could be denied without its calls stopping,
 * or worse, a collector could stop while writing a family still admitted).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEMO_CLUSTERS, demoConfig, demoRunOptions, startDemoSimulator } from "../src/app/demo.js";
import { COLLECTORS } from "../src/collectors/registry.js";
import { buildConfig } from "../src/config/load.js";
import { SampleStore } from "../src/exposition/store.js";
import { HEALTH_FAMILY_NAMES } from "../src/metrics/families.js";
import { wholeName } from "../src/metrics/familyFilter.js";
import type { FamilyDef, Sample } from "../src/metrics/sample.js";
import { ENDPOINT } from "../src/upstream/types.js";
import { type Harness, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

let h: Harness | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

/** The family names of an exposition text. */
function familiesOf(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1] as string));
}

const IMPORT_ENDPOINTS = [ENDPOINT.listImportJobsV2, ENDPOINT.describeImportJob, ENDPOINT.listImportJobs];
const importCalls = (harness: Harness): number =>
  IMPORT_ENDPOINTS.reduce((n, e) => n + (harness.sim.stats.byEndpoint[e] ?? 0), 0);

/**
 * Denies every import job family (the whole import_jobs collector), one inventory family (the
 * inventory keeps running for the others) and one self-metric kept by prom-client.
 */
const DENY = ["vdbcloud_import_job.*", "vdbcloud_cluster_status", "vdbcloud_api_retries_total"];
const denied = (name: string): boolean => DENY.some((rule) => wholeName(rule).test(name));

/** The demo-shaped config of `harness`'s simulator with `families`. */
async function configWith(harness: Harness, families: Record<string, unknown>) {
  const raw = demoConfig(harness.sim, { listen: "127.0.0.1:0" });
  (raw.api as Record<string, unknown>).api_key = TEST_API_KEY;
  return buildConfig({ ...raw, families });
}

describe("a deny list", () => {
  it("removes exactly the named families at a reload, at once, and stops the calls of a collector it fully denies", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    h = await startHarness({ clock, sim: { now: () => clock.now(), clusters: 2 } });
    await h.exporter.scheduler.firstCycle();
    await h.settle();
    // One more cycle: the inventory has told each cluster's plan by then, and the metric names
    // a plan does not offer are no longer asked (the first cycle may ask them before it knows).
    await clock.advance(60_000);
    await h.settle();
    const before = familiesOf(await h.metrics());
    const removed = [...before].filter(denied);
    // Each rule removes something here, or the comparison below would prove nothing.
    for (const rule of DENY)
      expect(
        removed.some((name) => wholeName(rule).test(name)),
        rule,
      ).toBe(true);
    expect(importCalls(h)).toBeGreaterThan(0);
    expect(await h.metrics()).toContain('vdbcloud_collector_up{collector="import_jobs"');

    await h.exporter.applyConfig(await configWith(h, { deny: DENY }));
    // No poll in between (the clock stands still): the next publish has them gone.
    const after = familiesOf(await h.metrics());
    expect([...after].sort()).toEqual([...before].filter((name) => !denied(name)).sort());

    // Polls go on (two intervals, PT30S): none of import jobs, and the denied families stay out.
    h.sim.stats.reset();
    await clock.advance(60_000);
    await h.settle();
    expect(importCalls(h)).toBe(0);
    expect(h.sim.stats.byEndpoint[ENDPOINT.queryClusterMetrics] ?? 0).toBeGreaterThan(0);
    expect(h.sim.stats.byEndpoint[ENDPOINT.describeCluster] ?? 0).toBeGreaterThan(0);
    const polled = await h.metrics();
    expect([...familiesOf(polled)].filter(denied)).toEqual([]);
    // A collector that does not poll has no health series either; the others keep theirs.
    expect(polled).not.toContain('vdbcloud_collector_up{collector="import_jobs"');
    expect(polled).not.toContain('vdbcloud_collector_last_success_timestamp_seconds{collector="import_jobs"');
    expect(polled).toContain('vdbcloud_collector_up{collector="inventory"');

    // Lists emptied by the next reload: the collector polls again and its families come back.
    await h.exporter.applyConfig(await configWith(h, {}));
    await clock.advance(60_000);
    await h.settle();
    expect(importCalls(h)).toBeGreaterThan(0);
    expect([...familiesOf(await h.metrics())].sort()).toEqual([...before].sort());
  });

  it("in the config at start: the fully denied collector never calls, and the families never show", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    h = await startHarness({
      clock,
      sim: { now: () => clock.now(), clusters: 2 },
      config: (raw) => {
        raw.families = { deny: DENY };
      },
    });
    await h.exporter.scheduler.firstCycle();
    await h.settle();
    await clock.advance(30_000);
    await h.settle();
    expect(importCalls(h)).toBe(0);
    expect(h.sim.stats.byEndpoint[ENDPOINT.queryClusterMetrics] ?? 0).toBeGreaterThan(0);
    const families = familiesOf(await h.metrics());
    expect([...families].filter(denied)).toEqual([]);
    // What is not denied is there: the rest of the inventory, the other self-metrics.
    for (const name of ["vdbcloud_cluster_info", "vdbcloud_api_requests_total", ...HEALTH_FAMILY_NAMES]) {
      if (name === "vdbcloud_collector_not_permitted") continue; // only while a key lacks a role
      expect(families.has(name), name).toBe(true);
    }
  });
});

describe("the collectors' family declarations", () => {
  it("hold every family each collector writes in the permissive demo, every collector on", async () => {
    const written = new Map<string, Set<string>>();
    const put = SampleStore.prototype.put;
    vi.spyOn(SampleStore.prototype, "put").mockImplementation(function (
      this: SampleStore,
      key: { collector: string; target: string; slot: string },
      families: readonly FamilyDef[],
      samples: readonly Sample[],
      ttlMs: number | null,
    ) {
      const at = key.slot === "health" ? "health" : key.collector;
      const seen = written.get(at) ?? new Set<string>();
      for (const s of samples) seen.add(s.family);
      written.set(at, seen);
      put.call(this, key, families, samples, ttlMs);
    });
    const tokenDir = mkdtempSync(join(tmpdir(), "vdbcloud-families-"));
    try {
      const sim = await startDemoSimulator({ clusters: DEMO_CLUSTERS, metricCatalog: "permissive" });
      const run = demoConfig(sim, demoRunOptions("127.0.0.1:0", tokenDir, "permissive"));
      h = await startHarness({
        config: (raw) => {
          for (const key of Object.keys(raw)) delete raw[key];
          Object.assign(raw, run);
        },
        simulator: sim,
      });
      await h.exporter.scheduler.firstCycle();
      await h.settle();
      const config = await buildConfig(run);
      await h.close();
      await sim.close();
      h = undefined;

      // Per collector label (backup policies report as backups, discovery as inventory): what
      // its collectors declare for this config.
      const declared = new Map<string, Set<string>>();
      for (const c of COLLECTORS) {
        const set = declared.get(c.label) ?? new Set<string>();
        for (const name of c.families(config)) set.add(name);
        declared.set(c.label, set);
      }
      const undeclared = [...written].flatMap(([label, families]) =>
        [...families]
          .filter((f) => !(label === "health" ? new Set(HEALTH_FAMILY_NAMES) : declared.get(label))?.has(f))
          .map((f) => `${label}: ${f}`),
      );
      expect(undeclared).toEqual([]);
      // Every collector that writes families wrote some here, so each declaration was put to the test.
      const writers = new Set(COLLECTORS.filter((c) => !c.feedsOthers).map((c) => c.label));
      for (const label of writers) expect(written.get(label)?.size ?? 0, label).toBeGreaterThan(0);
      // Declared but not seen in one cycle (failures, states the demo does not reach): for the log.
      const unseen = [...declared].flatMap(([label, names]) =>
        [...names].filter((n) => !written.get(label)?.has(n)).map((n) => `${label}: ${n}`),
      );
      console.log(`declared families not written in one demo cycle: ${unseen.length}`);
    } finally {
      rmSync(tokenDir, { recursive: true, force: true });
    }
  }, 120_000);
});
