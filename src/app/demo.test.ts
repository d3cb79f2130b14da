import { describe, expect, it } from "vitest";
import { generateWorld } from "../simulator/world.js";
import { DEMO_CLUSTERS, demoNativeCluster, demoResizingCluster } from "./demo.js";

describe("the demo's world", () => {
  const world = generateWorld({
    seed: 1,
    clusters: DEMO_CLUSTERS,
    collectionsPerCluster: 1,
    nowMs: Date.UTC(2025, 0, 1),
  });
  const sim = { clusters: world.clusters };

  it("resizes a running dedicated cluster other than the hot one and the natively served one", () => {
    const id = demoResizingCluster(sim);
    const cluster = world.clusters.find((c) => c.id === id);
    expect(cluster?.status).toBe("RUNNING");
    expect(cluster?.cuSize).toBeGreaterThan(0);
    expect(id).not.toBe(world.clusters[0]?.id);
    expect(id).not.toBe(demoNativeCluster(sim));
  });

  it("has none to resize without such a cluster", () => {
    expect(demoResizingCluster({ clusters: world.clusters.slice(0, 1) })).toBeUndefined();
  });
});
