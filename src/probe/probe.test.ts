import { describe, expect, it } from "vitest";
import { buildConfig } from "../config/load.js";
import type { ClusterConfig } from "../config/types.js";
import { CloudError } from "../upstream/errors.js";
import type { CloudApi, MetricQuery } from "../upstream/types.js";
import { runProbe } from "./probe.js";

const METRICS = "POST /v2/clusters/{id}/metrics/query";

/** A fake service: records each method called; refuses READ_VCU in any form, and a bad key. */
function fakeApi(opts: { keyRefused?: boolean; unknown?: string } = {}) {
  const calls: string[] = [];
  const auth = () =>
    new CloudError("auth_error", "GET /v2/clusters/{id}: upstream code 80001: Invalid token", {
      endpoint: "GET /v2/clusters/{id}",
    });
  const api: CloudApi = {
    describeCluster: async (id) => {
      calls.push(`describeCluster ${id}`);
      if (opts.keyRefused) throw auth();
      if (id === opts.unknown) {
        throw new CloudError("not_found", "upstream code 80020: Cluster not exist", {
          endpoint: "GET /v2/clusters/{id}",
        });
      }
      return {} as never;
    },
    queryClusterMetrics: async (req) => {
      calls.push(`queryClusterMetrics ${req.queries.map((q: MetricQuery) => q.name).join(",")}`);
      if (req.queries.some((q) => q.name === "READ_VCU")) {
        throw new CloudError("api_error", `${METRICS}: upstream code 96000: invalid metric name: READ_VCU`, {
          endpoint: METRICS,
        });
      }
      return [];
    },
    listImportJobs: async () => {
      calls.push("listImportJobs");
      return { jobs: [], count: 0 } as never;
    },
    describeSparkJob: async () => {
      calls.push("describeSparkJob");
      return {} as never;
    },
    listClusters: async () => {
      calls.push("listClusters");
      return { count: 1, clusters: [{}] } as never;
    },
    listProjects: async () => [],
    listRegions: async () => [],
    listGroupMembers: async () => {
      calls.push("listGroupMembers");
      return { count: 0, members: 0 } as never;
    },
    listSparkJobs: async (args) => {
      calls.push(`listSparkJobs ${args.clusterId}`);
      if (opts.keyRefused) throw auth();
      return { total: 0, currentPage: 1, pageSize: 1, jobs: [] };
    },
    describeJob: async (jobId) => {
      calls.push(`describeJob ${jobId}`);
      if (opts.keyRefused) throw auth();
      if (jobId === opts.unknown) {
        throw new CloudError("not_found", "upstream code 80020: job not found", {
          endpoint: "GET /v2/jobs/{jobId}",
        });
      }
      return {} as never;
    },
  };
  return { api, calls };
}

async function probe(raw: Record<string, unknown>, api: CloudApi) {
  const config = await buildConfig({ api: { api_key: "k" }, ...raw });
  const clusters = config.clusters as ClusterConfig[];
  return runProbe(config, {
    clientFor: () => api,
    credentialOf: () => "default",
    clusters,
    sparkJobs: config.sparkJobs.jobs,
    jobIds: config.jobs.ids,
    now: () => 1_700_000_000_000,
  });
}

const TWO = [{ id: "in01-a", region: "aws-us-west-2" }, { id: "in01-b" }];
const QUERIES = [{ name: "CU_COMPUTATION", stat: "AVG" }, { name: "READ_VCU" }];

describe("runProbe", () => {
  it("describes each cluster, finds the refused query with the collector's refusal finding, lists page 1 where a region is known", async () => {
    const { api, calls } = await fakeApi();
    const report = await probe(
      {
        clusters: TWO,
        metrics: { queries: QUERIES },
        spark_jobs: { jobs: [{ project_id: "p", job_id: "j" }] },
        jobs: { ids: ["job-1"] },
      },
      api,
    );
    expect(report.keys).toEqual([{ credential: "default", state: "accepted" }]);
    const [a, b] = report.clusters;
    expect(a?.describe).toEqual({ ok: true });
    expect(a?.metrics).toEqual({
      accepted: [{ name: "CU_COMPUTATION", stat: "AVG" }],
      switched: [],
      refused: [{ query: { name: "READ_VCU" }, message: "invalid metric name: READ_VCU" }],
    });
    expect(a?.controller).toEqual({ ok: true });
    expect(b?.controller).toEqual({ skipped: "no region" });
    expect(report.sparkJobs).toEqual([{ projectId: "p", jobId: "j", result: { ok: true } }]);
    expect(a?.sparkList).toEqual({ ok: true });
    expect(b?.sparkList).toEqual({ ok: true });
    expect(report.jobs).toEqual([{ jobId: "job-1", result: { ok: true } }]);
    // Read-only, one Describe per cluster, one List Import Jobs (only in01-a has a region), one
    // List Spark Jobs per cluster, one Describe Job per job ID.
    const methods = new Set(calls.map((c) => c.split(" ")[0]));
    expect([...methods].sort()).toEqual([
      "describeCluster",
      "describeJob",
      "describeSparkJob",
      "listImportJobs",
      "listSparkJobs",
      "queryClusterMetrics",
    ]);
    expect(calls.filter((c) => c.startsWith("listSparkJobs"))).toEqual([
      "listSparkJobs in01-a",
      "listSparkJobs in01-b",
    ]);
    expect(calls.filter((c) => c.startsWith("describeCluster"))).toHaveLength(2);
    expect(calls.filter((c) => c === "listImportJobs")).toHaveLength(1);
  });

  it("a refused key stops every other call with it", async () => {
    const { api, calls } = await fakeApi({ keyRefused: true });
    const report = await probe(
      { clusters: TWO, spark_jobs: { jobs: [{ project_id: "p", job_id: "j" }] }, jobs: { ids: ["job-1"] } },
      api,
    );
    expect(report.keys).toEqual([
      {
        credential: "default",
        state: "refused",
        message: "GET /v2/clusters/{id}: upstream code 80001: Invalid token",
      },
    ]);
    expect(calls).toEqual(["describeCluster in01-a"]);
    expect(report.clusters[1]?.describe).toEqual({ skipped: "key refused" });
    expect(report.sparkJobs[0]?.result).toEqual({ skipped: "key refused" });
    expect(report.jobs[0]?.result).toEqual({ skipped: "key refused" });
    expect(report.clusters[1]?.sparkList).toEqual({ skipped: "key refused" });
  });

  it("an unknown job ID fails its line, while the key counts as accepted; no listing with discovery off", async () => {
    const { api, calls } = await fakeApi({ unknown: "job-gone" });
    const report = await probe(
      { clusters: [TWO[0]], jobs: { ids: ["job-gone"] }, spark_jobs: { discovery: { enabled: false } } },
      api,
    );
    expect(report.jobs).toEqual([
      {
        jobId: "job-gone",
        result: { ok: false, code: "not_found", message: "upstream code 80020: job not found" },
      },
    ]);
    expect(report.clusters[0]?.sparkList).toEqual({ skipped: "spark job discovery disabled" });
    expect(calls.some((c) => c.startsWith("listSparkJobs"))).toBe(false);
    expect(report.keys[0]?.state).toBe("accepted");
  });

  it("an unknown cluster is not asked anything else; the key still counts as accepted", async () => {
    const { api, calls } = await fakeApi({ unknown: "in01-b" });
    const report = await probe({ clusters: TWO }, api);
    expect(report.clusters[1]?.describe).toMatchObject({ ok: false, code: "not_found" });
    expect(report.clusters[1]?.metrics).toEqual({ skipped: "cluster not reachable" });
    expect(calls.filter((c) => c.includes("in01-b"))).toEqual(["describeCluster in01-b"]);
    expect(report.keys[0]?.state).toBe("accepted");
  });

  it("with no cluster configured, checks the key with List Clusters page 1", async () => {
    const { api, calls } = await fakeApi();
    const report = await probe({ inventory: { discovery: { enabled: true } } }, api);
    expect(calls).toEqual(["listClusters"]);
    expect(report.discovery).toEqual({ result: { ok: true }, seen: 1 });
    expect(report.keys[0]?.state).toBe("accepted");
  });
});
