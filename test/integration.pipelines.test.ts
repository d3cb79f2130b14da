/**
 * Pipelines against the simulator, as a user meets them: List Pipelines per project and region
 * at the region's controller, the families of each shape, the demo's pipeline that is not
 * serving, Describe Pipeline only for a pipeline listed without its functions, and the service as it is today
 * (pipelines removed): "not offered here", one call a day per region, never a failing target.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startConsoleHarness } from "./helpers/consoleHarness.js";
import { type Harness, matching, parseSamples, sampleValue } from "./helpers/harness.js";
import { sectionsOff } from "./helpers/sectionsOff.js";

const LIST = "GET /v1/pipelines";
const DESCRIBE = "GET /v1/pipelines/{PIPELINE_ID}";
const TARGET = { collector: "pipelines", target: "organization" };
const HOUR_MS = 3_600_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An exporter polling pipelines and nothing else account-wide, on a manual clock past its first cycle. */
async function start(sim: Record<string, unknown>, interval = "PT1M") {
  const started = await startConsoleHarness({
    sim: { clusters: 6, seed: 1, ...sim },
    config: (raw) => {
      Object.assign(raw, sectionsOff("pipelines"));
      raw.pipelines = { interval };
    },
  });
  h = started.harness;
  return started;
}

/** The project and region pairs of the simulated clusters, and their regions. */
function places(harness: Harness) {
  const pairs = new Set(harness.sim.clusters.map((c) => `${c.projectId}/${c.regionId}`));
  const regions = new Set(harness.sim.clusters.map((c) => c.regionId));
  return { pairs: pairs.size, regions: regions.size };
}

describe("pipelines against the simulator", () => {
  it("shows every pipeline in the samples' shape, one call per project and region, the demo's one not serving", async () => {
    const { harness } = await start({ pipelineNotServing: true });
    const text = await harness.metrics();
    const samples = parseSamples(text);
    const pipelines = harness.sim.pipelines;
    expect(matching(samples, "vdbcloud_pipeline_info", {})).toHaveLength(pipelines.length);
    for (const p of pipelines) {
      expect(
        sampleValue(text, "vdbcloud_pipeline_info", {
          project_id: p.projectId,
          pipeline_id: p.pipelineId,
          pipeline_name: p.name,
          type: p.type.toLowerCase(),
          cluster_id: p.clusterId,
          collection_name: p.collectionName,
        }),
      ).toBe(1);
      const now = matching(samples, "vdbcloud_pipeline_status", { pipeline_id: p.pipelineId }).filter(
        (s) => s.value === 1,
      );
      expect(now.map((s) => s.labels.status)).toEqual([p.status.toLowerCase()]);
    }
    const failed = pipelines.filter((p) => p.status !== "SERVING");
    expect(failed).toHaveLength(1);
    expect(
      sampleValue(text, "vdbcloud_pipeline_status", {
        pipeline_id: failed[0]?.pipelineId ?? "",
        status: "serving",
      }),
    ).toBe(0);
    const search = pipelines.find((p) => p.type === "SEARCH");
    expect(
      sampleValue(text, "vdbcloud_pipeline_rerank_tokens_total", { pipeline_id: search?.pipelineId ?? "" }),
    ).toBeGreaterThan(0);
    expect(
      sampleValue(text, "vdbcloud_pipeline_functions", {
        pipeline_id: search?.pipelineId ?? "",
        action: "search_doc_chunks",
      }),
    ).toBe(1);
    expect(harness.sim.stats.byEndpoint[LIST]).toBe(places(harness).pairs);
    // The samples' list items carry their functions: no Describe Pipeline.
    expect(harness.sim.stats.byEndpoint[DESCRIBE] ?? 0).toBe(0);
    expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
    expect(harness.sim.stats.mutatingCalls).toEqual([]);
  });

  it("in the schema's shape, describes each pipeline the list leaves without functions, and reads the same", async () => {
    const { harness } = await start({ pipelineShape: "schema" });
    const text = await harness.metrics();
    expect(harness.sim.stats.byEndpoint[DESCRIBE]).toBe(harness.sim.pipelines.length);
    for (const p of harness.sim.pipelines) {
      expect(sampleValue(text, "vdbcloud_pipeline_info", { pipeline_id: String(p.number) })).toBe(1);
      expect(
        matching(parseSamples(text), "vdbcloud_pipeline_functions", { pipeline_id: String(p.number) }).length,
      ).toBeGreaterThan(0);
    }
    expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
  });

  it.each([
    ["HTTP 404", "404"],
    ["80002", "80002"],
  ] as const)(
    "a service without pipelines (%s) is asked once a day per region; up, one info line, 'not offered here'",
    async (_name, gone) => {
      // Polled every five minutes, as by default.
      const { harness, clock, logs } = await start({ noPipelines: gone }, "PT5M");
      const { regions } = places(harness);
      expect(regions).toBeGreaterThan(1);
      expect(harness.sim.stats.byEndpoint[LIST]).toBe(regions);
      // A day less an hour of five-minute polls: nothing more is asked.
      for (let i = 0; i < 23; i++) {
        await clock.advance(HOUR_MS);
        await harness.settle();
      }
      expect(harness.sim.stats.byEndpoint[LIST]).toBe(regions);
      // The day is up: each region is asked once more, and again not the next hours.
      for (let i = 0; i < 3; i++) {
        await clock.advance(HOUR_MS);
        await harness.settle();
      }
      expect(harness.sim.stats.byEndpoint[LIST]).toBe(2 * regions);
      expect(harness.sim.stats.byEndpoint[DESCRIBE] ?? 0).toBe(0);
      const text = await harness.metrics();
      expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
      expect(text).not.toContain('vdbcloud_collector_not_permitted{collector="pipelines"');
      expect(matching(parseSamples(text), "vdbcloud_pipeline_info", {})).toEqual([]);
      const lines = logs.filter((l) => l.includes('"collector":"pipelines"') && !l.includes('"level":20'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/"level":30.*not offered here/);
      const landing = await (await fetch(`${harness.url}/`)).text();
      expect(landing).toContain("not offered here");
    },
    60_000,
  );
});
