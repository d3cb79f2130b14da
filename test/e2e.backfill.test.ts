/**
 * End to end: days of simulator history backfilled at PT30S by the built CLI, turned into
 * blocks by the real `promtool tsdb create-blocks-from openmetrics`, served by a real
 * Prometheus, and read back: at sampled bucket times Prometheus holds exactly the simulator's
 * values for those buckets, under the live exporter's names and labels, and nothing where the
 * simulator holds no data (beyond its retention).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { BackfilledPrometheus } from "./helpers/backfillPrometheus.js";
import { startHarness } from "./helpers/harness.js";
import { waitFor } from "./helpers/processes.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip } from "./helpers/tools.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** First-form queries, so that the simulator is asked below exactly what the exporter asks. */
const QUERIES = [
  { name: "CU_COMPUTATION", stat: "AVG" },
  { name: "STORAGE_USE", stat: "AVG" },
  { name: "REQ_SEARCH_COUNT", stat: "AVG" },
  { name: "REQ_SEARCH_LATENCY", stat: "AVG" },
  { name: "REQ_SEARCH_LATENCY", stat: "P99" },
  { name: "REQ_QUERY_LATENCY", stat: "P99" },
  { name: "ENTITIES_COUNT", stat: "AVG" },
];

const promtool = toolOrSkip("promtool");
const prometheusTool = toolOrSkip("prometheus");

describe.skipIf(promtool.skip || prometheusTool.skip)("backfill into a real Prometheus", () => {
  let sim: Simulator;
  let dir: string;
  const prometheus = new BackfilledPrometheus({ promtool, prometheus: prometheusTool });
  const to = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
  const from = to - 2 * DAY;
  let clusterIds: string[] = [];
  let scope: { db: string; collection: string } | undefined;

  const instant = (query: string, atMs: number) => prometheus.instant(query, atMs);

  /** The simulator's raw value of one query for the bucket at `t`, asked for that bucket alone. */
  async function simValue(
    clusterId: string,
    t: number,
    query: { name: string; stat?: string },
  ): Promise<number> {
    const res = await fetch(`${sim.baseUrl}/v2/clusters/${clusterId}/metrics/query`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({
        start: new Date(t).toISOString(),
        end: new Date(t + 30_000).toISOString(),
        granularity: "PT30S",
        metricQueries: [query],
      }),
    });
    const json = (await res.json()) as { data: { results: { values: { value: string | null }[] }[] } };
    const value = json.data.results[0]?.values[0]?.value;
    if (value === null || value === undefined)
      throw new Error(`no simulator value at ${new Date(t).toISOString()}`);
    return Number(value);
  }

  beforeAll(async () => {
    // Data is kept for 36 hours: the first half day of the two backfilled days has none.
    sim = await startSimulator({
      clusters: 3,
      rateLimitPerSecond: 0,
      metricRetentionMs: 36 * HOUR,
      // The queries below are asked as written, in the 2024 form: a server that speaks both forms.
      metricCatalog: "permissive",
    });
    dir = tempDir("backfill-e2e-");
    const running = sim.clusters.filter((c) => c.status === "RUNNING").slice(0, 2);
    clusterIds = running.map((c) => c.id);
    const first = running[0]?.collections[0];
    scope = first ? { db: first.dbName, collection: first.collectionName } : undefined;
    const config = {
      api: {
        base_url: sim.baseUrl,
        controller_url: sim.controllerUrlTemplate,
        api_key: "k",
        rate_limit: 200,
      },
      clusters: running.map((c, i) => ({
        id: c.id,
        ...(i === 0 && scope ? { scopes: [{ db_name: scope.db, collection_name: scope.collection }] } : {}),
      })),
      metrics: { granularity: "PT30S", queries: QUERIES },
    };
    await prometheus.start({ dir, config, fromMs: from, toMs: to });
  }, 240_000);

  afterAll(async () => {
    await prometheus.stop();
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("holds the simulator's value of each sampled bucket, converted as the live exporter converts it", async () => {
    const checks: [string, { name: string; stat?: string }, string, (v: number) => number][] = [
      ["CU", { name: "CU_COMPUTATION", stat: "AVG" }, "vdbcloud_cu_computation_ratio", (v) => v / 100],
      [
        "search P99",
        { name: "REQ_SEARCH_LATENCY", stat: "P99" },
        'vdbcloud_request_latency_seconds{request_type="search",stat="p99"}',
        (v) => v / 1000,
      ],
      [
        "search rate",
        { name: "REQ_SEARCH_COUNT", stat: "AVG" },
        'vdbcloud_requests_per_second{request_type="search"}',
        (v) => v / 60,
      ],
      ["storage", { name: "STORAGE_USE", stat: "AVG" }, "vdbcloud_storage_bytes", (v) => v * 1e9],
    ];
    const retainedFrom = to + HOUR - 36 * HOUR; // the simulator's "now" is about an hour after `to`
    let compared = 0;
    for (const clusterId of clusterIds) {
      for (let i = 0; i < 6; i++) {
        // Buckets spread over the retained part of the window, on 30 s boundaries.
        const t =
          Math.floor((retainedFrom + HOUR + ((to - retainedFrom - 2 * HOUR) * i) / 5) / 30_000) * 30_000;
        for (const [what, query, selector, convert] of checks) {
          const withCluster = selector.includes("{")
            ? selector.replace("{", `{cluster_id="${clusterId}",db_name="",`)
            : `${selector}{cluster_id="${clusterId}",db_name=""}`;
          const got = await instant(withCluster, t);
          expect(got, `${what} of ${clusterId} at ${new Date(t).toISOString()}`).toHaveLength(1);
          const expected = convert(await simValue(clusterId, t, query));
          expect(
            Number(got[0]?.value[1]),
            `${what} of ${clusterId} at ${new Date(t).toISOString()}`,
          ).toBeCloseTo(expected, 9);
          compared += 1;
        }
      }
    }
    expect(compared).toBe(clusterIds.length * 6 * checks.length);
  });

  it("has no sample where the simulator holds none (beyond its retention)", async () => {
    const early = from + 6 * HOUR;
    const got = await instant(`count_over_time(vdbcloud_cu_computation_ratio[5h])`, early);
    expect(got).toEqual([]);
    // ...while the retained part has one sample per 30 s bucket.
    const late = await instant(
      `count_over_time(vdbcloud_cu_computation_ratio{cluster_id="${clusterIds[0]}"}[1h])`,
      // Mid-bucket, so that no version's range boundary (inclusive or not) adds a bucket.
      to - HOUR + 15_000,
    );
    expect(late.map((v) => v.value[1])).toEqual(["120"]);
  });

  it("names and labels every series as the live exporter does", async () => {
    const names = await instant(
      `group by (__name__, cluster_id, db_name, collection_name, request_type, stat, operation) ({__name__=~"vdbcloud_.+"})`,
      to - HOUR,
    );
    const backfilled = new Set(names.map((v) => JSON.stringify(Object.entries(v.metric).sort())));
    // The live exporter on the same clusters and scope, polled once.
    const harness = await startHarness({
      simulator: sim,
      config: (raw) => {
        raw.clusters = clusterIds.map((id, i) => ({
          id,
          ...(i === 0 && scope ? { scopes: [{ db_name: scope.db, collection_name: scope.collection }] } : {}),
        }));
        raw.metrics = { granularity: "PT30S", queries: QUERIES };
      },
    });
    try {
      await waitFor("the live exporter's first poll of every target", 30_000, async () => {
        const text = await harness.metrics();
        return clusterIds.every((id) => text.includes(`vdbcloud_cu_computation_ratio{cluster_id="${id}"}`)) &&
          text.includes("collection_name=")
          ? true
          : undefined;
      });
      await harness.settle();
      const live = new Set<string>();
      for (const line of (await harness.metrics()).split("\n")) {
        const m = /^(vdbcloud_[a-z0-9_]+)\{([^}]*)\} /.exec(line);
        if (!m?.[2]?.includes("cluster_id=")) continue;
        const labels: [string, string][] = [["__name__", m[1] as string]];
        for (const l of (m[2] ?? "").matchAll(/([a-z_]+)="([^"]*)"/g))
          labels.push([l[1] as string, l[2] as string]);
        // Inventory, jobs, backups, pipelines and freshness are not history: the backfill writes
        // cluster metrics only (and, with billing on, daily cost, tested in e2e.backfill.cost).
        if (/^vdbcloud_(?:import_|spark_|job_|cluster_|metrics_newest_|backup|pipeline_)/.test(m[1] ?? ""))
          continue;
        if (!clusterIds.includes(labels.find(([k]) => k === "cluster_id")?.[1] ?? "")) continue;
        live.add(JSON.stringify(labels.sort()));
      }
      expect(live.size).toBeGreaterThanOrEqual(15);
      expect([...live].filter((x) => !backfilled.has(x))).toEqual([]);
      expect([...backfilled].filter((x) => !live.has(x))).toEqual([]);
    } finally {
      await harness.close();
    }
  });
});
