// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in plain strings is the config syntax under test.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildConfig, loadConfig, MAX_CONFIG_BYTES } from "./load.js";
import { DEFAULT_METRIC_QUERIES } from "./queries.js";
import { failure } from "./testkit.js";
import type { Config } from "./types.js";

const CONFIG = "/cfg/config.yaml";
const SECRET = "sk-very-secret-0123456789";

/** An in-memory file system: unknown paths fail like the real one. */
function memoryFs(files: Record<string, string>) {
  return async (path: string): Promise<string> => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: open '${path}'`), { code: "ENOENT" });
    return text;
  };
}

async function load(
  yaml: string,
  env: Record<string, string> = { VDBCLOUD_API_KEY: "env-key" },
  files: Record<string, string> = {},
): Promise<Config> {
  return loadConfig(CONFIG, { env, readFile: memoryFs({ [CONFIG]: yaml, ...files }) });
}

const cluster = (extra = "") => `clusters:\n  - id: in01-a\n    region: aws-us-west-2\n${extra}`;

/** Loads one cluster holding `clusterYaml` and the metric queries `queries` (a block list's items). */
function loadQueries(clusterYaml: string, queries: string[]): Promise<Config> {
  return load(
    [cluster(clusterYaml), "metrics:", "  queries:", ...queries.map((q) => `    - ${q}`)].join("\n"),
  );
}

/** Fails unless loading `yaml` (with `env`) fails with a message that holds `expected` and no stack. */
async function expectBroken(yaml: string, expected: string, env?: Record<string, string>): Promise<void> {
  const err = await failure(load(yaml, env));
  expect(err.message).toContain(expected);
  expect(err.message).not.toContain("    at "); // no stack in the message
}

describe("broken configs", () => {
  it.each(
    Object.entries<{ yaml: string; expected: string; env?: Record<string, string> }>({
      "YAML syntax error": {
        yaml: "api: [1, 2\nclusters: 3\n",
        expected: "/cfg/config.yaml:2:1: ",
      },
      "YAML duplicate key": {
        yaml: "metrics: {}\nmetrics: {}\n",
        expected: "/cfg/config.yaml:2:1: Map keys must be unique",
      },
      "multiple YAML documents": {
        yaml: "api: {}\n---\napi: {}\n",
        expected: "/cfg/config.yaml:2:1: the file must hold a single YAML document",
      },
      "undefined YAML alias": {
        yaml: "api: *nowhere\n",
        expected: "/cfg/config.yaml",
      },
      "document is not a mapping": {
        yaml: "- a\n- b\n",
        expected: "(root): must be a mapping",
      },
      "unknown top-level key": {
        yaml: "metric:\n  enabled: true\n",
        expected: 'metric: unknown key (did you mean "metrics"?)',
      },
      "unknown cluster key": {
        yaml: cluster("    regoin: x\n"),
        expected: 'clusters[0].regoin: unknown key (did you mean "region"?)',
      },
      "section of the wrong type": {
        yaml: "metrics: 5\n",
        expected: "metrics: must be a mapping",
      },
      "clusters not a list": {
        yaml: "clusters: {id: a}\n",
        expected: "clusters: must be a list",
      },
      "interval below granularity": {
        yaml: "metrics:\n  granularity: PT1M\n  interval: PT30S\n",
        expected: "metrics.interval: must be at least the granularity",
      },
      "lookback below granularity": {
        yaml: "metrics:\n  granularity: PT5M\n  lookback: PT1M\n",
        expected: "metrics.lookback: must be at least the granularity",
      },
      "P99 on CU_COMPUTATION": {
        yaml: "metrics:\n  queries: [{name: CU_COMPUTATION, stat: P99}]\n",
        expected: "metrics.queries[0].stat: P99 is only available for latency metrics",
      },
      "stat on a _P99 name": {
        yaml: "metrics:\n  queries: [{name: REQ_SEARCH_LATENCY_P99, stat: P99}]\n",
        expected: "metrics.queries[0].stat: REQ_SEARCH_LATENCY_P99 already names its statistic",
      },
      "a scope query with no second form": {
        yaml: "clusters:\n  - id: c1\n    scopes: [{collection_name: docs, queries: [{name: REQ_SUCCESS_RATE}]}]\n",
        expected:
          "clusters[0].scopes[0].queries[0].name: REQ_SUCCESS_RATE has no per-collection (current) form",
      },
      "a duplicate scope query": {
        yaml: "clusters:\n  - id: c1\n    scopes: [{collection_name: docs, queries: [{name: ENTITIES_COUNT}, {name: ENTITIES_COUNT}]}]\n",
        expected: "clusters[0].scopes[0].queries[1]: duplicate of queries[0]",
      },
      "an empty scope query list": {
        yaml: "clusters:\n  - id: c1\n    scopes: [{collection_name: docs, queries: []}]\n",
        expected: "clusters[0].scopes[0].queries: must list at least one query",
      },
      "a delay as long as the lookback": {
        yaml: "metrics:\n  lookback: PT5M\n  delay: PT5M\n",
        expected: "metrics.delay: must be shorter than metrics.lookback",
      },
      "unknown stat": {
        yaml: "metrics:\n  queries: [{name: CU_COMPUTATION, stat: MAX}]\n",
        expected: "metrics.queries[0].stat: must be AVG or P99",
      },
      "lowercase metric name": {
        yaml: "metrics:\n  queries: [{name: cu_computation}]\n",
        expected: "metrics.queries[0].name: must be an upper-case metric name",
      },
      "duplicate query": {
        yaml: "metrics:\n  queries: [{name: CU_COMPUTATION}, {name: CU_CAPACITY}, {name: CU_COMPUTATION}]\n",
        expected: "metrics.queries[2]: duplicate of metrics.queries[0]",
      },
      "duplicate cluster id": {
        yaml: "clusters:\n  - id: in01-a\n  - id: in01-b\n  - id: in01-a\n",
        expected: 'clusters[2].id: duplicate cluster id "in01-a" (also at clusters[0].id)',
      },
      "empty cluster id": {
        yaml: "clusters:\n  - id: ''\n",
        expected: "clusters[0].id: must not be empty",
      },
      "missing cluster id": {
        yaml: "clusters:\n  - region: aws-us-west-2\n",
        expected: "clusters[0].id: is required",
      },
      "cluster id with bad characters": {
        yaml: "clusters:\n  - id: in01/a\n",
        expected: "clusters[0].id: must be a cluster ID",
      },
      "bad region": {
        yaml: "clusters:\n  - id: in01-a\n    region: AWS_US\n",
        expected: "clusters[0].region: must be a region ID",
      },
      "scope with neither db nor collection": {
        yaml: cluster("    scopes: [{}]\n"),
        expected: "clusters[0].scopes[0]: needs db_name, collection_name or both",
      },
      "duplicate scope": {
        yaml: cluster("    scopes: [{db_name: d}, {db_name: d}]\n"),
        expected: "clusters[0].scopes[1]: duplicate of scopes[0]",
      },
      "both api_key and api_key_file": {
        yaml: "api:\n  api_key: k\n  api_key_file: k.txt\n",
        expected: "api.api_key_file: set either api_key or api_key_file, not both",
      },
      "both keys on a cluster": {
        yaml: cluster("    api_key: k\n    api_key_file: k.txt\n"),
        expected: "clusters[0].api_key_file: set either api_key or api_key_file, not both",
      },
      "missing key (no env)": {
        yaml: "api: {}\n",
        expected: "api.api_key: no API key: set api.api_key",
        env: {},
      },
      "unreadable cluster key file": {
        yaml: cluster("    api_key_file: /keys/team\n"),
        expected: "clusters[0].api_key_file: cannot read /keys/team (ENOENT",
      },
      "staleness_intervals 1": {
        yaml: "staleness_intervals: 1\n",
        expected: "staleness_intervals: must be an integer from 2 to 100",
      },
      "duplicate spark job": {
        yaml: "spark_jobs:\n  jobs:\n    - {project_id: p, job_id: j}\n    - {project_id: p, job_id: j}\n",
        expected: "spark_jobs.jobs[1]: duplicate of spark_jobs.jobs[0]",
      },
      "spark job without job_id": {
        yaml: "spark_jobs:\n  jobs: [{project_id: p}]\n",
        expected: "spark_jobs.jobs[0].job_id: is required",
      },
      "bad discovery region": {
        yaml: "inventory:\n  discovery:\n    region_ids: [US-EAST]\n",
        expected: "inventory.discovery.region_ids[0]: must be a region ID",
      },
    }),
  )("%s", (_name, { yaml, expected, env }) => expectBroken(yaml, expected, env));

  /** One key set to a bad value: `path` is "section.key", and the message names it. */
  it.each<[name: string, path: string, value: string, message: string]>([
    ["unknown nested key", "metrics.granulartiy", "PT1M", 'unknown key (did you mean "granularity"?)'],
    ["unknown key, far from any", "server.zzzz", "1", "unknown key (allowed: listen, web_config_file)"],
    ["number of the wrong type", "api.rate_limit", "fast", "must be an integer from 1 to 1000"],
    ["fractional integer", "api.max_in_flight", "1.5", "must be an integer from 1 to 1000"],
    ["boolean of the wrong type", "metrics.enabled", "yes", "must be true or false"],
    ["granularity PT10S", "metrics.granularity", "PT10S", "must be at least PT30S (got PT10S)"],
    ["granularity not whole seconds", "metrics.granularity", "PT30.5S", "must be a whole number of seconds"],
    ["lookback above P1D", "metrics.lookback", "P2D", "must be at most P1D"],
    ["an interval beyond a day (timers would overflow)", "inventory.interval", "P30D", "must be at most P1D"],
    ["a metrics interval beyond a day", "metrics.interval", "P2D", "must be at most P1D"],
    ["empty query list", "metrics.queries", "[]", "must list at least one query"],
    ["bad URL", "api.base_url", "not a url", "must be an http(s) URL"],
    ["non-http URL", "api.base_url", "ftp://api.example.com", "must be an http(s) URL"],
    ["rate_limit 0", "api.rate_limit", "0", "must be an integer from 1 to 1000"],
    ["rate_limit 1001", "api.rate_limit", "1001", "must be an integer from 1 to 1000"],
    ["max_retries 11", "api.max_retries", "11", "must be an integer from 0 to 10"],
    ["request_timeout zero", "api.request_timeout", "PT0S", "must be at least PT0.1S"],
    [
      "controller_url without {region}",
      "api.controller_url",
      "https://controller.example.com",
      "must contain {region}",
    ],
    [
      "rate_limit_margin over half a second",
      "api.rate_limit_margin",
      "PT0.6S",
      "must be at most PT0.5S (got PT0.6S)",
    ],
    [
      "rate_limit_margin as a number",
      "api.rate_limit_margin",
      "40",
      "must be an ISO 8601 duration such as PT30S (a string)",
    ],
    [
      "unreadable key file",
      "api.api_key_file",
      "missing.key",
      "cannot read /cfg/missing.key (ENOENT: no such file)",
    ],
    ["unset ${VAR}", "api.base_url", "https://${API_HOST}/", "environment variable API_HOST is not set"],
    ["unterminated ${", "api.base_url", "https://${API_HOST/", 'unterminated "${"'],
    ["page_size 3", "import_jobs.page_size", "3", "must be an integer from 5 to 100"],
    ["page_size 101", "import_jobs.page_size", "101", "must be an integer from 5 to 100"],
    ["collections.indexes not a boolean", "collections.indexes", "sometimes", "must be true or false"],
    ["bad listen address", "server.listen", "9474", "must be HOST:PORT"],
    ["listen without port", "server.listen", "localhost", "expected HOST:PORT"],
    ["listen port out of range", "server.listen", "0.0.0.0:70000", "port must be from 0 to 65535"],
    ["bad web_config_file", "server.web_config_file", "5", "must be a string"],
    ["bad duration text", "import_jobs.interval", "1m", "is not an ISO 8601 duration"],
    ["duration as a number", "spark_jobs.interval", "30", "must be an ISO 8601 duration such as PT30S"],
    ["P1M (months rejected)", "metrics.lookback", "P1M", '"P1M" uses years or months'],
    ["negative duration", "inventory.interval", "-PT1M", '"-PT1M" is negative'],
  ])("%s", (_name, path, value, message) => {
    const [section, key] = path.split(".");
    return expectBroken(`${section}:\n  ${key}: ${value}\n`, `${path}: ${message}`);
  });

  it("uses config_syntax for YAML errors and config_invalid for values", async () => {
    expect((await failure(load("a: [\n"))).code).toBe("config_syntax");
    expect((await failure(load("staleness_intervals: 1\n"))).code).toBe("config_invalid");
  });

  it("uses config_unreadable for a missing config file, naming it and the OS code", async () => {
    const err = await failure(loadConfig("/nowhere/config.yaml", { readFile: memoryFs({}) }));
    expect(err.code).toBe("config_unreadable");
    expect(err.message).toBe("/nowhere/config.yaml: cannot read the config file (ENOENT: no such file)");
  });

  it("reports every problem at once, across sections and within one list", async () => {
    const yaml = [
      "api:",
      "  rate_limit: 0",
      "clusters:",
      "  - id: in01-a",
      "    region: BAD",
      "  - id: in01-a",
      "metrics:",
      "  granularity: PT10S",
      "  queries: [{name: lower}]",
      "import_jobs: {page_size: 3}",
      "extra: 1",
    ].join("\n");
    const err = await failure(load(yaml));
    expect(err.problems.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        "api.rate_limit",
        "clusters[0].region",
        "clusters[1].id",
        "metrics.granularity",
        "metrics.queries[0].name",
        "import_jobs.page_size",
        "extra",
      ]),
    );
    expect(err.message.split("\n")).toHaveLength(err.problems.length);
  });

  it("does not add a schema complaint on top of an unset variable", async () => {
    const err = await failure(load("api:\n  rate_limit: ${RATE}\n"));
    expect(err.problems).toEqual([
      { path: "api.rate_limit", message: expect.stringContaining("RATE is not set") },
    ]);
  });
});

describe("secrets never appear in errors", () => {
  it.each<[name: string, yaml: string, files: Record<string, string>]>([
    ["inline key with other problems", `api:\n  api_key: ${SECRET}\n  rate_limit: 0\n`, {}],
    ["inline key and a key file", `api:\n  api_key: ${SECRET}\n  api_key_file: k\n`, { "/cfg/k": SECRET }],
    ["key where a number belongs", `api:\n  rate_limit: ${SECRET}\n`, {}],
    ["key in a metric name", `metrics:\n  queries: [{name: ${SECRET}}]\n`, {}],
    ["key as a cluster id", `clusters:\n  - id: ${SECRET}_x\n`, {}],
    [
      "key file with another problem",
      "api:\n  api_key_file: k\nstaleness_intervals: 0\n",
      { "/cfg/k": SECRET },
    ],
    [
      "cluster key file with another cluster bad",
      `${cluster("    api_key_file: /k\n")}  - id: ''\n`,
      { "/k": SECRET },
    ],
    ["key as a listen address", `server:\n  listen: ${SECRET}\n`, {}],
    ["key as a duration", `metrics:\n  interval: ${SECRET}\n`, {}],
  ])("%s", async (_name, yaml, files) => {
    const err = await failure(load(yaml, { VDBCLOUD_API_KEY: "env-key" }, files));
    expect(err.problems.length).toBeGreaterThan(0);
    expect(err.message).not.toContain(SECRET);
    expect(JSON.stringify(err.problems)).not.toContain(SECRET);
    expect(String(err.cause ?? "")).not.toContain(SECRET);
  });

  it.each<[name: string, yaml: string]>([
    ["a key inside ${} in the key field", 'api:\n  api_key: "${abc-secret-123}"\n'],
    ["a key inside ${} elsewhere", 'api:\n  base_url: "https://x/${abc-secret-123}"\n'],
    ["a key as a valid variable name", "api:\n  api_key: ${abc_secret_123}\n"],
    ["a key as an alias", "api:\n  api_key: *abc-secret-123\n"],
    ["a key as an unknown tag's neighbour", 'api:\n  api_key: "\\qabc-secret-123"\n'],
    ["a key as a block scalar header", "api:\n  api_key: |x abc-secret-123\n    t\n"],
  ])("never quotes a reference or the YAML source: %s", async (_name, yaml) => {
    const err = await failure(load(yaml, {}));
    expect(err.problems.length).toBeGreaterThan(0);
    expect(err.message).not.toMatch(/abc.secret.123/);
    expect(JSON.stringify(err.problems)).not.toMatch(/abc.secret.123/);
    expect(String(err.cause ?? "")).not.toMatch(/abc.secret.123/);
  });

  it("keeps an environment key out of interpolation problems", async () => {
    const err = await failure(
      load("api:\n  api_key: ${VDBCLOUD_API_KEY}x${NOPE}\n", { VDBCLOUD_API_KEY: SECRET }),
    );
    expect(err.message).toContain("api.api_key: the environment variable referred to at character");
    expect(err.message).not.toContain(SECRET);
  });
});

describe("good configs", () => {
  it("loads the commented example (config/example.yaml)", async () => {
    const path = fileURLToPath(new URL("../../config/example.yaml", import.meta.url));
    const config = await loadConfig(path, { env: { VDBCLOUD_API_KEY: "example-key" } });
    expect(config.api.apiKey).toBe("example-key");
    expect(config.clusters.map((c) => c.id)).toEqual(["in01-0123456789abcdef", "in01-fedcba9876543210"]);
    expect(config.clusters[0]?.scopes).toEqual([
      { dbName: "default", collectionName: "docs" },
      {
        dbName: "analytics",
        queries: [
          { name: "ENTITIES_COUNT" },
          { name: "REQ_SEARCH_LATENCY_AVG" },
          { name: "REQ_SEARCH_LATENCY_P99" },
        ],
      },
    ]);
    expect(config.metrics.queries).toContainEqual({ name: "REQ_QUERY_LATENCY_P99" });
    expect(config.metrics.queries).toContainEqual({ name: "REQ_SUCCESS_RATE", stat: "AVG" });
    expect(config.metrics.form).toBe("auto");
    expect(config.sparkJobs.jobs).toHaveLength(1);
    expect(config.server).toEqual({ host: "0.0.0.0", port: 9474 });
  });

  it("applies every default to an empty file", async () => {
    const expected: Config = {
      api: {
        baseUrl: "https://api.cloud.zilliz.com",
        controllerUrl: "https://controller.api.{region}.zillizcloud.com",
        apiKey: "env-key",
        requestTimeoutMs: 10_000,
        rateLimit: 20,
        rateLimitMarginMs: 100,
        maxRetries: 3,
        maxResponseBytes: 16 * 1024 * 1024,
        maxInFlight: 16,
        sendRequestTimeoutHeader: true,
        dataPlaneHosts: [],
      },
      clusters: [],
      metrics: {
        enabled: true,
        granularityMs: 60_000,
        intervalMs: 60_000,
        lookbackMs: 300_000,
        delayMs: 0,
        queries: DEFAULT_METRIC_QUERIES,
        form: "auto",
        quarantineMs: 3_600_000,
        allowUnknownNames: false,
      },
      importJobs: {
        enabled: true,
        intervalMs: 60_000,
        pageSize: 100,
        retentionMs: 3_600_000,
        maxJobsPerCluster: 1000,
        api: "auto",
        progressMax: 20,
      },
      sparkJobs: {
        intervalMs: 30_000,
        retentionMs: 3_600_000,
        jobs: [],
        discovery: { enabled: true, intervalMs: 60_000, maxPerCluster: 500 },
      },
      jobs: { ids: [], intervalMs: 30_000, retentionMs: 3_600_000 },
      inventory: {
        enabled: true,
        intervalMs: 60_000,
        discovery: { enabled: false, projectIds: [], regionIds: [], maxClusters: 5000 },
        onDemand: true,
      },
      collections: {
        enabled: false,
        intervalMs: 300_000,
        include: [],
        exclude: [],
        maxPerCluster: 100,
        scopes: true,
        loadState: true,
        rowCount: false,
        indexes: true,
        rateLimit: 10,
      },
      groups: { ids: [], intervalMs: 3_600_000 },
      backups: { enabled: true, intervalMs: 900_000, policyIntervalMs: 3_600_000 },
      globalClusters: { enabled: true, intervalMs: 60_000 },
      alertRules: { enabled: true, intervalMs: 900_000 },
      privateEndpoints: { enabled: true, intervalMs: 900_000 },
      onDemandCompute: { enabled: true, intervalMs: 900_000 },
      storageIntegrations: { enabled: true, intervalMs: 900_000 },
      canary: { intervalMs: 60_000, timeoutMs: 5_000, targets: [] },
      pipelines: { enabled: true, intervalMs: 300_000 },
      apiKeys: { enabled: true, intervalMs: 3_600_000, maxAgeMs: 31_536_000_000, apiKey: "env-key" },
      billing: {
        enabled: false,
        intervalMs: 3_600_000,
        amountUnit: "cents",
        invoices: { enabled: true, keep: 3 },
        apiKey: "env-key",
      },
      slo: {
        periodMs: 30 * 86_400_000,
        canary: { availability: 0.999, latency: { thresholdMs: 500, objective: 0.99 } },
        service: { availability: 0.999 },
        windows: {
          page: [
            { burnRate: 14.4, longMs: 3_600_000, shortMs: 300_000 },
            { burnRate: 6, longMs: 21_600_000, shortMs: 1_800_000 },
          ],
          ticket: [
            { burnRate: 3, longMs: 86_400_000, shortMs: 7_200_000 },
            { burnRate: 1, longMs: 259_200_000, shortMs: 21_600_000 },
          ],
        },
      },
      nativeExport: { enabled: false, clusters: "auto", skipMetricQueries: true },
      families: { allow: [], deny: [] },
      server: { host: "0.0.0.0", port: 9474 },
      stalenessIntervals: 5,
    };
    expect(await load("")).toEqual(expected);
    expect(await load("# only a comment\n")).toEqual(expected);
    // Empty sections (`metrics:` with everything commented out) mean defaults too.
    expect(await load("api:\nclusters:\nmetrics:\nserver:\n")).toEqual(expected);
  });

  it("defaults the metrics interval to the granularity", async () => {
    const config = await load("metrics:\n  granularity: PT2M\n  lookback: PT10M\n");
    expect(config.metrics).toMatchObject({
      granularityMs: 120_000,
      intervalMs: 120_000,
      lookbackMs: 600_000,
    });
  });

  it("substitutes environment variables, with defaults and $$ escapes", async () => {
    const yaml = [
      "api:",
      "  base_url: https://${API_HOST:-api.example.com}/",
      "  api_key: ${MY_KEY}",
      "  rate_limit: ${RATE}",
      "  rate_limit_margin: ${MARGIN:-PT0S}",
      "  send_request_timeout_header: ${SEND_RT:-false}",
      "clusters:",
      "  - id: ${CLUSTER}",
      "    project_id: p$$1",
    ].join("\n");
    const config = await load(yaml, { MY_KEY: "from-env", RATE: "50", CLUSTER: "in01-x" });
    expect(config.api.baseUrl).toBe("https://api.example.com");
    expect(config.api.apiKey).toBe("from-env");
    expect(config.api.rateLimit).toBe(50);
    expect(config.api.rateLimitMarginMs).toBe(0);
    expect(config.api.sendRequestTimeoutHeader).toBe(false);
    expect(config.clusters[0]).toEqual({ id: "in01-x", projectId: "p$1", scopes: [] });
  });

  it("reads and trims the key file, relative to the config file", async () => {
    const config = await load(
      "api:\n  api_key_file: secrets/key.txt\n",
      {},
      { "/cfg/secrets/key.txt": "  file-key\n\n" },
    );
    expect(config.api.apiKey).toBe("file-key");
  });

  it("prefers api_key over VDBCLOUD_API_KEY", async () => {
    const config = await load("api:\n  api_key: inline\n", { VDBCLOUD_API_KEY: "env" });
    expect(config.api.apiKey).toBe("inline");
  });

  it("gives clusters their own key when configured, and none otherwise", async () => {
    const yaml = [
      "clusters:",
      "  - id: in01-a",
      "    api_key: team-a",
      "  - id: in01-b",
      "    api_key_file: ../b.key",
      "  - id: in01-c",
    ].join("\n");
    const config = await load(yaml, { VDBCLOUD_API_KEY: "default" }, { "/b.key": "team-b\n" });
    expect(config.clusters.map((c) => c.apiKey)).toEqual(["team-a", "team-b", undefined]);
    expect(config.api.apiKey).toBe("default");
  });

  it("resolves relative paths against the config file's directory, absolute ones as they are", async () => {
    const config = await load(
      "spark_jobs:\n  jobs_file: jobs/spark.yaml\nserver:\n  web_config_file: /etc/web.yaml\n",
    );
    expect(config.sparkJobs.jobsFile).toBe("/cfg/jobs/spark.yaml");
    expect(config.server.webConfigFile).toBe("/etc/web.yaml");
  });

  it("accepts an IPv6 listen address and a null web config", async () => {
    const config = await load("server:\n  listen: '[::1]:0'\n  web_config_file: null\n");
    expect(config.server).toEqual({ host: "::1", port: 0 });
  });

  it("keeps first- and second-form queries as written, with scopes", async () => {
    const config = await loadQueries("    scopes: [{collection_name: docs}]\n", [
      "{name: REQ_SEARCH_LATENCY, stat: P99}",
      "{name: REQ_SEARCH_LATENCY, stat: AVG}",
      "{name: READ_VCU, stat: AVG}",
      "{name: READ_VCU}",
    ]);
    expect(config.clusters[0]?.scopes).toEqual([{ collectionName: "docs" }]);
    expect(config.metrics.queries).toEqual([
      { name: "REQ_SEARCH_LATENCY", stat: "P99" },
      { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
      { name: "READ_VCU", stat: "AVG" },
      { name: "READ_VCU" },
    ]);
  });
});

describe("metric defaults and plain names", () => {
  it.each<[label: string, yaml: string, lookbackMs: number, delayMs: number]>([
    ["defaults", "metrics: {}\n", 300_000, 0],
    [
      "PT10M granularity without lookback is valid: two buckets",
      "metrics:\n  granularity: PT10M\n",
      1_200_000,
      0,
    ],
    ["PT2M granularity: still five minutes", "metrics:\n  granularity: PT2M\n", 300_000, 0],
    ["an explicit lookback and delay", "metrics:\n  lookback: PT15M\n  delay: PT2M\n", 900_000, 120_000],
  ])("%s", async (_label, yaml, lookbackMs, delayMs) => {
    const config = await load(yaml);
    expect(config.metrics.lookbackMs).toBe(lookbackMs);
    expect(config.metrics.delayMs).toBe(delayMs);
  });

  it("expands plain names to what is asked: names only the 2024 form has with their statistics", async () => {
    const scopes =
      "    scopes:\n      - {collection_name: docs}\n      - {collection_name: faq, queries: [{name: REQ_QUERY_LATENCY}, {name: CU_CAPACITY}]}\n";
    const config = await loadQueries(scopes, [
      "{name: REQ_SUCCESS_RATE}",
      "{name: REQ_SEARCH_LATENCY}",
      "{name: REQ_SEARCH_LATENCY, stat: P99}",
      "{name: CU_COMPUTATION}",
      "{name: ENTITIES_COUNT}",
    ]);
    expect(config.metrics.queries).toEqual([
      { name: "REQ_SUCCESS_RATE", stat: "AVG" },
      { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
      { name: "REQ_SEARCH_LATENCY", stat: "P99" },
      // Contract change (issue 44): current-form names stay as written; the key's form decides.
      { name: "CU_COMPUTATION" },
      { name: "ENTITIES_COUNT" },
    ]);
    expect(config.clusters[0]?.scopes).toEqual([
      { collectionName: "docs" },
      {
        collectionName: "faq",
        queries: [
          { name: "REQ_QUERY_LATENCY_AVG" },
          { name: "REQ_QUERY_LATENCY_P99" },
          { name: "CU_CAPACITY" },
        ],
      },
    ]);
  });
});

describe("buildConfig", () => {
  it("validates an object built in code, with its own base directory", async () => {
    const config = await buildConfig(
      {
        api: {
          base_url: "http://127.0.0.1:8080",
          controller_url: "http://127.0.0.1:8080/{region}",
          api_key: "demo",
        },
        clusters: [{ id: "in01-demo", region: "local" }],
        metrics: { granularity: "PT30S" },
        spark_jobs: { jobs_file: "jobs.yaml" },
      },
      { baseDir: "/demo", env: {} },
    );
    expect(config.api.baseUrl).toBe("http://127.0.0.1:8080");
    expect(config.api.controllerUrl).toBe("http://127.0.0.1:8080/{region}");
    expect(config.metrics.intervalMs).toBe(30_000);
    expect(config.sparkJobs.jobsFile).toBe("/demo/jobs.yaml");
  });

  it("throws config_invalid with paths for a bad object", async () => {
    const err = await failure(buildConfig({ clusters: [{ id: 5 }] }, { env: { VDBCLOUD_API_KEY: "k" } }));
    expect(err.code).toBe("config_invalid");
    expect(err.problems).toEqual([{ path: "clusters[0].id", message: "must be a string" }]);
  });
});

describe("keys that cannot work", () => {
  it.each<
    [name: string, yaml: string, env: Record<string, string>, files: Record<string, string>, want: string]
  >([
    [
      "a newline inside",
      'api:\n  api_key: "ab\\ncd"\n',
      {},
      {},
      "api.api_key: holds a control character at character 3",
    ],
    ["a space inside", 'api:\n  api_key: "ab cd"\n', {}, {}, "api.api_key: holds whitespace at character 3"],
    [
      "a non-ASCII character",
      'api:\n  api_key: "abc\u00e9"\n',
      {},
      {},
      "api.api_key: holds a non-ASCII character at character 4",
    ],
    [
      "a tab in the file",
      "api:\n  api_key_file: k\n",
      {},
      { "/cfg/k": "ab\tcd\n" },
      "api.api_key_file: /cfg/k holds a control character at character 3",
    ],
    [
      "a bad environment key",
      "",
      { VDBCLOUD_API_KEY: "ab\u0007cd" },
      {},
      "VDBCLOUD_API_KEY: holds a control character at character 3",
    ],
    [
      "a bad billing key",
      'api:\n  api_key: ok\nbilling:\n  api_key: "b\u2019k"\n',
      {},
      {},
      "billing.api_key: holds a non-ASCII character at character 2",
    ],
    [
      "a bad cluster key",
      `${cluster('    api_key: "x y"\n')}`,
      {},
      {},
      "clusters[0].api_key: holds whitespace at character 2",
    ],
  ])("refuses %s, naming the field and never the key", async (_name, yaml, env, files, want) => {
    const err = await failure(load(yaml, env, files));
    expect(err.code).toBe("config_invalid");
    expect(err.message).toContain(want);
  });

  it("accepts a data-plane token with a space (username:password)", async () => {
    const config = await load(
      `${cluster("    data_plane:\n      token_file: /t\n")}`,
      { VDBCLOUD_API_KEY: "k" },
      { "/t": "user:pass word\n" },
    );
    expect(config.clusters[0]?.dataPlaneToken).toBe("user:pass word");
  });
});

describe("config files that cannot work", () => {
  const dir = mkdtempSync(join(tmpdir(), "vdbcloud-load-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a directory", async () => {
    const err = await failure(loadConfig(dir));
    expect(err.code).toBe("config_unreadable");
    expect(err.message).toBe(`${dir}: is a directory, not a config file`);
  });

  it("refuses a file over 10 MB before reading it", async () => {
    const path = join(dir, "big.yaml");
    writeFileSync(path, "");
    truncateSync(path, MAX_CONFIG_BYTES + 1);
    const err = await failure(loadConfig(path));
    expect(err.message).toBe(
      `${path}: is ${MAX_CONFIG_BYTES + 1} bytes, over the 10 MB a config file may be`,
    );
  });

  it.each([
    ["NUL bytes", Buffer.from("api:\n  api_key: k\u0000secret-bytes\n")],
    [
      "invalid UTF-8",
      Buffer.concat([
        Buffer.from("api:\n  api_key: secret-bytes"),
        Buffer.from([0xff, 0xfe]),
        Buffer.from("\n"),
      ]),
    ],
  ])("refuses a binary file (%s) in one line that echoes nothing of it", async (_name, bytes) => {
    const path = join(dir, "binary.yaml");
    writeFileSync(path, bytes);
    const err = await failure(loadConfig(path));
    expect(err.problems).toEqual([
      {
        path,
        message: "is not a text file (it holds NUL bytes or is not valid UTF-8); a config file is YAML text",
      },
    ]);
    expect(err.message).not.toContain("secret-bytes");
  });

  it("refuses the node binary itself with one short line", async () => {
    const err = await failure(loadConfig(process.execPath));
    expect(err.message.split("\n")).toHaveLength(1);
    expect(err.message.length).toBeLessThan(300);
  });
});
