import { describe, expect, it } from "vitest";
import { DEFAULT_METRIC_QUERIES } from "./queries.js";
import { configSchema } from "./schema.js";
import { registeredSections } from "./section.js";

/** The validated file as a draft, relative paths resolved against `baseDir`. */
const draftOf = (raw: unknown, baseDir: string) => configSchema(baseDir, registeredSections()).parse(raw);

describe("configSchema output", () => {
  it("renames to camelCase and locates secrets without reading them", () => {
    const draft = draftOf(
      {
        api: { api_key_file: "keys/default" },
        clusters: [
          { id: "in01-a", project_id: "p", scopes: [{ db_name: "d" }], api_key: "team" },
          { id: "in01-b", region: "r" },
        ],
        server: { web_config_file: "web.yaml" },
      },
      "/base",
    );
    expect(draft.apiKey).toEqual({ at: "api", file: "/base/keys/default" });
    expect(draft.clusterKeys).toEqual([{ at: "clusters[0]", value: "team" }, { at: "clusters[1]" }]);
    expect(draft.config.clusters).toEqual([
      { id: "in01-a", projectId: "p", scopes: [{ dbName: "d" }] },
      { id: "in01-b", region: "r", scopes: [] },
    ]);
    expect(draft.config.server.webConfigFile).toBe("/base/web.yaml");
    expect("apiKey" in draft.config.api).toBe(false);
  });

  it.each([
    [{}, 60_000, DEFAULT_METRIC_QUERIES],
    [{ metrics: { granularity: "PT30S" } }, 30_000, DEFAULT_METRIC_QUERIES],
    [
      {
        metrics: {
          granularity: "PT30S",
          interval: "PT2M",
          queries: [{ name: "A" }],
          allow_unknown_names: true,
        },
      },
      120_000,
      [{ name: "A" }],
    ],
  ])("fills the metrics interval and queries from %j", (raw, intervalMs, queries) => {
    const { metrics } = draftOf(raw, "/").config;
    expect(metrics.intervalMs).toBe(intervalMs);
    expect(metrics.queries).toEqual(queries);
  });

  it("drops a null web config file", () => {
    expect(draftOf({ server: { web_config_file: null } }, "/").config.server).toEqual({
      host: "0.0.0.0",
      port: 9474,
    });
  });

  it.each<[raw: unknown, lookbackMs: number]>([
    [{}, 300_000],
    [{ metrics: { granularity: "PT10M" } }, 1_200_000],
    [{ metrics: { granularity: "PT10M", lookback: "PT30M" } }, 1_800_000],
  ])("fills the metrics lookback from %j", (raw, lookbackMs) => {
    expect(draftOf(raw, "/").config.metrics.lookbackMs).toBe(lookbackMs);
  });

  it.each<[name: string, metrics: unknown, scope: unknown, expected: unknown]>([
    [
      "a scope's own list is translated to the second form",
      undefined,
      {
        collection_name: "c",
        queries: [{ name: "REQ_SEARCH_LATENCY", stat: "P99" }, { name: "REQ_SEARCH_COUNT" }],
      },
      { collectionName: "c", queries: [{ name: "REQ_SEARCH_LATENCY_P99" }, { name: "REQ_SEARCH_COUNT" }] },
    ],
    [
      "a plain first-form latency name asks both statistics",
      { queries: [{ name: "CU_COMPUTATION" }] },
      { db_name: "d", queries: [{ name: "REQ_QUERY_LATENCY" }] },
      { dbName: "d", queries: [{ name: "REQ_QUERY_LATENCY_AVG" }, { name: "REQ_QUERY_LATENCY_P99" }] },
    ],
    ["no list stays absent (derived per target)", undefined, { db_name: "d" }, { dbName: "d" }],
  ])("scope queries: %s", (_name, metrics, scope, expected) => {
    const draft = draftOf({ metrics, clusters: [{ id: "in01-a", scopes: [scope] }] }, "/");
    expect(draft.config.clusters[0]?.scopes).toEqual([expected]);
  });

  it("expands the cluster-wide queries once each", () => {
    const draft = draftOf(
      {
        metrics: {
          queries: [
            { name: "REQ_FAIL_RATE" },
            { name: "REQ_SEARCH_LATENCY" },
            { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
          ],
        },
      },
      "/",
    );
    expect(draft.config.metrics.queries).toEqual([
      { name: "REQ_FAIL_RATE", stat: "AVG" },
      { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
      { name: "REQ_SEARCH_LATENCY", stat: "P99" },
    ]);
  });

  it("renames every section, resolves the jobs file and leaves absent options out", () => {
    const { config } = draftOf(
      {
        api: { request_timeout: "PT5S", rate_limit: 7 },
        import_jobs: { page_size: 50, max_jobs_per_cluster: 9, api: "v2", progress_max: 5 },
        spark_jobs: {
          jobs: [{ project_id: "p", job_id: "j" }],
          jobs_file: "jobs/spark.yaml",
          discovery: { interval: "PT2M", max_per_cluster: 20 },
        },
        jobs: { ids: ["job-1"], ids_file: "jobs/ids.yaml", retention: "PT10M" },
        inventory: { discovery: { enabled: true, project_ids: ["p"] }, on_demand: false },
        alert_rules: { interval: "PT1H" },
        server: { listen: "127.0.0.1:9000" },
        staleness_intervals: 3,
      },
      "/etc/vdb",
    );
    expect(config.api).toMatchObject({
      requestTimeoutMs: 5000,
      rateLimit: 7,
      sendRequestTimeoutHeader: true,
    });
    expect(config.importJobs).toEqual({
      enabled: true,
      intervalMs: 60_000,
      pageSize: 50,
      retentionMs: 3_600_000,
      maxJobsPerCluster: 9,
      api: "v2",
      progressMax: 5,
    });
    expect(config.sparkJobs).toEqual({
      intervalMs: 30_000,
      retentionMs: 3_600_000,
      jobs: [{ projectId: "p", jobId: "j" }],
      jobsFile: "/etc/vdb/jobs/spark.yaml",
      discovery: { enabled: true, intervalMs: 120_000, maxPerCluster: 20 },
    });
    expect(config.jobs).toEqual({
      ids: ["job-1"],
      idsFile: "/etc/vdb/jobs/ids.yaml",
      intervalMs: 30_000,
      retentionMs: 600_000,
    });
    expect(config.inventory).toEqual({
      enabled: true,
      intervalMs: 60_000,
      discovery: { enabled: true, projectIds: ["p"], regionIds: [], maxClusters: 5000 },
      onDemand: false,
    });
    expect(config.alertRules).toEqual({ enabled: true, intervalMs: 3_600_000 });
    expect(config.server).toEqual({ host: "127.0.0.1", port: 9000 });
    expect(config.stalenessIntervals).toBe(3);
    expect(Object.keys(draftOf({}, "/").config.sparkJobs)).toEqual([
      "intervalMs",
      "retentionMs",
      "jobs",
      "discovery",
    ]);
    expect(Object.keys(draftOf({}, "/").config.jobs)).toEqual(["ids", "intervalMs", "retentionMs"]);
  });

  it.each<[raw: unknown, path: PropertyKey[]]>([
    [{ import_jobs: { page_size: 1 } }, ["import_jobs", "page_size"]],
    [{ import_jobs: { api: "v3" } }, ["import_jobs", "api"]],
    [{ import_jobs: { progress_max: -1 } }, ["import_jobs", "progress_max"]],
    [{ jobs: { ids: ["a", "a"] } }, ["jobs", "ids", 1]],
    [{ jobs: { idz: [] } }, ["jobs"]],
    [{ spark_jobs: { discovery: { max_per_cluster: 0 } } }, ["spark_jobs", "discovery", "max_per_cluster"]],
    [
      {
        spark_jobs: {
          jobs: [
            { project_id: "p", job_id: "j" },
            { project_id: "p", job_id: "j" },
          ],
        },
      },
      ["spark_jobs", "jobs", 1],
    ],
    [{ clusters: [{ id: "a", scopes: [{ db_name: "d" }, { db_name: "d" }] }] }, ["clusters", 0, "scopes", 1]],
    [{ clusters: [{ id: "a" }, { id: "a" }] }, ["clusters", 1, "id"]],
    [{ alert_rules: { interval: "PT10S" } }, ["alert_rules", "interval"]],
    [{ alert_rules: { webhook: "https://x" } }, ["alert_rules"]],
    [{ inventory: { on_demand: "yes" } }, ["inventory", "on_demand"]],
  ])("reports problems at the file's own paths: %j", (raw, path) => {
    const result = configSchema("/", registeredSections()).safeParse(raw);
    expect(result.success ? [] : result.error.issues.map((i) => i.path)).toEqual([path]);
  });
});
