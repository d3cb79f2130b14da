/**
 * The endpoint table is the one place an endpoint is declared: every set the exporter keeps of
 * endpoints derives from it, and no production file outside this folder (and the simulator, the
 * fake service) spells a path template or a request path.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CONTROL_PLANE,
  DATA_PLANE,
  DATA_PLANE_ENDPOINT,
  ENDPOINT,
  ENDPOINT_ORDER,
  ENDPOINTS,
  PAGED_ENDPOINTS,
  RUN_TIME_COUNTS,
  SHARD_ZERO_ENDPOINTS,
} from "./table.js";

const SRC = resolve(import.meta.dirname, "../..");

/** Where path templates may be written: the declarations, and the fake service. */
const ALLOWED = ["upstream/endpoints/", "simulator/"];

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return productionFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : [];
  });
}

/**
 * The string literals of `text` (quoted or template, comments removed) that are a path template
 * or a request path as a whole: "GET /v2/clusters/{id}", "/v2/regions", `/v2/jobs/${id}`. Text
 * that names an endpoint inside a sentence for people (a help text, a metric's `source`, a log
 * line) is prose, not a declaration, and stays allowed: it has spaces after the path.
 */
function pathLiterals(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/.*$/gm, "");
  const found: string[] = [];
  for (const m of code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)) {
    const literal = m[1] ?? m[2] ?? m[3] ?? "";
    if (/^(?:(?:GET|POST|PUT|PATCH|DELETE) )?\/v\d+\/\S*$/.test(literal)) found.push(literal);
  }
  return found;
}

describe("the endpoint table", () => {
  const every = [...Object.values(CONTROL_PLANE), ...Object.values(DATA_PLANE)];
  /**
   * The console's account-wide listings whose number of calls only a run knows (one per project,
   * region or page that other listings give), in the table's order: each carries a run-time note,
   * and only shard 0 calls them.
   */
  const RUN_TIME_COUNTED = [
    ENDPOINT.listOnDemandClusters,
    ENDPOINT.listAlertRules,
    ENDPOINT.listPrivateEndpoints,
    ENDPOINT.describeOnDemandCompute,
    ENDPOINT.listStorageIntegrations,
    ENDPOINT.listApiKeys,
    ENDPOINT.listPipelines,
    ENDPOINT.describePipeline,
  ];

  it("declares each template once", () => {
    expect(new Set(ENDPOINTS).size).toBe(ENDPOINTS.length);
    expect(ENDPOINTS).toEqual([...Object.values(ENDPOINT), ...Object.values(DATA_PLANE_ENDPOINT)]);
    for (const [name, template] of Object.entries(ENDPOINT))
      expect(CONTROL_PLANE[name as keyof typeof CONTROL_PLANE].endpoint).toBe(template);
  });

  it("keeps the self-metrics' endpoint label values, in their order", () => {
    expect(ENDPOINTS).toEqual([
      "POST /v2/clusters/{id}/metrics/query",
      "GET /v1/vector/collections/import/list",
      "GET /v2/projects/{projectId}/jobs/{jobId}",
      "GET /v2/clusters/{id}",
      "GET /v2/clusters",
      "GET /v1/projects",
      "GET /v2/regions",
      "GET /v2/groups/{groupId}/members",
      "GET /v2/backups",
      "GET /v2/clusters/{id}/backups/policy",
      "GET /v2/globalClusters",
      "GET /v2/globalClusters/{id}/replicationLag",
      "POST /v2/vectordb/jobs/import/list",
      "POST /v2/vectordb/jobs/import/describe",
      "GET /v2/projects",
      "GET /v2/jobs",
      "GET /v2/jobs/{jobId}",
      "POST /v2/usage/query",
      "GET /v2/invoices",
      "GET /v2/clusters/onDemandClusters",
      "GET /v2/alertRules",
      "GET /v2/projects/{projectId}/privateEndpoints",
      "GET /v2/on-demand-compute",
      "GET /v2/storageIntegrations",
      "GET /v2/api-keys",
      "GET /v1/pipelines",
      "GET /v1/pipelines/{PIPELINE_ID}",
      "POST /v2/vectordb/databases/list",
      "POST /v2/vectordb/collections/list",
      "GET /v1/vector/collections",
      "POST /v2/vectordb/collections/get_load_state",
      "POST /v2/vectordb/collections/get_stats",
      "POST /v2/vectordb/indexes/list",
      "POST /v2/vectordb/indexes/describe",
      "POST /v2/vectordb/collections/describe",
      "POST /v2/vectordb/entities/search",
      "POST /v2/vectordb/entities/query",
    ]);
  });

  it("derives the paged set from each declaration's paging", () => {
    expect([...PAGED_ENDPOINTS].sort()).toEqual(
      [
        ENDPOINT.listClusters,
        ENDPOINT.listImportJobs,
        ENDPOINT.listImportJobsV2,
        ENDPOINT.listSparkJobs,
        ENDPOINT.listBackups,
        ENDPOINT.listGlobalClusters,
        ENDPOINT.listGroupMembers,
        ENDPOINT.listInvoices,
        ENDPOINT.queryDailyUsage,
        ENDPOINT.listAlertRules,
        ENDPOINT.listPrivateEndpoints,
        ENDPOINT.listStorageIntegrations,
        ENDPOINT.listApiKeys,
      ].sort(),
    );
    for (const def of every) {
      if (def.paging === "none") continue;
      expect(def.paging.pageSize.max, def.endpoint).toBeLessThanOrEqual(100);
      expect(def.scope, def.endpoint).not.toBe("data plane");
    }
  });

  it("derives the shard-0 set: account-wide control-plane listings only", () => {
    expect([...SHARD_ZERO_ENDPOINTS].sort()).toEqual(
      [
        ENDPOINT.listRegions,
        ENDPOINT.listProjectsV2,
        ENDPOINT.listProjects,
        ENDPOINT.listGlobalClusters,
        ENDPOINT.getGlobalClusterReplicationLag,
        ENDPOINT.listGroupMembers,
        ENDPOINT.queryDailyUsage,
        ENDPOINT.listInvoices,
        ...RUN_TIME_COUNTED,
      ].sort(),
    );
    for (const def of every)
      if (def.shardZero) expect(def.scope, def.endpoint).not.toMatch(/cluster|data plane/);
  });

  it("derives the schedule's order, and its run-time notes", () => {
    expect(ENDPOINT_ORDER).toEqual([
      ENDPOINT.queryClusterMetrics,
      ENDPOINT.listImportJobsV2,
      ENDPOINT.describeImportJob,
      ENDPOINT.listImportJobs,
      ENDPOINT.describeSparkJob,
      ENDPOINT.listSparkJobs,
      ENDPOINT.describeJob,
      ENDPOINT.describeCluster,
      ENDPOINT.listProjectsV2,
      ENDPOINT.listProjects,
      ENDPOINT.listRegions,
      ENDPOINT.listClusters,
      ENDPOINT.listGroupMembers,
      ENDPOINT.queryDailyUsage,
      ENDPOINT.listInvoices,
    ]);
    const orders = every.flatMap((d) => (d.planOrder === undefined ? [] : [d.planOrder]));
    expect(new Set(orders).size).toBe(orders.length);
    expect([...RUN_TIME_COUNTS.keys()]).toEqual(RUN_TIME_COUNTED);
  });

  it("builds each request's path from its template", () => {
    const spec = CONTROL_PLANE.describeSparkJob.build({ projectId: "proj-1", jobId: "a/b" });
    expect(spec).toMatchObject({
      method: "GET",
      path: "/v2/projects/proj-1/jobs/a%2Fb",
      target: { plane: "v2" },
    });
    expect(CONTROL_PLANE.listRegions.build({}).path).toBe("/v2/regions");
    expect(DATA_PLANE.listCollectionsV1.build("db").path).toBe("/v1/vector/collections");
  });
});

describe("path templates in src/", () => {
  it("appear only in the endpoint declarations and the simulator", () => {
    const found = productionFiles(SRC)
      .map((f) => relative(SRC, f).split("\\").join("/"))
      .filter((f) => !ALLOWED.some((a) => f.startsWith(a)))
      .flatMap((f) => pathLiterals(readFileSync(join(SRC, f), "utf8")).map((p) => `${f}: ${p}`));
    expect(found).toEqual([]);
  });

  it("are not spelled in a family's reference entry: a source names its endpoint through the table", () => {
    const spelled = productionFiles(SRC)
      .filter((f) => /(?:^|[/\\])(?:families|\w+Families)\.ts$/.test(f))
      .flatMap((f) => {
        const code = readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
        return [...code.matchAll(/["'`][^"'`]*?\b(?:GET|POST) \/v\d\/[^"'`]*["'`]/g)].map(
          (m) => `${relative(SRC, f)}: ${m[0]}`,
        );
      });
    expect(spelled).toEqual([]);
  });

  it.each([
    ['const E = "GET /v2/regions";', ["GET /v2/regions"]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text scanned holds a template literal
    ["const p = `/v2/clusters/${id}`;", ["/v2/clusters/${id}"]],
    ["path: '/v1/projects',", ["/v1/projects"]],
    ['source: "GET /v2/clusters/{id} cuSize",', []],
    ['// "GET /v2/regions" in a comment', []],
    ['/** e.g. "POST /v2/usage/query" */', []],
    ['const url = "https://example.com/v2/x";', []],
  ])("the scan reads %s as %j", (text, want) => {
    expect(pathLiterals(text)).toEqual(want);
  });
});
