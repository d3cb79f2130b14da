import { afterEach, describe, expect, it } from "vitest";
import { demoConfig } from "../src/app/demo.js";
import { buildConfig } from "../src/config/load.js";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { type Harness, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const METRICS = "POST /v2/clusters/{id}/metrics/query";
let h: Harness | undefined;
let other: Simulator | undefined;

afterEach(async () => {
  await h?.close();
  await other?.close();
  h = undefined;
  other = undefined;
});

describe("a reload that changes an api setting", () => {
  it("rebuilds every client: the next polls go to the new base URL with the same key", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    h = await startHarness({ clock, sim: { now: () => clock.now(), clusters: 2 } });
    // The same seed gives the same cluster IDs: only the address differs.
    other = await startSimulator({ now: () => clock.now(), clusters: 2 });
    await h.exporter.scheduler.firstCycle();
    await h.settle();
    const before = h.sim.stats.byEndpoint[METRICS] ?? 0;
    expect(before).toBeGreaterThan(0);
    expect(other.stats.requests).toBe(0);

    const raw = demoConfig(other, { listen: "127.0.0.1:0" });
    (raw.api as Record<string, unknown>).api_key = TEST_API_KEY;
    (raw.api as Record<string, unknown>).max_retries = 1;
    await h.exporter.applyConfig(await buildConfig(raw));
    // Two intervals (PT30S): every target's slot comes up at least once.
    await clock.advance(60_000);
    await h.settle();

    // Every cluster was polled on the new address, and nothing went to the old one any more.
    expect(other.stats.byEndpoint[METRICS] ?? 0).toBeGreaterThanOrEqual(before);
    expect(Object.keys(other.stats.byEndpointCluster[METRICS] ?? {}).sort()).toEqual(
      h.sim.clusters.map((c) => c.id).sort(),
    );
    expect(h.sim.stats.byEndpoint[METRICS]).toBe(before);
  });
});
