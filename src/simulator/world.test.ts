import { describe, expect, it } from "vitest";
import { generateWorld } from "./world.js";

const NOW = Date.UTC(2025, 0, 1, 12);

describe("generateWorld", () => {
  it("is a function of the options", () => {
    const opts = { seed: 9, clusters: 30, collectionsPerCluster: 4, nowMs: NOW };
    expect(generateWorld(opts)).toEqual(generateWorld(opts));
    expect(generateWorld({ ...opts, seed: 10 }).clusters[0]?.id).not.toBe(
      generateWorld(opts).clusters[0]?.id,
    );
  });

  it("makes 1,000 unique cluster IDs spread over projects and regions", () => {
    const w = generateWorld({ seed: 1, clusters: 1000, collectionsPerCluster: 3, nowMs: NOW });
    expect(new Set(w.clusters.map((c) => c.id)).size).toBe(1000);
    expect(w.projects).toHaveLength(20);
    expect(w.projects.reduce((n, p) => n + p.clusterIds.length, 0)).toBe(1000);
    expect(new Set(w.clusters.map((c) => c.regionId)).size).toBeGreaterThan(1);
    for (const c of w.clusters) expect(w.regions.map((r) => r.regionId)).toContain(c.regionId);
  });

  it.each([
    [1, ["RUNNING"]],
    [6, ["RUNNING", "STOPPED"]],
    [12, ["ABNORMAL", "RUNNING", "STOPPED"]],
  ])("with %i clusters has statuses %j and exactly one hot cluster", (n, statuses) => {
    const w = generateWorld({ seed: 1, clusters: n, collectionsPerCluster: 3, nowMs: NOW });
    expect([...new Set(w.clusters.map((c) => c.status))].sort()).toEqual(statuses);
    expect(w.clusters.filter((c) => c.hot)).toHaveLength(1);
  });

  it("places collections in two databases and alternates the import list key", () => {
    const w = generateWorld({ seed: 1, clusters: 2, collectionsPerCluster: 3, nowMs: NOW });
    expect(w.clusters[0]?.collections).toEqual([
      { dbName: "default", collectionName: "docs" },
      { dbName: "default", collectionName: "images" },
      { dbName: "analytics", collectionName: "products" },
    ]);
    expect(w.clusters.map((c) => c.importListKey)).toEqual(["records", "tasks"]);
  });

  it("creates clusters before now, in whole days", () => {
    const w = generateWorld({ seed: 1, clusters: 10, collectionsPerCluster: 0, nowMs: NOW });
    for (const c of w.clusters) {
      expect(c.createTimeMs).toBeLessThan(NOW);
      expect(c.createTimeMs % 86_400_000).toBe(0);
      expect(c.collections).toEqual([]);
    }
  });
});
