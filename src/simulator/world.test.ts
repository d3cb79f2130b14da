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
    [5, ["RUNNING", "STOPPED"]],
    [6, ["CREATING", "RUNNING", "STOPPED"]],
    [12, ["ABNORMAL", "CREATING", "RUNNING", "STOPPED"]],
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

  it.each([
    [4, { dedicated: 4, serverless: 0, free: 0 }],
    [6, { dedicated: 5, serverless: 1, free: 0 }],
    [12, { dedicated: 10, serverless: 1, free: 1 }],
  ])("with %i clusters has plan kinds %j, free and serverless without CUs", (n, kinds) => {
    const w = generateWorld({ seed: 1, clusters: n, collectionsPerCluster: 1, nowMs: NOW });
    const serverless = w.clusters.filter((c) => c.plan === "Serverless");
    const free = w.clusters.filter((c) => c.plan === "Free");
    expect(serverless).toHaveLength(kinds.serverless);
    expect(free).toHaveLength(kinds.free);
    for (const c of [...serverless, ...free]) {
      expect([c.cuSize, c.cuType, c.replica, c.autoscalingCu, c.snapshotNumber]).toEqual([
        0,
        "",
        undefined,
        undefined,
        0,
      ]);
    }
    for (const c of free) expect(c.id).toMatch(/^in03-[0-9a-f]{16}$/);
    const dedicated = w.clusters.filter((c) => c.plan !== "Serverless" && c.plan !== "Free");
    expect(dedicated).toHaveLength(kinds.dedicated);
    for (const c of dedicated) {
      expect(c.cuSize).toBeGreaterThan(0);
      expect(c.cuType).not.toBe("");
      expect(c.replica).toBeGreaterThanOrEqual(1);
    }
  });

  it("gives some dedicated clusters autoscaling bounds around their size, and a creating one its progress", () => {
    const w = generateWorld({ seed: 1, clusters: 12, collectionsPerCluster: 1, nowMs: NOW });
    const scaled = w.clusters.filter((c) => c.autoscalingCu !== undefined);
    expect(scaled.length).toBeGreaterThan(0);
    for (const c of scaled) expect(c.autoscalingCu).toEqual({ min: c.cuSize, max: c.cuSize * 4 });
    expect(w.clusters.filter((c) => c.status === "CREATING").map((c) => c.createProgress)).toEqual([40]);
    expect(w.clusters.filter((c) => c.status !== "CREATING").every((c) => c.createProgress === 100)).toBe(
      true,
    );
  });

  it("gives the fields of the current reference: deploymentOption, replica bounds or a schedule, replica as a string or a number", () => {
    const w = generateWorld({ seed: 1, clusters: 12, collectionsPerCluster: 1, nowMs: NOW });
    const byPlan = (plan: string) => w.clusters.filter((c) => c.plan === plan);
    for (const c of byPlan("Free")) expect(c.deploymentOption).toBeUndefined();
    for (const c of byPlan("Serverless")) expect(c.deploymentOption).toBe("Serverless");
    const dedicated = w.clusters.filter((c) => c.cuSize > 0);
    for (const c of dedicated) expect(c.deploymentOption).toBe("Dedicated");
    const replicas = dedicated.map((c) => c.autoscalingReplica).filter((a) => a !== undefined);
    expect(replicas).toContainEqual({ min: 1, max: 3 });
    expect(replicas.some((a) => "schedules" in a)).toBe(true);
    for (const c of w.clusters.filter((x) => x.cuSize === 0)) expect(c.autoscalingReplica).toBeUndefined();
    expect(new Set(dedicated.map((c) => c.replicaAsString))).toEqual(new Set([true, false]));
  });

  it("gives dedicated clusters in01- IDs and CUs", () => {
    const six = generateWorld({ seed: 3, clusters: 12, collectionsPerCluster: 1, nowMs: NOW });
    const dedicated = six.clusters.filter((c) => c.cuSize > 0).map((c) => c.id);
    expect(new Set(dedicated).size).toBe(10);
    for (const id of dedicated) expect(id).toMatch(/^in01-/);
  });
});
