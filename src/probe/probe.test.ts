import { describe, expect, it } from "vitest";
import { buildConfig } from "../config/load.js";
import type { ClusterConfig } from "../config/types.js";
import type { DataPlaneApi } from "../upstream/dataPlane.js";
import { listPipelinesEndpoint } from "../upstream/endpoints/pipelines.js";
import { CloudError } from "../upstream/errors.js";
import { projectV2 } from "../upstream/testkit.js";
import type { CloudApi, MetricQuery } from "../upstream/types.js";
import { notOfferedError } from "../upstream/unknownEndpoint.js";
import type { DataPlaneFactory } from "./dataPlane.js";
import { runProbe } from "./probe.js";
import { formatProbe, PROBE_FAILED, PROBE_OK, probeExitCode } from "./report.js";

const METRICS = "POST /v2/clusters/{id}/metrics/query";

/** A fake service: records each method called; refuses NO_SUCH_METRIC in any form, and a bad key. */
function fakeApi(
  opts: {
    keyRefused?: boolean;
    unknown?: string;
    backupDenied?: boolean;
    billingRefused?: boolean;
    v2Gone?: boolean;
    v1Gone?: boolean;
    noJobs?: boolean;
    /** Projects of List Projects V2, by ID with their regions. */
    projects?: Record<string, string[]>;
    /** How List On-Demand Clusters, List Alert Rules and List Storage Integrations answer. */
    console?: "not_permitted" | "plan_refused" | "failed";
    /** What List Pipelines throws instead (a service without pipelines). */
    pipelines?: CloudError;
  } = {},
) {
  const consoleFailure = (
    endpoint:
      | "GET /v2/clusters/onDemandClusters"
      | "GET /v2/on-demand-compute"
      | "GET /v2/alertRules"
      | "GET /v2/projects/{projectId}/privateEndpoints"
      | "GET /v2/storageIntegrations"
      | "GET /v2/api-keys"
      | "GET /v1/pipelines",
  ) => {
    if (opts.console === "not_permitted")
      return new CloudError(
        "api_error",
        `${endpoint}: upstream code 96013: Org owner or project owner is needed`,
        {
          endpoint,
          apiCode: 96013,
        },
      );
    if (opts.console === "plan_refused")
      return new CloudError(
        "api_error",
        `${endpoint}: upstream code 96028: Feature only supported for enterprise plan clusters.`,
        {
          endpoint,
          apiCode: 96028,
        },
      );
    if (opts.console === "failed")
      return new CloudError("http_error", `${endpoint}: HTTP 502: Bad Gateway`, {
        endpoint,
        httpStatus: 502,
      });
    return undefined;
  };
  const gone = (endpoint: "POST /v2/vectordb/jobs/import/list" | "GET /v1/vector/collections/import/list") =>
    new CloudError("not_found", `${endpoint}: HTTP 404: upstream code 404: Not Found`, {
      endpoint,
      httpStatus: 404,
      apiCode: 404,
    });
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
      if (req.queries.some((q) => q.name === "NO_SUCH_METRIC")) {
        throw new CloudError(
          "api_error",
          `${METRICS}: upstream code 96000: invalid metric name: NO_SUCH_METRIC`,
          {
            endpoint: METRICS,
          },
        );
      }
      return [];
    },
    listImportJobs: async () => {
      calls.push("listImportJobs");
      if (opts.v1Gone) throw gone("GET /v1/vector/collections/import/list");
      return { jobs: [], count: 0 } as never;
    },
    listImportJobsV2: async (args) => {
      calls.push(`listImportJobsV2 ${args.clusterId}`);
      if (opts.v2Gone) throw gone("POST /v2/vectordb/jobs/import/list");
      const jobs = opts.noJobs
        ? []
        : [{ jobId: `job-${args.clusterId}`, collectionName: "docs", state: "Importing" }];
      return { total: jobs.length, currentPage: 1, pageSize: 100, listed: jobs.length, jobs };
    },
    describeImportJob: async (args) => {
      calls.push(`describeImportJob ${args.jobId}`);
      return {
        jobId: args.jobId,
        collectionName: "docs",
        state: "Importing",
        progressPercent: 5,
        totalRows: 1,
        reason: null,
      };
    },
    listProjectsV2: async () => {
      calls.push("listProjectsV2");
      return Object.entries(opts.projects ?? {}).map(([projectId, regionIds]) =>
        projectV2(projectId, regionIds),
      );
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
    listBackups: async () => {
      calls.push("listBackups");
      if (opts.backupDenied) {
        throw new CloudError("auth_error", "GET /v2/backups: HTTP 403: upstream code 80403: no permission", {
          endpoint: "GET /v2/backups",
          httpStatus: 403,
          apiCode: 80403,
        });
      }
      return { total: 0, currentPage: 1, pageSize: 1, listed: 0, backups: [] };
    },
    getBackupPolicy: async () => ({}) as never,
    listGlobalClusters: async () => ({}) as never,
    getGlobalClusterReplicationLag: async () => ({}) as never,
    listSparkJobs: async (args) => {
      calls.push(`listSparkJobs ${args.clusterId}`);
      if (opts.keyRefused) throw auth();
      return { total: 0, currentPage: 1, pageSize: 1, listed: 0, jobs: [] };
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
    queryDailyUsage: async (args) => {
      calls.push(`queryDailyUsage ${args.start}..${args.end}`);
      if (opts.billingRefused) {
        throw new CloudError("auth_error", "POST /v2/usage/query: HTTP 403: permission denied", {
          endpoint: "POST /v2/usage/query",
        });
      }
      return { total: 0, currentPage: 1, pageSize: 1, listed: 0, days: [] };
    },
    listInvoices: async () => {
      calls.push("listInvoices");
      return { total: 0, currentPage: 1, pageSize: 1, listed: 0, invoices: [] };
    },
    listOnDemandClusters: async (args) => {
      calls.push(`listOnDemandClusters ${args.projectId} ${args.regionId}`);
      const err = consoleFailure("GET /v2/clusters/onDemandClusters");
      if (err) throw err;
      return [];
    },
    describeOnDemandCompute: async (args) => {
      calls.push(`describeOnDemandCompute ${args.projectId} ${args.regionId}`);
      const err = consoleFailure("GET /v2/on-demand-compute");
      if (err) throw err;
      return { ...args, status: "abnormal" };
    },
    listAlertRules: async (args) => {
      calls.push(`listAlertRules ${args.projectId} ${args.currentPage}/${args.pageSize}`);
      const err = consoleFailure("GET /v2/alertRules");
      if (err) throw err;
      return { total: 7, currentPage: 1, pageSize: 1, listed: 0, rules: [] };
    },
    listPrivateEndpoints: async (args) => {
      calls.push(`listPrivateEndpoints ${args.projectId} ${args.currentPage}/${args.pageSize}`);
      const err = consoleFailure("GET /v2/projects/{projectId}/privateEndpoints");
      if (err) throw err;
      return { total: 3, currentPage: 1, pageSize: 1, listed: 1, endpoints: [] };
    },
    listStorageIntegrations: async (args) => {
      calls.push(`listStorageIntegrations ${args.projectId} ${args.currentPage}/${args.pageSize}`);
      const err = consoleFailure("GET /v2/storageIntegrations");
      if (err) throw err;
      // No count: the probe says how many the page listed.
      return { total: null, currentPage: 1, pageSize: 1, listed: 1, integrations: [] };
    },
    listApiKeys: async (args) => {
      calls.push(`listApiKeys ${args.currentPage}/${args.pageSize}`);
      const err = consoleFailure("GET /v2/api-keys");
      if (err) throw err;
      return { total: 4, currentPage: 1, pageSize: 1, listed: 1, apiKeys: [] };
    },
    listPipelines: async (args) => {
      calls.push(`listPipelines ${args.projectId} ${args.regionId}`);
      const err = opts.pipelines ?? consoleFailure("GET /v1/pipelines");
      if (err) throw err;
      return [];
    },
    describePipeline: async () => null,
  };
  return { api, calls };
}

async function probe(
  raw: Record<string, unknown>,
  api: CloudApi,
  billingClient?: CloudApi,
  dataPlane?: DataPlaneFactory,
) {
  const config = await buildConfig({ api: { api_key: "k" }, ...raw });
  const clusters = config.clusters as ClusterConfig[];
  return runProbe(config, {
    ...(billingClient ? { billingClient } : {}),
    ...(dataPlane ? { dataPlane } : {}),
    clientFor: () => api,
    credentialOf: () => "default",
    clusters,
    sparkJobs: config.sparkJobs.jobs,
    jobIds: config.jobs.ids,
    now: () => 1_700_000_000_000,
  });
}

const TWO = [{ id: "in01-a", region: "aws-us-west-2" }, { id: "in01-b" }];
const QUERIES = [{ name: "CU_COMPUTATION", stat: "AVG" }, { name: "NO_SUCH_METRIC" }];

describe("runProbe", () => {
  it("describes each cluster, finds the refused query with the collector's refusal finding, lists page 1 where a region is known", async () => {
    const { api, calls } = await fakeApi();
    const report = await probe(
      {
        clusters: TWO,
        metrics: { queries: QUERIES, allow_unknown_names: true },
        spark_jobs: { jobs: [{ project_id: "p", job_id: "j" }] },
        jobs: { ids: ["job-1"] },
      },
      api,
    );
    expect(report.keys).toEqual([{ credential: "default", state: "accepted" }]);
    const [a, b] = report.clusters;
    expect(a?.describe).toEqual({ ok: true });
    // Asked in the current form (auto): the 2024 query goes as its current name.
    expect(a?.metrics).toEqual({
      accepted: [{ name: "CU_COMPUTATION" }],
      switched: [],
      refused: [{ query: { name: "NO_SUCH_METRIC" }, message: "invalid metric name: NO_SUCH_METRIC" }],
      form: "current",
    });
    expect(a?.controller).toEqual({ ok: true });
    expect(b?.controller).toEqual({ skipped: "no region" });
    // V2 needs no region: both clusters are listed, and the first job's progress asked.
    expect(a?.importListV2).toEqual({ ok: true });
    expect(b?.importListV2).toEqual({ ok: true });
    expect(b?.importProgress).toEqual({ ok: true });
    expect(report.projects).toEqual({ ok: true });
    expect(report.sparkJobs).toEqual([{ projectId: "p", jobId: "j", result: { ok: true } }]);
    expect(calls).toContain("describeImportJob job-in01-b");
    expect(a?.sparkList).toEqual({ ok: true });
    expect(b?.sparkList).toEqual({ ok: true });
    expect(report.jobs).toEqual([{ jobId: "job-1", result: { ok: true } }]);
    // Read-only, one Describe per cluster, one List Import Jobs (only in01-a has a region), one
    // List Spark Jobs per cluster, one Describe Job per job ID.
    const methods = new Set(calls.map((c) => c.split(" ")[0]));
    expect([...methods].sort()).toEqual([
      "describeCluster",
      "describeImportJob",
      "describeJob",
      "describeSparkJob",
      "listApiKeys",
      "listBackups",
      "listImportJobs",
      "listImportJobsV2",
      "listProjectsV2",
      "listSparkJobs",
      "queryClusterMetrics",
    ]);
    // Backup permission: one page-1 listing per credential, not per cluster.
    expect(calls.filter((c) => c === "listBackups")).toHaveLength(1);
    expect(report.backups).toEqual([{ credential: "default", state: "permitted" }]);
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

  it("an unknown job ID fails its line, while the key counts as accepted; no listing with Spark job discovery off", async () => {
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

  it("a key without backup permission is reported as not permitted, not as a failure", async () => {
    const { api } = await fakeApi({ backupDenied: true });
    const report = await probe({ clusters: TWO }, api);
    expect(report.backups).toEqual([
      { credential: "default", state: "not_permitted", message: expect.stringContaining("no permission") },
    ]);
    expect(report.keys[0]?.state).toBe("accepted");
    expect(probeExitCode(report)).toBe(PROBE_OK);
    expect(formatProbe(report)).toMatch(
      /Backups \(key default\): NOT PERMITTED: the key lacks backup permission/,
    );
  });

  it.each([
    { name: "V2 and v1 answer", opts: {}, code: PROBE_OK },
    { name: "V2 refused, v1 answers (the fallback)", opts: { v2Gone: true }, code: PROBE_OK },
    { name: "v1 retired, V2 answers", opts: { v1Gone: true }, code: PROBE_OK },
    { name: "both refused", opts: { v1Gone: true, v2Gone: true }, code: PROBE_FAILED },
  ])("import listings: $name -> exit $code", async ({ opts, code }) => {
    const { api } = await fakeApi(opts);
    const report = await probe({ clusters: [TWO[0]], metrics: { queries: [QUERIES[0]] } }, api);
    expect(probeExitCode(report)).toBe(code);
  });

  it("V2 refused without a region to fall back to fails the cluster; api v1 skips V2", async () => {
    const gone = await probe(
      { clusters: [TWO[1]], metrics: { queries: [QUERIES[0]] } },
      fakeApi({ v2Gone: true }).api,
    );
    expect(gone.clusters[0]?.importListV2).toMatchObject({ ok: false, code: "not_found" });
    expect(gone.clusters[0]?.importProgress).toEqual({ skipped: "no V2 listing" });
    expect(probeExitCode(gone)).toBe(PROBE_FAILED);
    const { api, calls } = fakeApi();
    const v1 = await probe({ clusters: [TWO[0]], import_jobs: { api: "v1" } }, api);
    expect(v1.clusters[0]?.importListV2).toEqual({ skipped: "import_jobs.api v1" });
    expect(calls.some((c) => c.startsWith("listImportJobsV2"))).toBe(false);
    const none = await probe({ clusters: [TWO[0]] }, fakeApi({ noJobs: true }).api);
    expect(none.clusters[0]?.importProgress).toEqual({ skipped: "no import job listed" });
  });

  it("with no cluster configured, checks the key with List Clusters page 1", async () => {
    const { api, calls } = await fakeApi();
    const report = await probe({ inventory: { discovery: { enabled: true } } }, api);
    // List API Keys is account-wide: asked without a project.
    expect(calls).toEqual(["listClusters", "listProjectsV2", "listApiKeys 1/1"]);
    expect(report.clusterDiscovery).toEqual({ result: { ok: true }, seen: 1 });
    expect(report.keys[0]?.state).toBe("accepted");
  });

  it("lists API keys with the api_keys section's own key when the collector would", async () => {
    const main = fakeApi();
    const owner = fakeApi();
    const config = await buildConfig({ api: { api_key: "k" }, api_keys: { api_key: "owner-key" } });
    const asked: string[] = [];
    await runProbe(config, {
      clientFor: () => main.api,
      credentialOf: () => "default",
      clusters: [],
      sparkJobs: [],
      jobIds: [],
      now: () => 1_700_000_000_000,
      ownKeyClient: (section) => {
        asked.push(section.key);
        return owner.api;
      },
    });
    expect(asked).toEqual(["api_keys"]);
    expect(owner.calls).toEqual(["listApiKeys 1/1"]);
    expect(main.calls.filter((c) => c.startsWith("listApiKeys"))).toEqual([]);
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

  it("probes the console's listings once, for the first known project (and region)", async () => {
    const { api, calls } = fakeApi({
      projects: { p1: ["aws-us-west-2", "az-eastus"], p2: ["gcp-us-west1"] },
    });
    const report = await probe({ clusters: [{ id: "in01-a", project_id: "p0", region: "az-eastus" }] }, api);
    expect(
      calls.filter((c) =>
        /^(list(OnDemandClusters|AlertRules|PrivateEndpoints|StorageIntegrations|ApiKeys|Pipelines)|describeOnDemandCompute) /.test(
          c,
        ),
      ),
    ).toEqual([
      "listOnDemandClusters p1 aws-us-west-2",
      "describeOnDemandCompute p1 aws-us-west-2",
      "listAlertRules p1 1/1",
      "listPrivateEndpoints p1 1/1",
      "listStorageIntegrations p1 1/1",
      "listApiKeys 1/1",
      "listPipelines p1 aws-us-west-2",
    ]);
    expect(report.console).toEqual([
      { what: "List On-Demand Clusters", where: "p1, aws-us-west-2", state: "ok", listed: 0 },
      { what: "Describe On-Demand Compute", where: "p1, aws-us-west-2", state: "ok", status: "abnormal" },
      { what: "List Alert Rules", where: "p1", state: "ok", listed: 7 },
      { what: "List Private Endpoints", where: "p1", state: "ok", listed: 3 },
      { what: "List Storage Integrations", where: "p1", state: "ok", listed: 1 },
      { what: "List API Keys", state: "ok", listed: 4 },
      { what: "List Pipelines", where: "p1, aws-us-west-2", state: "ok", listed: 0 },
    ]);
    const text = formatProbe(report);
    expect(text).toContain("List On-Demand Clusters (p1, aws-us-west-2): ok, 0 listed");
    expect(text).toContain("Describe On-Demand Compute (p1, aws-us-west-2): ok, status abnormal");
    expect(text).toContain("List Alert Rules (p1): ok, 7 listed");
    expect(text).toContain("List Private Endpoints (p1): ok, 3 listed");
    expect(text).toContain("List Storage Integrations (p1): ok, 1 listed");
    expect(text).toContain("List API Keys: ok, 4 listed");
  });

  it("with no project known, the console's listings are skipped; while their collectors are off, absent", async () => {
    const report = await probe({ clusters: [TWO[0]] }, fakeApi().api);
    expect(report.console?.map((c) => [c.what, c.state, c.message])).toEqual([
      ["List On-Demand Clusters", "skipped", "no project and region known"],
      ["Describe On-Demand Compute", "skipped", "no project and region known"],
      ["List Alert Rules", "skipped", "no project known"],
      ["List Private Endpoints", "skipped", "no project known"],
      ["List Storage Integrations", "skipped", "no project known"],
      // Account-wide: asked with no project known.
      ["List API Keys", "ok", undefined],
      ["List Pipelines", "skipped", "no project and region known"],
    ]);
    const off = fakeApi({ projects: { p1: ["aws-us-west-2"] } });
    const none = await probe(
      {
        clusters: [TWO[0]],
        inventory: { on_demand: false },
        on_demand_compute: { enabled: false },
        alert_rules: { enabled: false },
        private_endpoints: { enabled: false },
        storage_integrations: { enabled: false },
        api_keys: { enabled: false },
        pipelines: { enabled: false },
      },
      off.api,
    );
    expect(none.console).toBeUndefined();
    expect(
      off.calls.some((c) =>
        /^(list(OnDemand|AlertRules|PrivateEndpoints|StorageIntegrations|ApiKeys|Pipelines)|describeOnDemandCompute)/.test(
          c,
        ),
      ),
    ).toBe(false);
  });

  it.each([
    [
      "not_permitted",
      PROBE_OK,
      /List Alert Rules \(p1\): NOT PERMITTED: the key is not a Project Admin there/,
    ],
    [
      "plan_refused",
      PROBE_OK,
      /List On-Demand Clusters \(p1, aws-us-west-2\): refused for the project's plan/,
    ],
    [
      "failed",
      PROBE_FAILED,
      /Failures:\n(?:.*\n)* {2}List Alert Rules \(p1\): GET \/v2\/alertRules: HTTP 502/,
    ],
  ] as const)("a console listing %s: exit %s", async (state, exit, line) => {
    const report = await probe(
      { clusters: [TWO[0]] },
      fakeApi({ projects: { p1: ["aws-us-west-2"] }, console: state }).api,
    );
    expect(report.console?.map((c) => c.state)).toEqual([state, state, state, state, state, state, state]);
    expect(probeExitCode(report)).toBe(exit);
    expect(formatProbe(report)).toMatch(line);
  });

  it("says on-demand compute is not collected where the key may not read it, and a status not given", async () => {
    const refused = await probe(
      { clusters: [TWO[0]] },
      fakeApi({ projects: { p1: ["aws-us-west-2"] }, console: "not_permitted" }).api,
    );
    expect(formatProbe(refused)).toContain(
      "Describe On-Demand Compute (p1, aws-us-west-2): NOT PERMITTED: the key is not a Project Admin there; on-demand compute is not collected there",
    );
    const { api } = fakeApi({ projects: { p1: ["aws-us-west-2"] } });
    const silent: typeof api = {
      ...api,
      describeOnDemandCompute: async (args) => ({ ...args, status: null }),
    };
    const report = await probe({ clusters: [TWO[0]] }, silent);
    expect(formatProbe(report)).toContain(
      "Describe On-Demand Compute (p1, aws-us-west-2): ok, status none given",
    );
  });

  // Each answer as the client throws it: List Pipelines is declared `absent`.
  const thrown = (answer: CloudError) => notOfferedError(answer, listPipelinesEndpoint.absent);
  it.each([
    [
      "HTTP 404",
      thrown(
        new CloudError("not_found", "GET /v1/pipelines: HTTP 404: Not Found", {
          endpoint: "GET /v1/pipelines",
          httpStatus: 404,
        }),
      ),
    ],
    [
      "80002",
      thrown(
        new CloudError(
          "auth_error",
          "GET /v1/pipelines: upstream code 80002: Token not found or unauthorized",
          {
            endpoint: "GET /v1/pipelines",
            apiCode: 80002,
          },
        ),
      ),
    ],
  ])(
    "says pipelines are not offered here where List Pipelines answers %s: not a failure",
    async (_name, err) => {
      const report = await probe(
        { clusters: [TWO[0]] },
        fakeApi({ projects: { p1: ["aws-us-west-2"] }, pipelines: err }).api,
      );
      expect(report.console?.find((c) => c.what === "List Pipelines")?.state).toBe("not_offered");
      expect(formatProbe(report)).toContain(
        "List Pipelines (p1, aws-us-west-2): not offered here (the service discontinued them); pipelines are not collected there, asked again daily, not a failure",
      );
      expect(probeExitCode(report)).toBe(PROBE_OK);
    },
  );

  it("says storage integrations are not collected where the key may not list them", async () => {
    const report = await probe(
      { clusters: [TWO[0]] },
      fakeApi({ projects: { p1: ["aws-us-west-2"] }, console: "not_permitted" }).api,
    );
    expect(formatProbe(report)).toContain(
      "List Storage Integrations (p1): NOT PERMITTED: the key is not a Project Admin there; storage integrations are not collected there",
    );
  });

  it("says API keys are not collected where the key may not list them, naming who may", async () => {
    const report = await probe(
      { clusters: [TWO[0]] },
      fakeApi({ projects: { p1: ["aws-us-west-2"] }, console: "not_permitted" }).api,
    );
    expect(formatProbe(report)).toContain(
      "List API Keys: NOT PERMITTED: the key is not an Organization Owner (nor a Project Admin, who sees its projects' keys); API keys are not collected, the other collectors are unaffected",
    );
    expect(probeExitCode(report)).toBe(PROBE_OK);
  });

  it("says private endpoints are not collected where the key may not list them, and counts the page when no count comes", async () => {
    const refused = await probe(
      { clusters: [TWO[0]] },
      fakeApi({ projects: { p1: ["aws-us-west-2"] }, console: "not_permitted" }).api,
    );
    expect(formatProbe(refused)).toContain(
      "List Private Endpoints (p1): NOT PERMITTED: the key is not a Project Admin there; private endpoints are not collected there",
    );
    const { api } = fakeApi({ projects: { p1: ["aws-us-west-2"] } });
    const uncounted: typeof api = {
      ...api,
      listPrivateEndpoints: async () => ({
        total: null,
        currentPage: 1,
        pageSize: 1,
        listed: 1,
        endpoints: [],
      }),
    };
    const report = await probe({ clusters: [TWO[0]] }, uncounted);
    expect(report.console?.find((c) => c.what === "List Private Endpoints")?.listed).toBe(1);
  });

  describe("data planes, with collections on", () => {
    const refused = (endpoint: "POST /v2/vectordb/indexes/describe" | "POST /v2/vectordb/indexes/list") =>
      new CloudError("auth_error", `${endpoint}: upstream code 1800: User hasn't authenticated`, {
        endpoint,
        apiCode: 1800,
      });
    /** A data plane of one collection with one index; `fail` refuses one of the index calls. */
    function plane(opts: { fail?: "list" | "describe"; collections?: string[]; indexes?: string[] } = {}) {
      const calls: string[] = [];
      const factory: DataPlaneFactory = (endpoint) => {
        calls.push(`plane ${endpoint}`);
        const api: Partial<DataPlaneApi> = {
          listDatabases: async () => ["analytics", "default"],
          listCollections: async (db) => {
            calls.push(`listCollections ${db}`);
            return opts.collections ?? ["docs"];
          },
          listIndexes: async (c) => {
            calls.push(`listIndexes ${c.dbName}/${c.collectionName}`);
            if (opts.fail === "list") throw refused("POST /v2/vectordb/indexes/list");
            return opts.indexes ?? ["embedding_idx"];
          },
          describeIndex: async (r) => {
            calls.push(`describeIndex ${r.collectionName}/${r.indexName}`);
            if (opts.fail === "describe") throw refused("POST /v2/vectordb/indexes/describe");
            return null;
          },
        };
        return api as DataPlaneApi;
      };
      return { factory, calls };
    }
    const WITH_PLANE = { clusters: [{ id: "in01-a", data_plane: { endpoint: "https://dp.example.test" } }] };

    it("lists collections, then List Indexes of the first and Describe Index of its first index", async () => {
      const p = plane();
      const report = await probe(
        { ...WITH_PLANE, collections: { enabled: true } },
        fakeApi().api,
        undefined,
        p.factory,
      );
      expect(report.clusters[0]?.dataPlane).toEqual({
        collections: { ok: true },
        listIndexes: { ok: true },
        describeIndex: { ok: true },
      });
      expect(p.calls).toEqual([
        "plane https://dp.example.test",
        "listCollections default",
        "listIndexes default/docs",
        "describeIndex docs/embedding_idx",
      ]);
      expect(probeExitCode(report)).toBe(PROBE_OK);
      expect(formatProbe(report)).toMatch(
        /DATA PLANE \(LIST COLLECTIONS\)\s+LIST INDEXES\s+DESCRIBE INDEX\nin01-a\s+ok\s+ok\s+ok\n/,
      );
    });

    it.each([
      ["describe", { ok: true }, { ok: false, code: "auth_error" }, "Describe Index"],
      ["list", { ok: false, code: "auth_error" }, { skipped: "no index listing" }, "List Indexes"],
    ] as const)(
      "a refused %s fails the probe, with the service's message",
      async (fail, list, describe, what) => {
        const p = plane({ fail });
        const report = await probe(
          { ...WITH_PLANE, collections: { enabled: true } },
          fakeApi().api,
          undefined,
          p.factory,
        );
        expect(report.clusters[0]?.dataPlane).toMatchObject({
          collections: { ok: true },
          listIndexes: list,
          describeIndex: describe,
        });
        expect(probeExitCode(report)).toBe(PROBE_FAILED);
        expect(formatProbe(report)).toContain(`in01-a ${what}: POST /v2/vectordb/indexes/`);
        expect(formatProbe(report)).toContain("User hasn't authenticated");
      },
    );

    it.each([
      [{ collections: { enabled: true, indexes: false } }, {}, { skipped: "collections.indexes false" }],
      [{ collections: { enabled: true } }, { collections: [] }, { skipped: "no collection listed" }],
      [{ collections: { enabled: true } }, { indexes: [] }, { ok: true }],
    ])("%j with %j: List Indexes %j", async (raw, shape, listIndexes) => {
      const p = plane(shape);
      const report = await probe({ ...WITH_PLANE, ...raw }, fakeApi().api, undefined, p.factory);
      expect(report.clusters[0]?.dataPlane?.listIndexes).toEqual(listIndexes);
      expect(probeExitCode(report)).toBe(PROBE_OK);
      expect(p.calls.some((c) => c.startsWith("describeIndex"))).toBe(false);
    });

    it("refuses a connectAddress off the service's domains: no data-plane client, the cluster's probe fails", async () => {
      const { api } = fakeApi();
      const foreign: CloudApi = {
        ...api,
        describeCluster: async () => ({ connectAddress: "https://in01-a.example.test:19530" }) as never,
      };
      const p = plane();
      const report = await probe(
        { clusters: [{ id: "in01-a" }], collections: { enabled: true } },
        foreign,
        undefined,
        p.factory,
      );
      expect(p.calls).toEqual([]);
      expect(report.clusters[0]?.dataPlane?.collections).toMatchObject({
        ok: false,
        code: "foreign_endpoint",
      });
      // Listed by the user, the same host is accepted.
      const listed = plane();
      await probe(
        {
          api: { api_key: "k", data_plane_hosts: ["in01-a.example.test"] },
          clusters: [{ id: "in01-a" }],
          collections: { enabled: true },
        },
        foreign,
        undefined,
        listed.factory,
      );
      expect(listed.calls[0]).toBe("plane https://in01-a.example.test:19530");
    });

    it("without a configured endpoint, uses Describe Cluster's connectAddress; nothing with collections off", async () => {
      const { api } = fakeApi();
      const withAddress: CloudApi = {
        ...api,
        describeCluster: async () =>
          ({ connectAddress: "https://in01-a.aws-us-west-2.vectordb.zillizcloud.com:19530" }) as never,
      };
      const p = plane();
      await probe(
        { clusters: [{ id: "in01-a" }], collections: { enabled: true } },
        withAddress,
        undefined,
        p.factory,
      );
      expect(p.calls[0]).toBe("plane https://in01-a.aws-us-west-2.vectordb.zillizcloud.com:19530");
      const off = plane();
      const report = await probe(WITH_PLANE, api, undefined, off.factory);
      expect(report.clusters[0]?.dataPlane).toBeUndefined();
      expect(off.calls).toEqual([]);
    });

    it("a cluster without any endpoint fails its data plane with no_endpoint", async () => {
      const p = plane();
      const noAddress: CloudApi = {
        ...fakeApi().api,
        describeCluster: async () => ({ connectAddress: null }) as never,
      };
      const report = await probe(
        { clusters: [{ id: "in01-a" }], collections: { enabled: true } },
        noAddress,
        undefined,
        p.factory,
      );
      expect(report.clusters[0]?.dataPlane?.collections).toMatchObject({ ok: false, code: "no_endpoint" });
      expect(probeExitCode(report)).toBe(PROBE_FAILED);
    });
  });
});
