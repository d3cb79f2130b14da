import { afterEach, describe, expect, it } from "vitest";
import { startSimulator } from "../src/simulator/index.js";
import { type Harness, parseSamples, startHarness } from "./helpers/harness.js";
import { promtoolLint } from "./helpers/promtoolLint.js";
import { toolOrSkip } from "./helpers/tools.js";

let harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.map((x) => x.close()));
  harnesses = [];
});

const HOSTILE_COLLECTION = 'docs"}\\ 1\n# TYPE evil gauge\nevil{x="';
const HOSTILE_JOB = 'job\\"\n}';

describe("label values from the upstream are escaped", () => {
  const promtool = toolOrSkip("promtool");

  it("hostile collection names and job IDs round-trip and never break the exposition", async () => {
    const h = await startHarness({ sim: { clusters: 2 } });
    harnesses.push(h);
    const cluster = h.sim.clusters[0]?.id as string;
    h.sim.state.addImportJob(cluster, {
      jobId: HOSTILE_JOB,
      collectionName: HOSTILE_COLLECTION,
      state: "ImportRunning",
    });
    await h.exporter.scheduler.firstCycle();
    const text = await h.metrics();
    const job = parseSamples(text).find(
      (s) => s.name === "vdbcloud_import_job_state" && s.labels.job_id === HOSTILE_JOB,
    );
    expect(job?.labels.collection_name).toBe(HOSTILE_COLLECTION);
    // Nothing was injected: no family named "evil" exists.
    expect(parseSamples(text).some((s) => s.name === "evil")).toBe(false);
    if (!promtool.skip) {
      // promtool parses the whole exposition; its lint must stay clean.
      expect(promtoolLint(promtool.path, text)).toEqual([]);
    }
  });
});

describe("read-only by construction", () => {
  it("a full run of every collector, discovery included, calls no mutating endpoint", async () => {
    const h = await startHarness({
      sim: { clusters: 4 },
      config: (raw) => {
        raw.inventory = { interval: "PT30S", discovery: { enabled: true } };
      },
    });
    harnesses.push(h);
    await h.exporter.scheduler.firstCycle();
    await new Promise((r) => setTimeout(r, 300));
    await h.exporter.scheduler.firstCycle();
    const used = Object.keys(h.sim.stats.byEndpoint).sort();
    expect(used).toEqual(
      [
        "GET /v2/clusters",
        "GET /v2/clusters/{id}",
        "GET /v2/projects",
        "GET /v2/jobs",
        "GET /v2/jobs/{jobId}",
        "GET /v2/projects/{projectId}/jobs/{jobId}",
        "GET /v2/regions",
        "POST /v2/clusters/{id}/metrics/query",
        "GET /v2/backups",
        "GET /v2/clusters/{id}/backups/policy",
        "GET /v2/globalClusters",
        "GET /v2/globalClusters/{id}/replicationLag",
        "GET /v2/clusters/onDemandClusters",
        "GET /v2/alertRules",
        "GET /v2/storageIntegrations",
        "GET /v2/projects/{projectId}/privateEndpoints",
        "GET /v2/on-demand-compute",
        "GET /v2/api-keys",
        "GET /v1/pipelines",
        "POST /v2/vectordb/jobs/import/describe",
        "POST /v2/vectordb/jobs/import/list",
      ].sort(),
    );
    expect(h.sim.stats.mutatingCalls).toEqual([]);
  });
});

describe("sharding", () => {
  it("polls every cluster and Spark job from exactly one of N replicas", async () => {
    // Replicas sharing one key share its rate budget (sizing is per key, see docs/operations.md); this
    // test is about ownership, so the simulator's limiter is off.
    const sim = await startSimulator({ clusters: 24, rateLimitPerSecond: 0 });
    try {
      const total = 3;
      for (let index = 0; index < total; index++) {
        harnesses.push(
          await startHarness({
            simulator: sim,
            shard: { index, total },
            // One request form, so one metrics request per target.
            config: (raw) => {
              raw.metrics = { granularity: "PT30S" };
            },
          }),
        );
      }
      await Promise.all(harnesses.map((x) => x.exporter.scheduler.firstCycle()));
      const owners = new Map<string, number[]>();
      harnesses.forEach((x, i) => {
        for (const t of x.exporter.scheduler.status()) {
          owners.set(t.key, [...(owners.get(t.key) ?? []), i]);
        }
      });
      for (const c of sim.clusters) {
        expect(owners.get(`cluster_metrics/${c.id}`)?.length, c.id).toBe(1);
        expect(owners.get(`inventory/${c.id}`)?.length, c.id).toBe(1);
      }
      for (const j of sim.state.sparkJobRefs)
        expect(owners.get(`spark_jobs/${j.projectId}/${j.jobId}`)?.length).toBe(1);
      // Spark job discovery follows its cluster; jobs by ID are spread like Spark jobs.
      for (const c of sim.clusters) expect(owners.get(`spark_jobs/${c.id}`)?.length, c.id).toBe(1);
      for (const j of sim.state.cloudJobRefs) expect(owners.get(`jobs/${j.jobId}`)?.length, j.jobId).toBe(1);
      // Account-wide listings run on shard 0 only.
      expect(owners.get("inventory/global")).toEqual([0]);
      expect(owners.get("inventory/on_demand")).toEqual([0]);
      expect(owners.get("alert_rules/organization")).toEqual([0]);
      expect(owners.get("storage_integrations/organization")).toEqual([0]);
      // The upstream saw each cluster's metrics queried once, and no replica idles.
      const perCluster = sim.stats.byEndpointCluster["POST /v2/clusters/{id}/metrics/query"] ?? {};
      const first = sim.clusters[0]?.id;
      for (const c of sim.clusters) expect(perCluster[c.id]).toBe(c.id === first ? 3 : 1);
      for (const x of harnesses) {
        expect(x.exporter.clusters().length).toBeGreaterThan(0);
        const text = await x.metrics();
        const ordinal = parseSamples(text).find((s) => s.name === "vdbcloud_shard_ordinal")?.value;
        expect(ordinal).toBe(harnesses.indexOf(x));
        expect(parseSamples(text).find((s) => s.name === "vdbcloud_total_shards")?.value).toBe(total);
      }
    } finally {
      await Promise.all(harnesses.map((x) => x.close()));
      harnesses = [];
      await sim.close();
    }
  });
});
