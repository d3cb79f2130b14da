import { describe, expect, it } from "vitest";
import { IMPORT_STATES, ImportJobStore, unfinishedImportJobs } from "./import-jobs.js";
import { generateWorld } from "./world.js";

const START = Date.UTC(2025, 0, 1, 12);
const world = generateWorld({ seed: 1, clusters: 4, collectionsPerCluster: 3, nowMs: START });
const cluster = world.clusters[0];
if (!cluster) throw new Error("no cluster");

function store(perCluster = 8, timeScale = 1) {
  return new ImportJobStore({ seed: 1, perCluster, timeScale, startMs: START });
}

describe("import jobs", () => {
  it("lists the newest perCluster jobs, deterministically", () => {
    const a = store().list(cluster, START);
    expect(a).toHaveLength(8);
    expect(new Set(a.map((j) => j.jobId)).size).toBe(8);
    for (const j of a) {
      expect(j.jobId).toMatch(/^job-[0-9a-f]{22}$/);
      expect(IMPORT_STATES).toContain(j.state);
      expect(cluster.collections.map((c) => c.collectionName)).toContain(j.collectionName);
    }
    expect(store().list(cluster, START)).toEqual(a);
  });

  it("has pending, running and finished jobs at start", () => {
    const states = new Set(
      store()
        .list(cluster, START)
        .map((j) => j.state),
    );
    expect(states.has("ImportPending")).toBe(true);
    expect(states.has("ImportCompleted") || states.has("ImportFailed")).toBe(true);
  });

  it("moves jobs forward with the clock and rolls old ones off", () => {
    const s = store();
    const before = s.list(cluster, START);
    const later = s.list(cluster, START + 10 * 60_000);
    expect(later).toHaveLength(8);
    expect(later[0]?.jobId).not.toBe(before[0]?.jobId);
    expect(later.map((j) => j.jobId)).not.toContain(before.at(-1)?.jobId);
    // A job listed in both keeps its ID and only moves forward in its life.
    const rank = { ImportPending: 0, ImportRunning: 1, ImportCompleted: 2, ImportFailed: 2 } as Record<
      string,
      number
    >;
    for (const job of later) {
      const old = before.find((j) => j.jobId === job.jobId);
      if (old) expect(rank[job.state]).toBeGreaterThanOrEqual(rank[old.state] ?? 0);
    }
  });

  it("runs faster with the time scale", () => {
    const newestAt = (scale: number, afterMs: number) =>
      store(8, scale).list(cluster, START + afterMs)[0]?.jobId;
    expect(newestAt(10, 60_000)).not.toBe(newestAt(1, 60_000));
  });

  it("puts added jobs first and applies state overrides", () => {
    const s = store();
    s.add(cluster.id, { jobId: "job-added", collectionName: "docs", state: "ImportPending" });
    const list = s.list(cluster, START);
    expect(list[0]).toEqual({ jobId: "job-added", collectionName: "docs", state: "ImportPending" });
    expect(list).toHaveLength(9);
    s.setState(cluster.id, "job-added", "ImportFailed");
    const generated = list[3]?.jobId ?? "";
    s.setState(cluster.id, generated, "SomethingNew");
    const after = s.list(cluster, START);
    expect(after[0]?.state).toBe("ImportFailed");
    expect(after.find((j) => j.jobId === generated)?.state).toBe("SomethingNew");
  });

  it("lists nothing generated when perCluster is 0", () => {
    expect(store(0).list(cluster, START)).toEqual([]);
  });
});

describe("unfinished imports (importing clusters)", () => {
  it.each([
    { every: 1, perCluster: 2, clusters: [0, 1, 2, 3] },
    { every: 3, perCluster: 5, clusters: [0, 3] },
    { every: 5, perCluster: 1, clusters: [0] },
  ])("every $every-th cluster gets $perCluster jobs that never finish", ({ every, perCluster, clusters }) => {
    const s = store();
    for (const { clusterId, job } of unfinishedImportJobs(world.clusters, 1, every, perCluster)) {
      s.add(clusterId, job);
    }
    world.clusters.forEach((c, i) => {
      const extra = clusters.includes(i) ? perCluster : 0;
      const later = s.list(c, START + 24 * 3_600_000);
      expect(later).toHaveLength(8 + extra);
      // Listed first (newest), and still unfinished a day later.
      const unfinished = later.slice(0, extra);
      expect(unfinished.every((j) => j.state === "ImportRunning" || j.state === "ImportPending")).toBe(true);
      expect(new Set(later.map((j) => j.jobId)).size).toBe(later.length);
    });
  });
});
