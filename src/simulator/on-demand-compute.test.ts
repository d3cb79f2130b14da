/** The simulated Describe On-Demand Compute: the reference's shape, every status, and the demo's abnormal one. */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { REFERENCE_ON_DEMAND_COMPUTE } from "../upstream/consoleTestkit.js";
import type { Simulator } from "./index.js";
import { generateOnDemandCompute } from "./on-demand-compute.js";
import { simulatorPerSuite } from "./testkit.js";
import { generateWorld } from "./world.js";

async function get(sim: Simulator, path: string) {
  const res = await request(`${sim.baseUrl}${path}`, { headers: { authorization: "Bearer test-key" } });
  return (await res.body.json()) as { code: number; data: Record<string, unknown>; message?: string };
}

const world = (clusters: number, seed = 1) =>
  generateWorld({ seed, clusters, collectionsPerCluster: 1, nowMs: Date.UTC(2025, 5, 1) });

describe("generateOnDemandCompute", () => {
  it("holds each project and region of the clusters once, a project's first region enabled", () => {
    const w = world(20);
    const compute = generateOnDemandCompute(w, true);
    const pairs = [...new Set(w.clusters.map((c) => `${c.projectId}/${c.regionId}`))].sort();
    expect(compute.map((c) => `${c.projectId}/${c.regionId}`).sort()).toEqual(pairs);
    for (const p of w.projects) {
      const first = w.clusters.find((c) => c.projectId === p.id);
      const held = compute.find((c) => c.projectId === p.id && c.regionId === first?.regionId);
      if (held !== compute.at(-1)) expect(held?.status).toBe("enabled");
    }
    // Every documented status occurs in a world this size.
    expect(new Set(compute.map((c) => c.status))).toEqual(
      new Set(["disabled", "enabling", "enabled", "abnormal"]),
    );
  });

  it.each([6, 10, 20])(
    "holds exactly one abnormal project and region with %i clusters (the demo holds 6)",
    (n) => {
      const compute = generateOnDemandCompute(world(n), true);
      expect(compute.length).toBeGreaterThanOrEqual(2);
      expect(compute.filter((c) => c.status === "abnormal")).toEqual([compute.at(-1)]);
    },
  );

  it("holds nothing abnormal in a world of one project and region", () => {
    const compute = generateOnDemandCompute(world(1), true);
    expect(compute.map((c) => c.status)).toEqual(["enabled"]);
  });
});

describe("simulated on-demand compute", () => {
  let sim: Simulator;
  simulatorPerSuite({ clusters: 6, seed: 1, rateLimitPerSecond: 0 }, (s) => {
    sim = s;
  });

  it("describes each held project and region with the reference sample's fields", async () => {
    const sampleKeys = Object.keys(REFERENCE_ON_DEMAND_COMPUTE).sort();
    expect(sim.onDemandCompute.length).toBeGreaterThanOrEqual(2);
    for (const c of sim.onDemandCompute) {
      const json = await get(sim, `/v2/on-demand-compute?projectId=${c.projectId}&regionId=${c.regionId}`);
      expect(json.code).toBe(0);
      expect(Object.keys(json.data).sort()).toEqual(sampleKeys);
      expect(json.data).toEqual({ projectId: c.projectId, regionId: c.regionId, status: c.status });
      expect(json.data.status).toMatch(/^[a-z]+$/);
    }
  });

  it("answers disabled in a region the project has no cluster in, and follows a status set", async () => {
    const [project] = sim.projects;
    const held = new Set(
      sim.onDemandCompute.filter((c) => c.projectId === project?.id).map((c) => c.regionId),
    );
    const other = sim.regions.find((r) => !held.has(r.regionId));
    const json = await get(sim, `/v2/on-demand-compute?projectId=${project?.id}&regionId=${other?.regionId}`);
    expect(json.data).toEqual({ projectId: project?.id, regionId: other?.regionId, status: "disabled" });

    const [first] = sim.onDemandCompute;
    if (!first) throw new Error("no on-demand compute");
    const before = first.status;
    sim.state.setOnDemandComputeStatus(first.projectId, first.regionId, "enabling");
    const after = await get(
      sim,
      `/v2/on-demand-compute?projectId=${first.projectId}&regionId=${first.regionId}`,
    );
    expect(after.data.status).toBe("enabling");
    sim.state.setOnDemandComputeStatus(first.projectId, first.regionId, before);
    expect(() => sim.state.setOnDemandComputeStatus("proj-none", first.regionId, "enabled")).toThrow(
      /no on-demand compute held/,
    );
  });

  it.each([
    ["no parameter", ""],
    ["no region", "projectId=PROJECT"],
    ["no project", "regionId=aws-us-west-2"],
    ["an unknown project", "projectId=proj-none&regionId=aws-us-west-2"],
    ["an unknown region", "projectId=PROJECT&regionId=nowhere"],
  ])("refuses %s", async (_name, query) => {
    const json = await get(
      sim,
      `/v2/on-demand-compute?${query.replace("PROJECT", sim.projects[0]?.id ?? "")}`,
    );
    expect(json.code).not.toBe(0);
  });
});
