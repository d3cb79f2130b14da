/**
 * Enterprise clusters through the service's own Prometheus endpoint, against the simulator: the
 * exporter's discovery (/sd/native-export) lists exactly the Enterprise clusters it polls, with
 * their path and labels; it asks no metric query for them while a Standard cluster is still
 * polled; it follows discovery (a new Enterprise cluster appears within one inventory interval,
 * a removed one disappears); and each replica of a sharded deployment lists only its own.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { TargetGroup } from "../src/polling/nativeExport.js";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { type Harness, parseSamples, startHarness } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";
import { sectionsOff } from "./helpers/sectionsOff.js";

const METRICS = "POST /v2/clusters/{id}/metrics/query";
const INVENTORY_MS = 30_000;
let harnesses: Harness[] = [];
let shared: Simulator | undefined;

afterEach(async () => {
  for (const h of harnesses) await h.close();
  await shared?.close();
  harnesses = [];
  shared = undefined;
});

/** Discovery finds every cluster; the collectors that do not matter here are off. */
function nativeConfig(raw: Record<string, unknown>): void {
  raw.clusters = [];
  raw.inventory = { interval: "PT30S", discovery: { enabled: true } };
  raw.native_export = { enabled: true };
  Object.assign(raw, sectionsOff("inventory"));
  raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
  raw.jobs = { ids: [] };
}

async function discovered(h: Harness): Promise<TargetGroup[]> {
  const res = await fetch(`${h.url}/sd/native-export`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  return (await res.json()) as TargetGroup[];
}

const ids = (groups: readonly TargetGroup[]) => groups.map((g) => g.labels.cluster_id).sort();

/** Waits (the clock standing still) until cluster discovery's rebuild of the tasks has the simulator's clusters. */
async function untilPlanned(h: Harness, count: number): Promise<void> {
  for (let i = 0; i < 100 && h.exporter.clusters().length < count; i++)
    await new Promise((r) => setTimeout(r, 20));
  await h.settle();
}

describe("native export against the simulator", () => {
  it("lists exactly the Enterprise clusters, asks them no metric query, and follows discovery", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    const h = await startHarness({
      clock,
      sim: { now: () => clock.now(), clusters: 6 },
      config: nativeConfig,
    });
    harnesses.push(h);
    const { sim } = h;
    await untilPlanned(h, sim.clusters.length);
    await h.exporter.scheduler.firstCycle();
    await clock.advance(2 * INVENTORY_MS);
    await h.settle();

    const enterprise = sim.clusters.filter((c) => c.plan === "Enterprise");
    const standard = sim.clusters.filter((c) => c.plan === "Standard" && c.status === "RUNNING");
    expect(enterprise.length).toBeGreaterThan(0);
    expect(standard.length).toBeGreaterThan(0);

    const groups = await discovered(h);
    expect(ids(groups)).toEqual(enterprise.map((c) => c.id).sort());
    const base = new URL(sim.baseUrl);
    for (const c of enterprise) {
      expect(groups.find((g) => g.labels.cluster_id === c.id)).toEqual({
        targets: [base.host],
        labels: {
          __scheme__: "http",
          __metrics_path__: `/v2/clusters/${c.id}/metrics/export`,
          cluster_id: c.id,
          cluster_name: c.name,
          project_id: c.projectId,
          region_id: c.regionId,
        },
      });
    }

    // The budget: not one metric query for an Enterprise cluster, while Standard ones are polled.
    const asked = sim.stats.byEndpointCluster[METRICS] ?? {};
    for (const c of enterprise) expect(asked[c.id] ?? 0, c.id).toBe(0);
    for (const c of standard) expect(asked[c.id] ?? 0, c.id).toBeGreaterThan(0);
    // Inventory still comes from the exporter; the metric series of a native cluster do not.
    const samples = parseSamples(await h.metrics());
    const first = enterprise[0]?.id;
    expect(samples.some((s) => s.name === "vdbcloud_cluster_info" && s.labels.cluster_id === first)).toBe(
      true,
    );
    expect(
      samples.some((s) => s.name === "vdbcloud_cu_computation_ratio" && s.labels.cluster_id === first),
    ).toBe(false);
    expect(
      samples.some(
        (s) => s.name === "vdbcloud_cu_computation_ratio" && s.labels.cluster_id === standard[0]?.id,
      ),
    ).toBe(true);
    // Its health says why, and stays up.
    const health = h.exporter.health
      .list()
      .find((t) => t.collector === "cluster_metrics" && t.target === first);
    expect(health).toMatchObject({
      up: true,
      skipped: expect.stringContaining("service's own Prometheus endpoint"),
    });

    // A new Enterprise cluster is listed within one inventory interval, and is never asked.
    const added = sim.state.addCluster({ plan: "Enterprise", name: "added-rag" });
    const newStandard = sim.state.addCluster({ plan: "Standard" });
    await clock.advance(INVENTORY_MS);
    await h.settle();
    expect(ids(await discovered(h))).toEqual([...enterprise.map((c) => c.id), added].sort());
    await clock.advance(INVENTORY_MS);
    await h.settle();
    expect(sim.stats.byEndpointCluster[METRICS]?.[added] ?? 0).toBe(0);
    expect(sim.stats.byEndpointCluster[METRICS]?.[newStandard] ?? 0).toBeGreaterThan(0);

    // A deleted one is gone within one inventory interval too.
    const removed = enterprise[0]?.id ?? "";
    sim.state.removeCluster(removed);
    await clock.advance(INVENTORY_MS);
    await h.settle();
    expect(ids(await discovered(h))).toEqual([...enterprise.slice(1).map((c) => c.id), added].sort());
  });

  it("with shards, each replica lists only the Enterprise clusters it owns, and together all of them", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    shared = await startSimulator({ now: () => clock.now(), clusters: 10 });
    for (const index of [0, 1]) {
      harnesses.push(
        await startHarness({ clock, simulator: shared, shard: { index, total: 2 }, config: nativeConfig }),
      );
    }
    for (const h of harnesses) await untilPlanned(h, 1);
    await clock.advance(2 * INVENTORY_MS);
    for (const h of harnesses) await h.settle();
    const [a = [], b = []] = await Promise.all(harnesses.map(async (h) => ids(await discovered(h))));
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect([...a, ...b].sort()).toEqual(
      shared.clusters
        .filter((c) => c.plan === "Enterprise")
        .map((c) => c.id)
        .sort(),
    );
  });
});
