/**
 * A reload re-plans every interval of every collector. The intervals are found in the config
 * file's schema (every duration named `interval` or `…_interval` of the framework's sections and
 * of every section the registry's collectors declare), not listed here, so a new collector's
 * interval is covered as soon as its section has one. The exporter runs the full demo (every
 * collector on); each row changes one interval by a reload and checks that the tasks whose
 * interval moved are exactly those that now run at the new value, and that there is one at least.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoConfig, demoRunOptions } from "../src/app/demo.js";
import { CONFIG_SECTIONS } from "../src/collectors/registry.js";
import { durationSettings, withValue } from "../src/config/durationsTestkit.js";
import { buildConfig } from "../src/config/load.js";
import { parseDuration } from "../src/shared/duration.js";
import { startSimulator } from "../src/simulator/index.js";
import { type Harness, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";
import { tempDir } from "./helpers/tempDir.js";

const sim = await startSimulator({ clusters: 3, metricCatalog: "permissive", busyClusterSparkJobs: 3 });
const full = demoConfig(sim, demoRunOptions("127.0.0.1:0", tempDir("replans-"), "permissive"));
(full.api as Record<string, unknown>).api_key = TEST_API_KEY;

/** Where collectors' intervals live: the cluster metrics' own section and every declared one. */
const SECTIONS = new Set(["metrics", ...CONFIG_SECTIONS.map((s) => s.key)]);
const INTERVALS = (await durationSettings(full)).filter(({ key }) => {
  const path = key.split(".");
  return SECTIONS.has(path[0] ?? "") && /(^|_)interval$/.test(path.at(-1) ?? "");
});

let h: Harness;
/** The collectors (their `collector` label) whose tasks some row moved. */
const replanned = new Set<string>();

beforeAll(async () => {
  // A manual clock that never moves: the tasks are built and scheduled, none runs.
  h = await startHarness({
    simulator: sim,
    clock: new ManualClock(Date.UTC(2026, 0, 1)),
    config: (raw) => Object.assign(raw, full),
  });
});

afterAll(async () => {
  await h.close();
  await sim.close();
});

/** Each scheduled task's interval, by task key. */
function intervals(): Map<string, number> {
  return new Map(h.exporter.scheduledTasks().map((t) => [t.key, t.intervalMs]));
}

describe("a reload re-plans every interval of every collector", () => {
  it("finds the intervals in the schema", () => {
    // A floor, so that a broken search cannot pass the rows below by finding nothing.
    expect(INTERVALS.map((d) => d.key)).toEqual(
      expect.arrayContaining([
        "metrics.interval",
        "spark_jobs.discovery.interval",
        "backups.policy_interval",
      ]),
    );
  });

  it.each(INTERVALS)("$key -> $value", async ({ key, value }) => {
    await h.exporter.applyConfig(await buildConfig(full));
    const before = intervals();
    await h.exporter.applyConfig(await buildConfig(withValue(full, key.split("."), value)));
    const after = intervals();
    const want = parseDuration(value);
    const moved = [...after].filter(([task, ms]) => before.has(task) && before.get(task) !== ms);
    expect(moved.length).toBeGreaterThan(0);
    for (const [task, ms] of moved) expect({ task, ms }).toEqual({ task, ms: want });
    for (const t of h.exporter.scheduledTasks())
      if (moved.some(([task]) => task === t.key)) replanned.add(t.collector);
  });

  it("has moved the tasks of every collector that runs, by one interval or another", () => {
    const running = new Set(h.exporter.scheduledTasks().map((t) => t.collector));
    expect(running.size).toBeGreaterThan(10);
    expect([...replanned].sort()).toEqual([...running].sort());
  });
});
