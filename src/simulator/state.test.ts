import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { Simulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);

async function get(url: string): Promise<{ code: number; data: Record<string, unknown> }> {
  const res = await request(url, { headers: { authorization: "Bearer k" } });
  return (await res.body.json()) as { code: number; data: Record<string, unknown> };
}

describe("state hooks", () => {
  let clock = T0;
  let sim: Simulator;

  simulatorPerSuite({ now: () => clock, rateLimitPerSecond: 0 }, (s) => {
    sim = s;
  });

  it("adds a Spark job that Describe Spark Job then serves and the refs list", async () => {
    const cluster = sim.clusters[0];
    const ref = sim.state.addSparkJob({
      projectId: "proj-test",
      jobId: "job-added",
      clusterId: cluster?.id ?? "",
    });
    expect(sim.state.sparkJobRefs).toContainEqual(ref);
    const a = await get(`${sim.baseUrl}/v2/projects/proj-test/jobs/job-added`);
    expect(a.code).toBe(0);
    expect(a.data).toMatchObject({
      jobId: "job-added",
      status: "PENDING",
      clusterId: cluster?.id,
      regionId: cluster?.regionId,
    });
    expect(() => sim.state.addSparkJob({ projectId: "proj-test", jobId: "job-added" })).toThrow(
      expect.objectContaining({ code: "DUPLICATE_JOB" }),
    );
    expect(() => sim.state.addSparkJob({ projectId: "p", clusterId: "in01-nope" })).toThrow(
      expect.objectContaining({ code: "UNKNOWN_CLUSTER" }),
    );
  });

  it("drives a Spark job's status", async () => {
    const ref = sim.state.addSparkJob({ projectId: "proj-test", scenario: "long_running" });
    clock = T0 + 60_000;
    sim.state.setSparkJobStatus(ref.projectId, ref.jobId, "FAILED");
    clock = T0 + 600_000;
    const a = await get(`${sim.baseUrl}/v2/projects/${ref.projectId}/jobs/${ref.jobId}`);
    expect(a.data).toMatchObject({ status: "FAILED", finishedAt: "2025-05-01T12:01:00Z" });
    expect(a.data.failureReason).toMatchObject({ retryable: true });
    expect(() => sim.state.setSparkJobStatus("proj-test", "job-none", "RUNNING")).toThrow(
      expect.objectContaining({ code: "UNKNOWN_JOB" }),
    );
    clock = T0;
  });

  it("adds import jobs and sets their state", async () => {
    const cluster = sim.clusters[1];
    if (!cluster) throw new Error("no cluster");
    const jobId = sim.state.addImportJob(cluster.id, { collectionName: "docs" });
    const url = `${sim.baseUrl}/v1/vector/collections/import/list?clusterId=${cluster.id}&pageSize=5`;
    const first = (await get(url)).data[cluster.importListKey] as Array<Record<string, string>>;
    expect(first[0]).toEqual({ jobId, collectionName: "docs", state: "ImportPending" });
    sim.state.setImportJobState(cluster.id, jobId, "ImportCompleted");
    const second = (await get(url)).data[cluster.importListKey] as Array<Record<string, string>>;
    expect(second[0]?.state).toBe("ImportCompleted");
    expect(() => sim.state.setImportJobState(cluster.id, "job-none", "ImportFailed")).toThrow(
      expect.objectContaining({ code: "UNKNOWN_JOB" }),
    );
  });

  it("sets a cluster's status as seen by Describe and List Clusters", async () => {
    const cluster = sim.clusters[2];
    if (!cluster) throw new Error("no cluster");
    sim.state.setClusterStatus(cluster.id, "ABNORMAL");
    expect((await get(`${sim.baseUrl}/v2/clusters/${cluster.id}`)).data.status).toBe("ABNORMAL");
    const list = (await get(`${sim.baseUrl}/v2/clusters?pageSize=100`)).data.clusters as Array<
      Record<string, string>
    >;
    expect(list.find((c) => c.clusterId === cluster.id)?.status).toBe("ABNORMAL");
    expect(cluster.status).toBe("ABNORMAL");
    sim.state.setClusterStatus(cluster.id, "RUNNING");
  });

  it("answers Describe Cluster and List Clusters with the current reference's fields", async () => {
    const list = (await get(`${sim.baseUrl}/v2/clusters?pageSize=100`)).data.clusters as Array<
      Record<string, unknown>
    >;
    const described = await Promise.all(
      sim.clusters.map(async (c) => (await get(`${sim.baseUrl}/v2/clusters/${c.id}`)).data),
    );
    // Members of global clusters name theirs and their role; the others carry null.
    const roles = described.map((d) => (d.globalClusterMeta as { role?: string } | null)?.role ?? null);
    expect(roles).toContain("PRIMARY");
    expect(roles).toContain("SECONDARY");
    expect(roles).toContain(null);
    for (const d of described) expect(d).toHaveProperty("globalClusterMeta");
    // replica: the schema's string and the samples' number both occur.
    expect(new Set(described.filter((d) => "replica" in d).map((d) => typeof d.replica))).toEqual(
      new Set(["string", "number"]),
    );
    expect(described.some((d) => (d.autoscaling as { replica?: unknown } | undefined)?.replica)).toBe(true);
    // List Clusters items: deploymentOption and globalClusterMeta, not Describe Cluster's extras.
    for (const item of list) {
      expect(item).toHaveProperty("globalClusterMeta");
      for (const key of ["replica", "autoscaling", "snapshotNumber", "createProgress", "storageSize"]) {
        expect(item).not.toHaveProperty(key);
      }
      const d = described.find((x) => x.clusterId === item.clusterId);
      expect([item.deploymentOption, item.globalClusterMeta]).toEqual([
        d?.deploymentOption,
        d?.globalClusterMeta,
      ]);
    }
  });

  it("refuses unknown clusters and metrics", () => {
    expect(() => sim.state.setClusterStatus("in01-nope", "RUNNING")).toThrow(
      expect.objectContaining({ code: "UNKNOWN_CLUSTER" }),
    );
    expect(() => sim.state.setMetricNull(sim.clusters[0]?.id ?? "", "NOT_A_METRIC")).toThrow(
      expect.objectContaining({ code: "UNKNOWN_METRIC" }),
    );
  });

  it("serves the world at /_sim/world", async () => {
    const res = await request(`${sim.baseUrl}/_sim/world`);
    const world = (await res.body.json()) as { clusters: Array<{ id: string }>; sparkJobs: unknown[] };
    expect(world.clusters.map((c) => c.id)).toEqual(sim.clusters.map((c) => c.id));
    expect(world.sparkJobs).toHaveLength(sim.state.sparkJobRefs.length);
  });
});
