import { describe, expect, it } from "vitest";
import { sectionsOff } from "../../test/helpers/sectionsOff.js";
import { buildMetricQueries } from "../collectors/cluster-metrics/batches.js";
import { COLLECTORS } from "../collectors/registry.js";
import { buildConfig } from "../config/load.js";
import { queriesForTarget } from "../config/queries.js";
import { inShard } from "../config/shard.js";
import type { Config } from "../config/types.js";
import { computeSchedule, type ScheduleRow } from "./schedule.js";
import { formatSchedule } from "./scheduleFormat.js";
import { METRICS_FORM_NOTES } from "./scheduleNotes.js";

const DEFAULT_KEY = "default-key-value-123";
const TEAM_KEY = "team-key-value-456";

function config(raw: Record<string, unknown>): Promise<Config> {
  return buildConfig(raw, { env: { VDBCLOUD_API_KEY: DEFAULT_KEY }, baseDir: "/cfg" });
}

function manyClusters(n: number): { id: string; region: string }[] {
  return Array.from({ length: n }, (_, i) => ({ id: `in01-${i}`, region: "aws-us-west-2" }));
}

function row(
  rows: readonly ScheduleRow[],
  endpoint: string,
  credential = "default",
): ScheduleRow | undefined {
  return rows.find((r) => r.endpoint === endpoint && r.credential === credential);
}

/** Each row as [endpoint, credential, calls per cycle, at least, interval ms], in schedule order. */
function summarise(rows: readonly ScheduleRow[]): (string | number | boolean)[][] {
  return rows.map((r) => [r.endpoint, r.credential, r.callsPerCycle, r.atLeast, r.intervalMs]);
}

describe("metric requests per cycle, as the collector sends them", () => {
  // A plain name outside the reference stays in the second form (a documented one would not).
  const second = [{ name: "ENTITIES_INDEXED" }];
  const clusterLevel = [{ name: "CU_COMPUTATION" }];
  const first = [{ name: "REQ_SEARCH_LATENCY", stat: "P99" }];
  const firstOnly = [{ name: "REQ_SUCCESS_RATE" }];
  const scopes = [{ db_name: "a" }, { db_name: "b", collection_name: "c" }];
  it.each<[name: string, scopes: unknown[], queries: unknown[], expected: number]>([
    ["no scopes, second form", [], second, 1],
    ["no scopes, first form", [], first, 1],
    ["no scopes, both forms (they must not mix)", [], [...first, ...second], 2],
    ["two scopes, second form only", scopes, second, 3],
    ["two scopes, first form only (translated for the scopes)", scopes, first, 3],
    ["two scopes, both forms", scopes, [...first, ...second], 4],
    ["two scopes, a cluster-level metric only", scopes, clusterLevel, 1],
    ["two scopes, a first-form-only metric only", scopes, firstOnly, 1],
    [
      "two scopes, one with its own list",
      [{ db_name: "a" }, { db_name: "b", queries: second }],
      clusterLevel,
      2,
    ],
  ])("%s -> %d", async (_name, scopeList, queries, expected) => {
    const cfg = await config({ clusters: [{ id: "in01-a", scopes: scopeList }], metrics: { queries } });
    const schedule = computeSchedule(COLLECTORS, cfg);
    expect(row(schedule.rows, "POST /v2/clusters/{id}/metrics/query")?.callsPerCycle).toBe(expected);
    // One request per batch per target, the batches the task itself sends.
    const sent = [undefined, ...(cfg.clusters[0]?.scopes ?? [])].reduce(
      (n, scope) => n + buildMetricQueries(queriesForTarget(cfg.metrics.queries, scope)).length,
      0,
    );
    expect(sent).toBe(expected);
  });
});

describe("the data plane's budget", () => {
  // One cluster whose data plane the collections collector and the canary both call, each at its
  // own interval: each fits the budget alone, and the two together do not.
  const canary = {
    interval: "PT10S",
    targets: ["a", "b", "c", "d"].map((c) => ({ cluster_id: "in01-a", collection_name: c })),
  };
  const collections = { enabled: true, rate_limit: 1, interval: "PT10M" };
  const rowsOf = async (raw: Record<string, unknown>) =>
    computeSchedule(
      COLLECTORS,
      await config({
        ...sectionsOff(),
        clusters: [{ id: "in01-a" }],
        collections: { ...collections, enabled: false },
        ...raw,
      }),
    );

  it("is one per cluster endpoint, whichever collectors and intervals spend it", async () => {
    const alone = [await rowsOf({ collections }), await rowsOf({ canary })];
    for (const schedule of alone) {
      expect(schedule.dataPlaneRows).toHaveLength(1);
      expect(schedule.dataPlaneRows[0]?.fits).toBe(true);
    }
    const both = await rowsOf({ collections, canary });
    expect(both.dataPlaneRows.map((r) => [r.collectors, r.fits])).toEqual([
      [["collections"], false],
      [["canary"], false],
    ]);
    expect(both.fits).toBe(false);
  });
});

describe("schedule notes", () => {
  it("says which scopes have nothing to ask", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({
        clusters: [
          {
            id: "in01-a",
            scopes: [{ db_name: "a" }, { db_name: "b", queries: [{ name: "ENTITIES_COUNT" }] }],
          },
        ],
        metrics: { queries: [{ name: "CU_COMPUTATION" }] },
      }),
    );
    expect(schedule.notes.filter((n) => n.startsWith("scopes with no metric to ask"))).toEqual([
      "scopes with no metric to ask (metrics.queries holds only cluster-level or first-form-only metrics; give them queries): in01-a db=a",
    ]);
  });
});

describe("computeSchedule", () => {
  it("schedules one backup listing per credential, a policy per cluster, and the global clusters", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({
        clusters: [
          { id: "in01-a" },
          { id: "in01-b" },
          { id: "in03-free" },
          { id: "in01-c", api_key: TEAM_KEY },
        ],
        metrics: { enabled: false },
        import_jobs: { enabled: false },
        inventory: { enabled: false },
      }),
    );
    const summary = summarise(schedule.rows);
    expect(summary).toEqual(
      expect.arrayContaining([
        // One organisation-wide listing per credential (page 1 at least), not one per cluster.
        ["GET /v2/backups", "default", 1, true, 900_000],
        ["GET /v2/backups", "cluster key #1", 1, true, 900_000],
        // The free (in03-) cluster is never asked for a policy.
        ["GET /v2/clusters/{id}/backups/policy", "default", 2, false, 3_600_000],
        ["GET /v2/clusters/{id}/backups/policy", "cluster key #1", 1, false, 3_600_000],
        ["GET /v2/globalClusters", "default", 1, true, 60_000],
      ]),
    );
  });

  it("counts calls per endpoint and credential for a small config", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({
        clusters: [
          {
            id: "in01-a",
            region: "aws-us-west-2",
            scopes: [{ db_name: "d1" }, { db_name: "d2", collection_name: "c" }],
          },
          { id: "in01-b", api_key: TEAM_KEY },
        ],
        metrics: {
          granularity: "PT1M",
          queries: [{ name: "READ_VCU" }, { name: "REQ_SEARCH_LATENCY", stat: "P99" }],
        },
        spark_jobs: {
          jobs: [
            { project_id: "p", job_id: "j1" },
            { project_id: "p", job_id: "j2" },
          ],
        },
        jobs: { ids: ["job-1", "job-2", "job-3"] },
        inventory: { discovery: { enabled: true, project_ids: ["p1", "p2"] }, on_demand: false },
        // Every other collector that can be switched off is: their rows have tests of their own.
        ...sectionsOff("import_jobs", "inventory"),
      }),
    );
    const summary = summarise(schedule.rows);
    expect(summary).toEqual([
      // in01-a: cluster-wide first form + cluster-wide second form + 2 scopes; in01-b: 2.
      // At least: a refused query costs extra calls (halving, its other form, its retrial).
      ["POST /v2/clusters/{id}/metrics/query", "default", 4, true, 60_000],
      ["POST /v2/clusters/{id}/metrics/query", "cluster key #1", 2, true, 60_000],
      // List Import Jobs V2 needs no region: in01-b too. Progress at most progress_max each.
      ["POST /v2/vectordb/jobs/import/list", "default", 1, true, 60_000],
      ["POST /v2/vectordb/jobs/import/list", "cluster key #1", 1, true, 60_000],
      ["POST /v2/vectordb/jobs/import/describe", "default", 20, false, 60_000],
      ["POST /v2/vectordb/jobs/import/describe", "cluster key #1", 20, false, 60_000],
      ["GET /v2/projects/{projectId}/jobs/{jobId}", "default", 2, false, 30_000],
      // Spark job discovery, per cluster with its own credential: Describe only where needed.
      ["GET /v2/projects/{projectId}/jobs/{jobId}", "default", 1, true, 60_000],
      ["GET /v2/projects/{projectId}/jobs/{jobId}", "cluster key #1", 1, true, 60_000],
      ["GET /v2/jobs", "default", 1, true, 60_000],
      ["GET /v2/jobs", "cluster key #1", 1, true, 60_000],
      // One Describe Job per job ID.
      ["GET /v2/jobs/{jobId}", "default", 3, false, 30_000],
      ["GET /v2/clusters/{id}", "default", 1, false, 60_000],
      ["GET /v2/clusters/{id}", "cluster key #1", 1, false, 60_000],
      ["GET /v2/projects", "default", 1, false, 60_000],
      ["GET /v2/regions", "default", 1, false, 60_000],
      ["GET /v2/clusters", "default", 2, true, 60_000],
    ]);
    expect(row(schedule.rows, "POST /v2/clusters/{id}/metrics/query")?.requestsPerSecond).toBeCloseTo(
      0.0667,
      3,
    );
    expect(schedule.fits).toBe(true);
    expect(schedule.targets).toEqual([
      {
        clusterId: "in01-a",
        region: "aws-us-west-2",
        scopes: ["db=d1", "db=d2 collection=c"],
        credential: "default",
        queries: ["READ_VCU", "REQ_SEARCH_LATENCY stat=P99"],
        scopeQueries: [["REQ_SEARCH_LATENCY_P99"], ["REQ_SEARCH_LATENCY_P99"]],
      },
      {
        clusterId: "in01-b",
        scopes: [],
        credential: "cluster key #1",
        queries: ["READ_VCU", "REQ_SEARCH_LATENCY stat=P99"],
        scopeQueries: [],
      },
    ]);
    expect(schedule.notes).toContain(
      "import jobs: clusters without a region have no v1 fallback where List Import Jobs V2 is refused: in01-b",
    );

    const text = formatSchedule(schedule);
    expect(text).toContain("Targets: 2 configured clusters, 2 Spark jobs");
    expect(text).toContain(
      "  cluster in01-a region=aws-us-west-2 credential=default queries=Q1\n    scope db=d1 queries=Q2\n",
    );
    expect(text).toContain(
      "Metric queries sent per target:\n  Q1 (2): READ_VCU, REQ_SEARCH_LATENCY stat=P99\n  Q2 (1): REQ_SEARCH_LATENCY_P99\n",
    );
    expect(text).toContain(
      "  POST /v2/clusters/{id}/metrics/query [default]: at least 4 calls every PT1M = >= 0.067 req/s: fits",
    );
    expect(text).toContain(
      "  GET /v2/clusters [default]: at least 2 calls every PT1M = >= 0.033 req/s: fits",
    );
    expect(text).toContain("  spark job p/j1");
    expect(text).toMatch(/Result: fits the rate budget$/);
    expect(text).not.toContain(DEFAULT_KEY);
    expect(text).not.toContain(TEAM_KEY);
    expect(JSON.stringify(schedule)).not.toContain(TEAM_KEY);
  });

  // The usable rate at the default 100 ms margin is 20 / 1.1 = 18.18 req/s: 545 per PT30S.
  it.each([
    { targets: 540, margin: undefined, fits: true },
    { targets: 545, margin: undefined, fits: true },
    { targets: 546, margin: undefined, fits: false, minimum: 31_000 },
    { targets: 570, margin: undefined, fits: false, minimum: 32_000 },
    { targets: 600, margin: undefined, fits: false, minimum: 33_000 },
    { targets: 660, margin: undefined, fits: false, minimum: 37_000 },
    { targets: 576, margin: "PT0.04S", fits: true },
    { targets: 577, margin: "PT0.04S", fits: false, minimum: 31_000 },
    { targets: 600, margin: "PT0S", fits: true },
    { targets: 601, margin: "PT0S", fits: false, minimum: 31_000 },
    { targets: 500, margin: "PT0.2S", fits: true },
    { targets: 501, margin: "PT0.2S", fits: false, minimum: 31_000 },
  ])("$targets targets at PT30S, margin $margin: fits $fits", async ({ targets, margin, fits, minimum }) => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({
        ...(margin === undefined ? {} : { api: { rate_limit_margin: margin } }),
        clusters: manyClusters(targets),
        metrics: { granularity: "PT30S", interval: "PT30S" },
      }),
    );
    const metrics = row(schedule.rows, "POST /v2/clusters/{id}/metrics/query");
    expect(metrics).toMatchObject({ callsPerCycle: targets, intervalMs: 30_000, fits });
    expect(metrics?.minimumIntervalMs).toBe(minimum);
    expect(metrics?.suggestedIntervalMs).toBe(minimum === undefined ? undefined : 60_000);
  });

  it("prints the usable rate next to the budget", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({ clusters: manyClusters(540), metrics: { granularity: "PT30S", interval: "PT30S" } }),
    );
    expect(schedule).toMatchObject({ rateLimit: 20, rateLimitMarginMs: 100 });
    expect(schedule.usableRate).toBeCloseTo(18.1818, 4);
    const text = formatSchedule(schedule);
    expect(text).toContain(
      "API calls per cycle (budget: 20 requests/s per endpoint per credential; usable 18.182 req/s with the PT0.1S margin):",
    );
    expect(text).toContain(
      "POST /v2/clusters/{id}/metrics/query [default]: at least 540 calls every PT30S = >= 18 req/s: fits",
    );
  });

  it("700 clusters exceed: at least PT39S, rounded up to PT1M in granularity steps", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({
        clusters: manyClusters(700),
        metrics: { granularity: "PT30S" },
        import_jobs: { interval: "PT30S" },
      }),
    );
    const metrics = row(schedule.rows, "POST /v2/clusters/{id}/metrics/query");
    // 700 calls at 18.18 req/s take 38.5 s.
    expect(metrics).toMatchObject({
      callsPerCycle: 700,
      fits: false,
      minimumIntervalMs: 39_000,
      suggestedIntervalMs: 60_000,
    });
    // Other endpoints round to whole seconds only.
    const imports = row(schedule.rows, "POST /v2/vectordb/jobs/import/list");
    expect(imports).toMatchObject({ fits: false, minimumIntervalMs: 39_000, suggestedIntervalMs: 39_000 });
    expect(schedule.fits).toBe(false);
    const text = formatSchedule(schedule);
    expect(text).toContain(
      "POST /v2/clusters/{id}/metrics/query [default]: at least 700 calls every PT30S = >= 23.333 req/s: " +
        "EXCEEDS the budget: needs an interval of at least PT39S, use PT1M (whole granularity steps)",
    );
    expect(text).toContain(
      "POST /v2/vectordb/jobs/import/list [default]: at least 700 calls every PT30S = >= 23.333 req/s: " +
        "EXCEEDS the budget: needs an interval of at least PT39S\n",
    );
    expect(text).toMatch(/Result: EXCEEDS the budget/);
  });

  it("import_jobs.api v1: the v1 listing only, and only for clusters with a region", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({
        clusters: [{ id: "in01-a", region: "aws-us-west-2" }, { id: "in01-b" }],
        import_jobs: { api: "v1" },
      }),
    );
    expect(row(schedule.rows, "GET /v1/vector/collections/import/list")?.callsPerCycle).toBe(1);
    expect(row(schedule.rows, "POST /v2/vectordb/jobs/import/list")).toBeUndefined();
    expect(row(schedule.rows, "POST /v2/vectordb/jobs/import/describe")).toBeUndefined();
    expect(schedule.notes).toContain("import jobs are not polled for clusters without a region: in01-b");
  });

  // Usable: 20 / 1.1 req/s, 1090 calls per PT1M. progress_max 20 per cluster, lowered to fit.
  it.each([
    { clusters: 10, perCluster: 20 },
    { clusters: 54, perCluster: 20 },
    { clusters: 55, perCluster: 19 },
    { clusters: 100, perCluster: 10 },
    { clusters: 1000, perCluster: 1 },
  ])(
    "Get Import Job Progress at $clusters clusters: $perCluster per cluster, within the budget",
    async ({ clusters, perCluster }) => {
      const schedule = computeSchedule(COLLECTORS, await config({ clusters: manyClusters(clusters) }));
      const progress = row(schedule.rows, "POST /v2/vectordb/jobs/import/describe");
      expect(progress).toMatchObject({ callsPerCycle: clusters * perCluster, atLeast: false, fits: true });
      expect(row(schedule.rows, "POST /v2/vectordb/jobs/import/list")).toMatchObject({
        callsPerCycle: clusters,
        fits: true,
      });
      expect(formatSchedule(schedule)).toContain(
        `POST /v2/vectordb/jobs/import/describe [default]: ${clusters * perCluster} calls every PT1M`,
      );
    },
  );

  it("gives each credential its own budget", async () => {
    const clusters = [
      ...manyClusters(400),
      ...manyClusters(400).map((c) => ({ ...c, id: `${c.id}-t`, api_key: TEAM_KEY })),
    ];
    const schedule = computeSchedule(
      COLLECTORS,
      await config({ clusters, metrics: { granularity: "PT30S" } }),
    );
    expect(row(schedule.rows, "POST /v2/clusters/{id}/metrics/query")?.callsPerCycle).toBe(400);
    expect(row(schedule.rows, "POST /v2/clusters/{id}/metrics/query", "cluster key #1")?.callsPerCycle).toBe(
      400,
    );
    expect(schedule.fits).toBe(true);
  });

  it("adds discovered clusters and skips disabled collectors", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({
        metrics: { enabled: false },
        import_jobs: { enabled: false },
        inventory: { discovery: { enabled: true } },
      }),
      { discoveredClusters: 5 },
    );
    expect(row(schedule.rows, "POST /v2/clusters/{id}/metrics/query")).toBeUndefined();
    expect(row(schedule.rows, "GET /v1/vector/collections/import/list")).toBeUndefined();
    expect(row(schedule.rows, "GET /v2/clusters/{id}")?.callsPerCycle).toBe(5);
    expect(row(schedule.rows, "GET /v2/clusters")?.callsPerCycle).toBe(1);
    expect(formatSchedule(schedule)).toContain("Targets: 0 configured clusters + 5 discovered, 0 Spark jobs");
  });

  it("splits clusters and Spark jobs over shards; account-wide calls go to shard 0", async () => {
    const cfg = await config({
      clusters: manyClusters(20),
      spark_jobs: { jobs: Array.from({ length: 10 }, (_, i) => ({ project_id: "p", job_id: `j${i}` })) },
    });
    const schedules = [0, 1, 2].map((index) =>
      computeSchedule(COLLECTORS, cfg, { shard: { index, total: 3 } }),
    );
    const ids = schedules.flatMap((p) => p.targets.map((t) => t.clusterId));
    expect(ids.sort()).toEqual(cfg.clusters.map((c) => c.id).sort());
    expect(
      schedules.reduce(
        (n, p) => n + (p.listed.find((l) => l.list.title === "Spark jobs")?.items.length ?? 0),
        0,
      ),
    ).toBe(10);
    for (const [index, schedule] of schedules.entries()) {
      expect(schedule.targets.every((t) => inShard(t.clusterId, { index, total: 3 }))).toBe(true);
      expect(row(schedule.rows, "GET /v2/projects") !== undefined).toBe(index === 0);
    }
    const [, second] = schedules;
    expect(second && formatSchedule(second)).toContain("Targets (shard 1 of 3):");
  });

  it("counts one List Group Members call per group, at least, on shard 0 only", async () => {
    const cfg = await config({ groups: { ids: ["grp-a", "grp-b", "grp-c"], interval: "PT30S" } });
    const [first, second] = [0, 1].map((index) =>
      computeSchedule(COLLECTORS, cfg, { shard: { index, total: 2 } }),
    );
    expect(first && row(first.rows, "GET /v2/groups/{groupId}/members")).toMatchObject({
      callsPerCycle: 3,
      atLeast: true,
      intervalMs: 30_000,
    });
    expect(first && formatSchedule(first)).toContain(
      "GET /v2/groups/{groupId}/members [default]: at least 3 calls every PT30S",
    );
    expect(second && row(second.rows, "GET /v2/groups/{groupId}/members")).toBeUndefined();
    // No group configured: no call at all.
    const none = computeSchedule(COLLECTORS, await config({}), {});
    expect(row(none.rows, "GET /v2/groups/{groupId}/members")).toBeUndefined();
  });

  it("counts the console's listings on shard 0 only: per project and region, and per project", async () => {
    const cfg = await config({
      clusters: [
        { id: "in01-a", project_id: "p1", region: "aws-us-west-2" },
        { id: "in01-b", project_id: "p1", region: "az-eastus" },
        { id: "in01-c", project_id: "p2", region: "az-eastus" },
        { id: "in01-d", region: "az-eastus" },
      ],
    });
    const [first, second] = [0, 1].map((index) =>
      computeSchedule(COLLECTORS, cfg, { shard: { index, total: 2 } }),
    );
    expect(first && row(first.rows, "GET /v2/clusters/onDemandClusters")).toMatchObject({
      callsPerCycle: 3,
      atLeast: true,
      intervalMs: 60_000,
    });
    expect(first && row(first.rows, "GET /v2/alertRules")).toMatchObject({
      callsPerCycle: 2,
      atLeast: true,
      intervalMs: 900_000,
    });
    const text = first ? formatSchedule(first) : "";
    expect(text).toContain("GET /v2/clusters/onDemandClusters [default]: at least 3 calls every PT1M");
    expect(text).toContain("GET /v2/alertRules [default]: at least 2 calls every PT15M");
    expect(
      first?.notes.some((n) => n.startsWith("on-demand clusters: one List On-Demand Clusters call")),
    ).toBe(true);
    expect(
      first?.notes.some((n) => n.startsWith("the console's alert rules: one List Alert Rules page")),
    ).toBe(true);
    expect(first && row(first.rows, "GET /v2/projects/{projectId}/privateEndpoints")).toMatchObject({
      callsPerCycle: 2,
      atLeast: true,
      intervalMs: 900_000,
    });
    expect(text).toContain(
      "GET /v2/projects/{projectId}/privateEndpoints [default]: at least 2 calls every PT15M",
    );
    expect(first?.notes.some((n) => n.startsWith("private endpoints: one List Private Endpoints page"))).toBe(
      true,
    );
    // On-demand compute: one Describe per project and region, as the on-demand clusters' listing.
    expect(first && row(first.rows, "GET /v2/on-demand-compute")).toMatchObject({
      callsPerCycle: 3,
      atLeast: true,
      intervalMs: 900_000,
    });
    expect(text).toContain("GET /v2/on-demand-compute [default]: at least 3 calls every PT15M");
    expect(
      first?.notes.some((n) => n.startsWith("on-demand compute: one Describe On-Demand Compute call")),
    ).toBe(true);
    for (const endpoint of [
      "GET /v2/clusters/onDemandClusters",
      "GET /v2/alertRules",
      "GET /v2/projects/{projectId}/privateEndpoints",
      "GET /v2/on-demand-compute",
    ]) {
      expect(second && row(second.rows, endpoint)).toBeUndefined();
      // No project configured: still one at least, every organisation has a project.
      expect(row(computeSchedule(COLLECTORS, await config({}), {}).rows, endpoint)?.callsPerCycle).toBe(1);
    }
    const off = computeSchedule(
      COLLECTORS,
      await config({
        inventory: { on_demand: false },
        alert_rules: { enabled: false },
        private_endpoints: { enabled: false },
        on_demand_compute: { enabled: false },
      }),
      {},
    );
    expect(row(off.rows, "GET /v2/clusters/onDemandClusters")).toBeUndefined();
    expect(row(off.rows, "GET /v2/alertRules")).toBeUndefined();
    expect(row(off.rows, "GET /v2/projects/{projectId}/privateEndpoints")).toBeUndefined();
    expect(off.notes.some((n) => n.includes("List Private Endpoints"))).toBe(false);
    expect(row(off.rows, "GET /v2/on-demand-compute")).toBeUndefined();
    expect(off.notes.some((n) => n.includes("Describe On-Demand Compute"))).toBe(false);
    expect(off.notes.some((n) => n.includes("List Alert Rules") || n.includes("On-Demand"))).toBe(false);
  });

  it("counts List Storage Integrations on shard 0 only, a page per known project at least", async () => {
    const endpoint = "GET /v2/storageIntegrations";
    const cfg = await config({
      clusters: [
        { id: "in01-a", project_id: "p1" },
        { id: "in01-b", project_id: "p1" },
        { id: "in01-c", project_id: "p2" },
        { id: "in01-d" },
      ],
    });
    const [first, second] = [0, 1].map((index) =>
      computeSchedule(COLLECTORS, cfg, { shard: { index, total: 2 } }),
    );
    expect(first && row(first.rows, endpoint)).toMatchObject({
      callsPerCycle: 2,
      atLeast: true,
      intervalMs: 900_000,
    });
    expect(first ? formatSchedule(first) : "").toContain(
      `${endpoint} [default]: at least 2 calls every PT15M`,
    );
    expect(
      first?.notes.some((n) => n.startsWith("storage integrations: one List Storage Integrations page")),
    ).toBe(true);
    expect(second && row(second.rows, endpoint)).toBeUndefined();
    // No project configured: still one at least, every organisation has a project.
    expect(row(computeSchedule(COLLECTORS, await config({}), {}).rows, endpoint)?.callsPerCycle).toBe(1);
    const off = computeSchedule(COLLECTORS, await config({ storage_integrations: { enabled: false } }), {});
    expect(row(off.rows, endpoint)).toBeUndefined();
    expect(off.notes.some((n) => n.includes("List Storage Integrations"))).toBe(false);
  });

  it("counts List API Keys on shard 0 only, one page at least, and says what max_age and key_id do", async () => {
    const endpoint = "GET /v2/api-keys";
    const cfg = await config({
      api: { api_key: "k", key_id: "key-own" },
      api_keys: { max_age: "P90D", api_key: "owner-secret" },
    });
    const [first, second] = [0, 1].map((index) =>
      computeSchedule(COLLECTORS, cfg, { shard: { index, total: 2 } }),
    );
    // Under the section's own credential (its key, else the default one), never the key.
    expect(first && row(first.rows, endpoint, "api_keys")).toMatchObject({
      callsPerCycle: 1,
      atLeast: true,
      intervalMs: 3_600_000,
    });
    expect(first?.rows.filter((r) => r.endpoint === endpoint).map((r) => r.credential)).toEqual(["api_keys"]);
    expect(first ? formatSchedule(first) : "").toContain(
      `${endpoint} [api_keys]: at least 1 call every PT1H`,
    );
    expect(first ? formatSchedule(first) : "").not.toContain("owner-secret");
    expect(first?.notes.filter((n) => n.startsWith("API keys:"))).toEqual([
      "API keys: one List API Keys page per 100 keys of the organization, counted here as one; GET /v2/api-keys: where a server does not offer /v2/api-keys, the first call also asks /v2/apiKeys, and only the path that answered from then on (the others again where it stops answering)",
      "API keys: keys older than api_keys.max_age (P90D) are logged as the set changes; the alert VdbcloudApiKeyOld has its own threshold in config/prometheus/thresholds.yml",
      "API keys: the exporter's own key (api.key_id key-own) is checked for more than monitoring needs (Owner, or a project role above Read-Only)",
    ]);
    expect(second && row(second.rows, endpoint, "api_keys")).toBeUndefined();
    const off = computeSchedule(COLLECTORS, await config({ api_keys: { enabled: false } }), {});
    expect(row(off.rows, endpoint, "api_keys")).toBeUndefined();
    expect(off.notes.some((n) => n.startsWith("API keys:"))).toBe(false);
  });

  it("counts billing under its own credential, on shard 0 only, and nothing while it is off", async () => {
    const cfg = await config({ billing: { enabled: true, api_key: "billing-secret" } });
    const [first, second] = [0, 1].map((index) =>
      computeSchedule(COLLECTORS, cfg, { shard: { index, total: 2 } }),
    );
    for (const endpoint of ["POST /v2/usage/query", "GET /v2/invoices"]) {
      expect(first && row(first.rows, endpoint, "billing")).toMatchObject({
        callsPerCycle: 1,
        atLeast: true,
        intervalMs: 3_600_000,
      });
      expect(first?.rows.filter((r) => r.endpoint === endpoint).map((r) => r.credential)).toEqual([
        "billing",
      ]);
      expect(second && row(second.rows, endpoint, "billing")).toBeUndefined();
      expect(
        row(computeSchedule(COLLECTORS, await config({}), {}).rows, endpoint, "billing"),
      ).toBeUndefined();
    }
    const text = first ? formatSchedule(first) : "";
    expect(text).toContain("POST /v2/usage/query [billing]: at least 1 call every PT1H");
    expect(text).not.toContain("billing-secret");
  });

  it("notes when there is nothing to poll and when jobs come from a file", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({ spark_jobs: { jobs_file: "jobs.yaml" }, jobs: { ids_file: "ids.yaml" } }),
    );
    expect(schedule.notes).toEqual([
      "Spark jobs listed in /cfg/jobs.yaml are read at run time and add one call each",
      "job IDs listed in /cfg/ids.yaml are read at run time and add one call each",
      METRICS_FORM_NOTES.auto,
      "on-demand clusters: one List On-Demand Clusters call per project and region that List Projects V2 lists (regionIds), counted here for the configured clusters' projects and regions",
      "the console's alert rules: one List Alert Rules page per 100 rules of each project that List Projects V2 lists, counted here for the configured clusters' projects",
      "private endpoints: one List Private Endpoints page per 100 endpoints of each project that List Projects V2 lists, counted here for the configured clusters' projects",
      "on-demand compute: one Describe On-Demand Compute call per project and region that List Projects V2 lists (regionIds), counted here for the configured clusters' projects and regions",
      "storage integrations: one List Storage Integrations page per 100 integrations of each project that List Projects V2 lists, counted here for the configured clusters' projects",
      "API keys: one List API Keys page per 100 keys of the organization, counted here as one; GET /v2/api-keys: where a server does not offer /v2/api-keys, the first call also asks /v2/apiKeys, and only the path that answered from then on (the others again where it stops answering)",
      "pipelines: one List Pipelines (V1) call per project and region that List Projects V2 lists (regionIds), counted here for the configured clusters' projects and regions; a region whose controller offers no pipelines (HTTP 404, or 80002 on the path: the service discontinued them) is not offered here, asked again once a day",
      "pipelines: Describe Pipeline (V1) only for a listed pipeline whose list item lacks its functions (the reference's samples carry them)",
      "Spark job discovery: one List Spark Jobs call per 100 jobs of a cluster, and Describe Spark Job only for jobs new to the exporter or whose status moved (at most max_per_cluster per cluster)",
      "API keys: keys older than api_keys.max_age (P365D) are logged as the set changes; the alert VdbcloudApiKeyOld has its own threshold in config/prometheus/thresholds.yml",
      "API keys: api.key_id is not set, so the exporter's own key is not checked for more than monitoring needs",
      "no clusters, Spark jobs or job IDs to poll: list clusters, enable discovery, or add spark_jobs.jobs or jobs.ids",
    ]);
  });
});

describe("replicas that share a key: each row against this replica's share", () => {
  it.each([
    { shard: { index: 0, total: 1 }, share: 20 },
    { shard: { index: 0, total: 3 }, share: 7 },
    { shard: { index: 2, total: 3 }, share: 6 },
  ])(
    "shard $shard.index of $shard.total: metrics judged against $share per second",
    async ({ shard, share }) => {
      // 2,000 clusters at PT30S: about 667 per replica of 3, over any share of 20 per second.
      const cfg = await config({ clusters: manyClusters(2000), metrics: { granularity: "PT30S" } });
      const schedule = computeSchedule(COLLECTORS, cfg, { shard });
      const metrics = row(schedule.rows, "POST /v2/clusters/{id}/metrics/query");
      expect(metrics?.rateLimit).toBe(share);
      expect(metrics?.fits).toBe(false);
      // The interval that fits this replica's share: its calls at share / 1.1 per second.
      const calls = metrics?.callsPerCycle ?? 0;
      expect(metrics?.minimumIntervalMs).toBe(Math.ceil((calls * 1_100) / share / 1_000) * 1_000);
    },
  );

  it("lowers Get Import Job Progress to this replica's share of the key", async () => {
    const cfg = await config({ clusters: manyClusters(300) });
    const whole = computeSchedule(COLLECTORS, cfg);
    const third = computeSchedule(COLLECTORS, cfg, { shard: { index: 1, total: 3 } });
    // 300 clusters at PT1M with 20 per second: 3 per cluster; a replica of 3 (7 per second, about
    // 100 clusters): 3 per cluster too, within its own share.
    const progress = row(third.rows, "POST /v2/vectordb/jobs/import/describe");
    const clusters = third.targets.length;
    expect(row(whole.rows, "POST /v2/vectordb/jobs/import/describe")?.callsPerCycle).toBe(300 * 3);
    expect(progress?.callsPerCycle).toBe(clusters * Math.floor((7 * 60_000) / (1_100 * clusters)));
    expect(progress?.fits).toBe(true);
  });

  it("says which budget this replica uses and why, and each shared row's share", async () => {
    const cfg = await config({ clusters: manyClusters(30) });
    const text = formatSchedule(computeSchedule(COLLECTORS, cfg, { shard: { index: 1, total: 3 } }));
    expect(text).toContain(
      "Rate budget of this replica (requests/s per endpoint):\n  default: 7 on every endpoint: --total-shards 3: every replica uses the key: 20 / 3 in whole requests, the first 2 by shard taking one more\n",
    );
    expect(text).toMatch(
      /POST \/v2\/clusters\/\{id\}\/metrics\/query \[default\]: at least \d+ calls every PT1M = >= [\d.]+ req\/s \(this replica's share: 7 req\/s, usable 6\.364\): fits/,
    );
    // One replica: no budget section, rows as before.
    expect(formatSchedule(computeSchedule(COLLECTORS, cfg))).not.toContain("Rate budget of this replica");
  });

  it("does not fit when more replicas share the key than its rate", async () => {
    const schedule = computeSchedule(COLLECTORS, await config({ clusters: manyClusters(30) }), {
      shard: { index: 0, total: 25 },
    });
    expect(schedule.fits).toBe(false);
    expect(schedule.notes[0]).toMatch(/^25 replicas share one key's 20 requests per second/);
    expect(formatSchedule(schedule)).toMatch(/Result: EXCEEDS the budget/);
  });
});

describe("native_export in the schedule", () => {
  const METRICS = "POST /v2/clusters/{id}/metrics/query";
  const clusters = [
    { id: "in01-ent", region: "aws-us-west-2", scopes: [{ db_name: "default", collection_name: "docs" }] },
    { id: "in01-std", region: "aws-us-west-2" },
    { id: "in01-team", region: "aws-us-west-2", api_key: TEAM_KEY },
  ];

  it("shows the clusters listed by ID as native and their metric calls as saved, not in the budget", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({ clusters, native_export: { enabled: true, clusters: ["in01-ent", "in01-team"] } }),
    );
    // The cluster and its scope, under the default key; the team key's cluster under its own.
    expect(row(schedule.rows, METRICS)?.callsPerCycle).toBe(1);
    expect(row(schedule.rows, METRICS, "cluster key #1")).toBeUndefined();
    expect(schedule.native.saved.map((r) => [r.credential, r.callsPerCycle, r.intervalMs])).toEqual([
      ["default", 2, 60_000],
      ["cluster key #1", 1, 60_000],
    ]);
    // Every other call stays, the saved clusters' Describe Cluster among them.
    expect(row(schedule.rows, "GET /v2/clusters/{id}")?.callsPerCycle).toBe(2);
    const text = formatSchedule(schedule);
    expect(text).toMatch(
      /cluster in01-ent .* native \(the service's own endpoint, if Enterprise: metric calls saved\)/,
    );
    expect(text).not.toMatch(/cluster in01-std .*native/);
    expect(text).toContain(
      "Calls saved by the service's own Prometheus endpoint (native_export, the clusters listed by ID):",
    );
    expect(text).toContain(`${METRICS} [default]: 2 calls every PT1M = 0.033 req/s not made`);
    expect(text).toContain("Free, Serverless and Standard clusters are polled as before, even when listed");
    expect(text).not.toContain(TEAM_KEY);
  });

  it("auto: no plan is known offline, so every call is counted, with a note that they stop at run time", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({ clusters, native_export: { enabled: true } }),
    );
    expect(row(schedule.rows, METRICS)?.callsPerCycle).toBe(3);
    expect(schedule.native.saved).toEqual([]);
    expect(schedule.native.notes).toContainEqual(
      expect.stringContaining("clusters: auto: which clusters are Enterprise is learnt at run time"),
    );
    expect(formatSchedule(schedule)).not.toContain("native (");
  });

  it.each([
    [
      "metric queries kept",
      { enabled: true, clusters: ["in01-ent"], skip_metric_queries: false },
      3,
      "still made",
    ],
    ["disabled", { enabled: false, clusters: ["in01-ent"] }, 3, undefined],
  ])("%s: the calls stay in the budget", async (_name, native, calls, note) => {
    const schedule = computeSchedule(COLLECTORS, await config({ clusters, native_export: native }));
    expect(row(schedule.rows, METRICS)?.callsPerCycle).toBe(calls);
    expect(schedule.native.saved).toEqual([]);
    if (note === undefined) expect(schedule.native.notes).toEqual([]);
    else expect(schedule.native.notes.join("\n")).toContain(note);
  });

  it("names a listed cluster this replica does not poll from its config (another shard's, or cluster discovery's)", async () => {
    const cfg = await config({
      clusters,
      inventory: { discovery: { enabled: true } },
      native_export: { enabled: true, clusters: ["in01-ent", "in01-elsewhere"] },
    });
    const shards = [0, 1].map((index) => computeSchedule(COLLECTORS, cfg, { shard: { index, total: 2 } }));
    const owner = shards.find((p) => p.targets.some((t) => t.clusterId === "in01-ent"));
    expect(owner?.native.clusters).toEqual(["in01-ent"]);
    for (const p of shards) {
      const mine = p.targets.some((t) => t.clusterId === "in01-ent");
      expect(p.native.notes.join("\n")).toContain(
        `does not poll from its config (another shard's, or found by discovery): ${mine ? "" : "in01-ent, "}in01-elsewhere`,
      );
    }
  });
});

describe("family lists in the schedule", () => {
  const clusters = [
    { id: "in01-a", region: "aws-us-west-2" },
    { id: "in01-b", region: "aws-us-west-2" },
  ];
  const collectorsOf = (schedule: ReturnType<typeof computeSchedule>) =>
    new Set(schedule.tasks.map((t) => t.id.collector));

  it("schedules no task for a collector whose every family is denied, and says so with the calls it spares", async () => {
    const open = computeSchedule(COLLECTORS, await config({ clusters }));
    const importCalls = open.tasks
      .filter((t) => t.id.collector === "import_jobs")
      .flatMap((t) => t.calls)
      .reduce((n, c) => n + c.count, 0);
    expect(importCalls).toBeGreaterThan(0);
    expect(open.families).toMatchObject({ denied: [], silenced: [] });

    const schedule = computeSchedule(
      COLLECTORS,
      await config({ clusters, families: { deny: ["vdbcloud_import_job.*", "vdbcloud_backup_policy_.*"] } }),
    );
    expect(collectorsOf(schedule).has("import_jobs")).toBe(false);
    // Backups are listed still (their own families are not denied); only the policies stop.
    expect(
      schedule.tasks
        .filter((t) => t.id.collector === "backups")
        .flatMap((t) => t.calls.map((c) => c.endpoint)),
    ).toEqual(["GET /v2/backups"]);
    expect(row(schedule.rows, "POST /v2/vectordb/jobs/import/list")).toBeUndefined();
    expect(row(schedule.rows, "GET /v2/clusters/{id}/backups/policy")).toBeUndefined();
    expect(schedule.families.silenced).toEqual([
      { collector: "import_jobs", tasks: 2, callsPerCycle: importCalls, atLeast: true },
      { collector: "backup_policies", tasks: 2, callsPerCycle: 2, atLeast: false },
    ]);
    expect(schedule.families.denied).toEqual(
      expect.arrayContaining([
        "vdbcloud_import_job_state",
        "vdbcloud_import_jobs",
        "vdbcloud_backup_policy_enabled",
      ]),
    );
    expect(schedule.families.denied).toHaveLength(8);

    const text = formatSchedule(schedule);
    expect(text).toContain(
      `Families (families.allow, families.deny): 8 of ${schedule.families.known} denied, never exposed`,
    );
    expect(text).toContain(
      `  Collectors that make no call, every family they write being denied:\n    import_jobs: at least ${importCalls} calls per cycle spared\n    backup_policies: 2 calls per cycle spared\n`,
    );
    expect(formatSchedule(open)).not.toContain("Families (families.allow");
  });

  it("keeps a collector while one of its families is exposed", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({ clusters, families: { deny: ["vdbcloud_import_job_state", "vdbcloud_import_jobs"] } }),
    );
    expect(collectorsOf(schedule).has("import_jobs")).toBe(true);
    expect(schedule.families.silenced).toEqual([]);
  });

  it("says a silenced collector had nothing to poll when it was off anyway", async () => {
    const schedule = computeSchedule(
      COLLECTORS,
      await config({ clusters, families: { deny: ["vdbcloud_group_members"] } }),
    );
    expect(schedule.families.silenced).toEqual([
      { collector: "groups", tasks: 0, callsPerCycle: 0, atLeast: false },
    ]);
    expect(formatSchedule(schedule)).toContain("    groups: nothing to poll in this config anyway\n");
  });

  it("runs cluster discovery while a collector that writes families runs, and stops it with the last one", async () => {
    const health =
      "vdbcloud_collector_.*|vdbcloud_config_last_reload_successful|vdbcloud_exporter_build_info";
    const discovering = { clusters, inventory: { discovery: { enabled: true } } };
    const some = computeSchedule(
      COLLECTORS,
      await config({ ...discovering, families: { allow: [health, "vdbcloud_cluster_info"] } }),
    );
    // Only the inventory writes an admitted family; cluster discovery keeps finding its clusters.
    expect([...collectorsOf(some)]).toEqual(["inventory"]);
    expect(some.tasks.map((t) => t.id)).toContainEqual({ collector: "inventory", target: "discovery" });
    expect(some.families.silenced.map((s) => s.collector)).not.toContain("discovery");

    const none = computeSchedule(COLLECTORS, await config({ ...discovering, families: { allow: [health] } }));
    expect(none.tasks).toEqual([]);
    expect(none.families.silenced.map((s) => s.collector)).toContain("discovery");
    expect(formatSchedule(none)).toMatch(/\n {4}discovery: at least 1 call per cycle spared\n/);
  });

  it("stops the cluster metrics once every family they can write is denied, those of unknown names included", async () => {
    const clusterDeny = [
      "vdbcloud_(cu|write|storage|vcu|request|vector|slow|flushes|entit|indexed|loaded|collections|unloaded).*",
    ];
    const selfDeny = [
      "vdbcloud_metrics_newest_bucket_timestamp_seconds",
      "vdbcloud_metric_query_rejected",
      "vdbcloud_metrics_query_form",
    ];
    const known = computeSchedule(
      COLLECTORS,
      await config({ clusters, families: { deny: [...clusterDeny, ...selfDeny] } }),
    );
    expect(collectorsOf(known).has("cluster_metrics")).toBe(false);
    expect(row(known.rows, "POST /v2/clusters/{id}/metrics/query")).toBeUndefined();
    // Without the freshness family denied, the collector still has something to write.
    const fresh = computeSchedule(COLLECTORS, await config({ clusters, families: { deny: clusterDeny } }));
    expect(collectorsOf(fresh).has("cluster_metrics")).toBe(true);

    // A name outside the catalog lands in a family named after it: denied too, or it runs.
    const unknown = {
      clusters,
      metrics: { queries: [{ name: "NEW_THING_RATE", stat: "AVG" }], allow_unknown_names: true },
    };
    const running = computeSchedule(
      COLLECTORS,
      await config({ ...unknown, families: { deny: [...clusterDeny, ...selfDeny] } }),
    );
    expect(collectorsOf(running).has("cluster_metrics")).toBe(true);
    const stopped = computeSchedule(
      COLLECTORS,
      await config({
        ...unknown,
        families: { deny: [...clusterDeny, ...selfDeny, "vdbcloud_new_thing_.*"] },
      }),
    );
    expect(collectorsOf(stopped).has("cluster_metrics")).toBe(false);
  });

  it("keeps the collections listing while the per-collection metrics it feeds are exposed", async () => {
    const collections = { clusters, collections: { enabled: true } };
    const own = [
      "vdbcloud_collection_.*",
      "vdbcloud_collections",
      "vdbcloud_collections_not_polled",
      "vdbcloud_index_.*",
    ];
    const fed = computeSchedule(COLLECTORS, await config({ ...collections, families: { deny: own } }));
    expect(collectorsOf(fed).has("collections")).toBe(true);
    // Its index families alone keep it running.
    const indexed = computeSchedule(
      COLLECTORS,
      await config({
        ...collections,
        collections: { enabled: true, scopes: false },
        families: { deny: own.slice(0, -1) },
      }),
    );
    expect(collectorsOf(indexed).has("collections")).toBe(true);
    const notFed = computeSchedule(
      COLLECTORS,
      await config({
        ...collections,
        collections: { enabled: true, scopes: false },
        families: { deny: own },
      }),
    );
    expect(collectorsOf(notFed).has("collections")).toBe(false);
    expect(notFed.families.silenced.map((s) => s.collector)).toEqual(["collections"]);
  });
});
