/**
 * On-demand compute against the simulator, as a user meets it: one Describe On-Demand Compute
 * per project and region List Projects V2 lists, the state set of each, the demo world's
 * abnormal one, a status change followed at the next poll, a refusal that costs only this
 * collector, and shard 0 alone asking.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startConsoleHarness } from "./helpers/consoleHarness.js";
import { type Harness, matching, parseSamples, sampleValue } from "./helpers/harness.js";
import type { ManualClock } from "./helpers/manualClock.js";

const ENDPOINT = "GET /v2/on-demand-compute";
const FAMILY = "vdbcloud_on_demand_compute_status";
const TARGET = { collector: "on_demand_compute", target: "organization" };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An exporter polling on-demand compute (and the inventory) every minute, on a manual clock. */
async function start(opts: { shard?: { index: number; total: number } } = {}) {
  const started = await startConsoleHarness({
    sim: { clusters: 6, seed: 1, onDemandComputeAbnormal: true },
    ...(opts.shard ? { shard: opts.shard } : {}),
    config: (raw) => {
      raw.on_demand_compute = { interval: "PT1M" };
    },
  });
  h = started.harness;
  return started;
}

/** Advances past the next slot of a one-minute task (half an interval to an interval and a half). */
async function nextPoll(harness: Harness, clock: ManualClock) {
  for (let i = 0; i < 6; i++) {
    await clock.advance(15_000);
    await harness.settle();
  }
}

const currentOf = (text: string, projectId: string, regionId: string) =>
  matching(parseSamples(text), FAMILY, { project_id: projectId, region_id: regionId })
    .filter((s) => s.value === 1)
    .map((s) => s.labels.status);

describe("on-demand compute against the simulator", () => {
  it("shows each project and region's status, one call each, the demo world's abnormal one among them", async () => {
    const { harness } = await start();
    const text = await harness.metrics();
    const compute = harness.sim.onDemandCompute;
    expect(compute.length).toBeGreaterThanOrEqual(2);
    for (const c of compute)
      expect(currentOf(text, c.projectId, c.regionId), `${c.projectId}/${c.regionId}`).toEqual([c.status]);
    // Four known statuses per project and region, no other.
    expect(matching(parseSamples(text), FAMILY, {})).toHaveLength(4 * compute.length);
    expect(compute.filter((c) => c.status === "abnormal")).toHaveLength(1);
    // List Projects V2's regionIds: each project and region of the simulated clusters, once.
    const pairs = new Set(harness.sim.clusters.map((c) => `${c.projectId}/${c.regionId}`));
    expect(harness.sim.stats.byEndpoint[ENDPOINT]).toBe(pairs.size);
    expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
    expect(harness.sim.stats.mutatingCalls).toEqual([]);
  });

  it("follows a status change at the next poll", async () => {
    const { harness, clock } = await start();
    const abnormal = harness.sim.onDemandCompute.find((c) => c.status === "abnormal");
    if (!abnormal) throw new Error("no abnormal on-demand compute");
    harness.sim.state.setOnDemandComputeStatus(abnormal.projectId, abnormal.regionId, "enabled");
    await nextPoll(harness, clock);
    expect(currentOf(await harness.metrics(), abnormal.projectId, abnormal.regionId)).toEqual(["enabled"]);
  });

  it("a key that is not project admin is not permitted: up, one warning; the inventory is unaffected", async () => {
    const { harness, clock, logs } = await start();
    harness.sim.faults.set("catalogue_refusal", { rate: 1, endpoints: [ENDPOINT], code: 96013 });
    // The series of the first poll stay until the staleness bound; the refusal is what is asserted.
    for (let i = 0; i < 2; i++) await nextPoll(harness, clock);
    const text = await harness.metrics();
    expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
    expect(sampleValue(text, "vdbcloud_collector_not_permitted", { ...TARGET, credential: "default" })).toBe(
      1,
    );
    expect(sampleValue(text, "vdbcloud_collector_up", { collector: "inventory", target: "on_demand" })).toBe(
      1,
    );
    const warnings = logs.filter(
      (l) => l.includes("credential lacks the permission") && l.includes("on_demand_compute"),
    );
    expect(warnings).toHaveLength(1);
  });

  it("runs on shard 0 only", async () => {
    const { harness } = await start({ shard: { index: 1, total: 2 } });
    expect(matching(parseSamples(await harness.metrics()), FAMILY, {})).toEqual([]);
    expect(harness.sim.stats.byEndpoint[ENDPOINT] ?? 0).toBe(0);
  });
});
