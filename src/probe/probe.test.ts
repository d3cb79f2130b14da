import { describe, expect, it } from "vitest";
import { buildConfig } from "../config/load.js";
import type { ClusterConfig } from "../config/types.js";
import { CloudError } from "../upstream/errors.js";
import type { CloudApi, MetricQuery } from "../upstream/types.js";
import { runProbe } from "./probe.js";
import { formatProbe, probeExitCode } from "./report.js";

const METRICS = "POST /v2/clusters/{id}/metrics/query";

/** A fake service: records each method called; refuses READ_VCU in any form, and a bad key. */
function fakeApi(opts: { keyRefused?: boolean; unknown?: string; billingRefused?: boolean } = {}) {
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
    queryDailyUsage: async (args) => {
      calls.push(`queryDailyUsage ${args.start}..${args.end}`);
      if (opts.billingRefused) {
        throw new CloudError("auth_error", "POST /v2/usage/query: HTTP 403: permission denied", {
          endpoint: "POST /v2/usage/query",
        });
      }
      return { total: 0, currentPage: 1, pageSize: 1, rows: 0, days: [] };
    },
    listInvoices: async () => {
      calls.push("listInvoices");
      return { count: 0, currentPage: 1, pageSize: 1, invoices: [] };
    },
  };
  return { api, calls };
}

async function probe(raw: Record<string, unknown>, api: CloudApi, billingClient?: CloudApi) {
  const config = await buildConfig({ api: { api_key: "k" }, ...raw });
  const clusters = config.clusters as ClusterConfig[];
  return runProbe(config, {
    ...(billingClient ? { billingClient } : {}),
    clientFor: () => api,
    credentialOf: () => "default",
    clusters,
    sparkJobs: config.sparkJobs.jobs,
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
    // Read-only, one Describe per cluster, one List Import Jobs (only in01-a has a region).
    const methods = new Set(calls.map((c) => c.split(" ")[0]));
    expect([...methods].sort()).toEqual([
      "describeCluster",
      "describeSparkJob",
      "listImportJobs",
      "queryClusterMetrics",
    ]);
    expect(calls.filter((c) => c.startsWith("describeCluster"))).toHaveLength(2);
    expect(calls.filter((c) => c === "listImportJobs")).toHaveLength(1);
  });

  it("a refused key stops every other call with it", async () => {
    const { api, calls } = await fakeApi({ keyRefused: true });
    const report = await probe(
      { clusters: TWO, spark_jobs: { jobs: [{ project_id: "p", job_id: "j" }] } },
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

  it.each([
    ["readable", false, { ok: true }, "Billing (key billing): readable (Query Daily Usage answered)", 0],
    [
      "refused",
      true,
      { ok: false, code: "auth_error", message: "POST /v2/usage/query: HTTP 403: permission denied" },
      "Billing (key billing): not readable: the key needs the Organization Owner or Billing Admin role: POST /v2/usage/query: HTTP 403: permission denied",
      1,
    ],
  ])(
    "says whether billing is %s with the billing key, apart from the monitoring key",
    async (_n, refused, result, line, exit) => {
      const monitoring = fakeApi();
      const billing = fakeApi({ billingRefused: refused });
      const report = await probe(
        { clusters: [TWO[0]], billing: { enabled: true } },
        monitoring.api,
        billing.api,
      );
      expect(report.billing).toEqual({ credential: "billing", result });
      // Yesterday and today, with the billing client only; the monitoring key stays accepted.
      expect(billing.calls).toEqual(["queryDailyUsage 2023-11-13..2023-11-14"]);
      expect(monitoring.calls.some((c) => c.startsWith("queryDailyUsage"))).toBe(false);
      expect(report.keys).toEqual([{ credential: "default", state: "accepted" }]);
      expect(formatProbe(report)).toContain(line);
      expect(probeExitCode(report)).toBe(exit);
    },
  );

  it("does not probe billing while it is disabled", async () => {
    const billing = fakeApi();
    const report = await probe({ clusters: [TWO[0]] }, (await fakeApi()).api, billing.api);
    expect(report.billing).toBeUndefined();
    expect(billing.calls).toEqual([]);
  });
});
