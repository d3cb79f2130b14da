/** The simulated pipelines: each shape of the reference, the region's controller, the demo's bad case, and a service without them. */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import {
  normalizePipeline,
  normalizePipelines,
  pipelineDataSchema,
  pipelinesDataSchema,
} from "../upstream/endpoints/pipelines.js";
import { SAMPLE_INGESTION_PIPELINE, SCHEMA_PIPELINE } from "../upstream/pipelinesTestkit.js";
import { type Simulator, startSimulator } from "./index.js";
import type { SimulatorOptions } from "./options.js";
import { simulatorPerSuite } from "./testkit.js";

/** GETs `path` at `region`'s controller: the HTTP status and the envelope. */
async function get(sim: Simulator, region: string, path: string) {
  const res = await request(`${sim.controllerUrlTemplate.replace("{region}", region)}${path}`, {
    headers: { authorization: "Bearer test-key" },
  });
  return { status: res.statusCode, body: (await res.body.json()) as { code: number; data?: unknown } };
}

/** The first project and the region of its first cluster. */
function firstPair(sim: Simulator) {
  const projectId = sim.projects[0]?.id ?? "";
  const regionId = sim.clusters.find((c) => c.projectId === projectId)?.regionId ?? "";
  return { projectId, regionId };
}

describe("simulated pipelines, in the samples' shape", () => {
  let sim: Simulator;
  simulatorPerSuite({ clusters: 6, rateLimitPerSecond: 0, pipelineNotServing: true }, (s) => {
    sim = s;
  });

  it("lists a project's pipelines of a region as the samples do: an array, code 200, the sample's fields", async () => {
    const { projectId, regionId } = firstPair(sim);
    const { status, body } = await get(sim, regionId, `/v1/pipelines?projectId=${projectId}`);
    expect(status).toBe(200);
    expect(body.code).toBe(200);
    const items = body.data as Array<Record<string, unknown>>;
    expect(items.map((p) => p.type)).toEqual(["INGESTION", "SEARCH", "DELETION"]);
    expect(Object.keys(items[0] ?? {}).sort()).toEqual(Object.keys(SAMPLE_INGESTION_PIPELINE).sort());
    expect(String(items[0]?.pipelineId)).toMatch(/^pipe-[0-9a-f]{22}$/);
    // The search pipeline names its target inside its function only.
    expect(items[1]).not.toHaveProperty("clusterId");
    const read = normalizePipelines(pipelinesDataSchema.parse(body.data));
    expect(read.map((p) => [p.type, p.status, p.clusterId !== "", p.usage?.rerank === null])).toEqual([
      ["INGESTION", "SERVING", true, true],
      ["SEARCH", "FAILED", true, false],
      ["DELETION", "SERVING", true, true],
    ]);
  });

  it("holds one pipeline that is not serving, in the first project: the demo's bad case", () => {
    expect(sim.pipelines.filter((p) => p.status !== "SERVING").map((p) => [p.projectId, p.type])).toEqual([
      [sim.projects[0]?.id, "SEARCH"],
    ]);
  });

  it("a regional controller lists its own region's pipelines only", async () => {
    for (const project of sim.projects) {
      for (const region of sim.regions) {
        const { body } = await get(sim, region.regionId, `/v1/pipelines?projectId=${project.id}`);
        const want = sim.pipelines.filter(
          (p) => p.projectId === project.id && p.regionId === region.regionId,
        );
        expect((body.data as Array<{ pipelineId: string }>).map((p) => p.pipelineId)).toEqual(
          want.map((p) => p.pipelineId),
        );
      }
    }
  });

  it("describes one pipeline, whose tokens grow with time", async () => {
    const first = sim.pipelines[0];
    if (!first) throw new Error("no pipeline");
    const { body } = await get(sim, first.regionId, `/v1/pipelines/${first.pipelineId}`);
    expect(body.code).toBe(200);
    const p = normalizePipeline(pipelineDataSchema.parse(body.data));
    expect(p?.pipelineId).toBe(first.pipelineId);
    expect(p?.usage?.embedding).toBeGreaterThan(0);
    expect(p?.functionActions).toEqual(["INDEX_DOC", "PRESERVE"]);
  });

  it("refuses a list without a project, and an unknown pipeline", async () => {
    const { regionId } = firstPair(sim);
    expect((await get(sim, regionId, "/v1/pipelines")).body.code).not.toBe(200);
    expect((await get(sim, regionId, "/v1/pipelines/pipe-nope")).body.code).not.toBe(200);
  });
});

describe("simulated pipelines, in every shape and none", () => {
  const withSim = async (opts: SimulatorOptions, check: (sim: Simulator) => Promise<void>) => {
    const sim = await startSimulator({ clusters: 6, rateLimitPerSecond: 0, ...opts });
    try {
      await check(sim);
    } finally {
      await sim.close();
    }
  };

  it("the schema's: integer IDs, CLUSTER_ID, usage as strings, no functions in the list, one object for one pipeline", async () => {
    await withSim({ pipelineShape: "schema" }, async (sim) => {
      const { projectId, regionId } = firstPair(sim);
      const many = (await get(sim, regionId, `/v1/pipelines?projectId=${projectId}`)).body.data as unknown[];
      expect(many).toHaveLength(3);
      const [first] = many as Array<Record<string, unknown>>;
      expect(typeof first?.pipelineId).toBe("number");
      expect(first).toHaveProperty("CLUSTER_ID");
      expect(first).not.toHaveProperty("functions");
      expect(Object.keys(first?.totalUsage as object)).toEqual(Object.keys(SCHEMA_PIPELINE.totalUsage));
      const single = sim.pipelines.find((p) => p.projectId !== projectId);
      if (!single) throw new Error("no second project");
      const one = (await get(sim, single.regionId, `/v1/pipelines?projectId=${single.projectId}`)).body.data;
      expect(Array.isArray(one)).toBe(false);
      expect(normalizePipelines(pipelinesDataSchema.parse(one)).map((p) => p.pipelineId)).toEqual([
        String(single.number),
      ]);
      const described = (await get(sim, single.regionId, `/v1/pipelines/${single.number}`)).body.data;
      expect(normalizePipeline(pipelineDataSchema.parse(described))?.functionActions).toEqual([
        "INDEX_DOC",
        "PRESERVE",
      ]);
    });
  });

  it("the oldest sample's: totalTokenUsage, clusterID, newCollectionName", async () => {
    await withSim({ pipelineShape: "oldest" }, async (sim) => {
      const { projectId, regionId } = firstPair(sim);
      const [first] = (await get(sim, regionId, `/v1/pipelines?projectId=${projectId}`)).body.data as Array<
        Record<string, unknown>
      >;
      expect(first).toHaveProperty("totalTokenUsage");
      expect(first).not.toHaveProperty("totalUsage");
      expect(first).toHaveProperty("clusterID");
      expect(first).toHaveProperty("newCollectionName");
    });
  });

  it.each([
    ["404", 404, 404],
    ["80002", 200, 80002],
  ] as const)("no pipelines, answering %s: both paths refused", async (gone, status, code) => {
    await withSim({ noPipelines: gone }, async (sim) => {
      const { projectId, regionId } = firstPair(sim);
      for (const path of [`/v1/pipelines?projectId=${projectId}`, "/v1/pipelines/pipe-1"]) {
        const answer = await get(sim, regionId, path);
        expect([answer.status, answer.body.code]).toEqual([status, code]);
      }
    });
  });

  it("refuses an unknown shape", async () => {
    await expect(startSimulator({ pipelineShape: "odd" as never })).rejects.toThrow(
      /pipelineShape must be one of/,
    );
    await expect(startSimulator({ noPipelines: "500" as never })).rejects.toThrow(
      /noPipelines must be one of/,
    );
  });
});
