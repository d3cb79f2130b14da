/**
 * A cluster scraped through the service's own endpoint, end to end: a real Prometheus scrapes a
 * fake of GET /v2/clusters/{id}/metrics/export with the shipped rules loaded (native.yml,
 * recording.yml, alerts.yml), and every query of the cluster dashboard's panels over cluster
 * metrics (read from the generated JSON, its variables substituted) shows the native cluster:
 * CU exactly the native gauge, request rates and failure ratios exactly the counters' rates.
 *
 * The fake serves the reference's exposition format: HELP and TYPE lines, the histogram declared
 * by its `_bucket` series and without `_sum`/`_count`, the storage gauge under the sample's name
 * `zilliz_cluster_storage_bytes`, no cluster labels of its own (the target's labels give them,
 * as /sd/native-export does, with honor_labels). It replays the service's cadence faster than
 * the service: each sample carries a timestamp one minute (the endpoint's minimum scrape
 * interval) after the one before, starting ten minutes back, so the 5-minute rate windows of
 * native.yml are full within seconds; at the present it serves its newest minute again
 * (identical samples, which Prometheus ignores). Counters grow by known amounts per minute.
 *
 * Needs the `prometheus` binary (skipped with a notice without it; CI fails instead).
 */
import { readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allPanels, expandVariables } from "../grafana/lib/queries.js";
import { ALERTS_FILE, NATIVE_FILE, RECORDING_FILE } from "../scripts/rules.js";
import { waitFor } from "./helpers/processes.js";
import { type InstantSample, PrometheusServer } from "./helpers/prometheusServer.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const CLUSTER = "in01-native0000000001";
const KEY = "native-export-test-key";
const PATH = `/v2/clusters/${CLUSTER}/metrics/export`;
/** The endpoint's minimum scrape interval: the spacing of the fake's sample timestamps. */
const MINUTE_MS = 60_000;
/** How far back the fake's first sample is: two rate windows. */
const HISTORY_MINUTES = 10;

/** A native series: fixed (a gauge) or growing by `perMinute` from `start` (a counter). */
interface NativeSeries {
  readonly labels: Readonly<Record<string, string>>;
  readonly start: number;
  readonly perMinute?: number;
}

interface NativeFamily {
  readonly name: string;
  readonly type: "gauge" | "counter" | "histogram";
  readonly help: string;
  readonly series: readonly NativeSeries[];
}

const g = (start: number, labels: Record<string, string> = {}): NativeSeries => ({ labels, start });
const c = (perMinute: number, labels: Record<string, string>, start = 1000): NativeSeries => ({
  labels,
  start,
  perMinute,
});

/** Latency of search per minute: 300 under 50 ms, 540 under 100 ms, 594 under 500 ms, all 600 under 1 s. */
const SEARCH_BUCKETS = [
  ["0.05", 300],
  ["0.1", 540],
  ["0.5", 594],
  ["1", 600],
  ["+Inf", 600],
] as const;

const FAMILIES: readonly NativeFamily[] = [
  { name: "zilliz_cluster_capacity", type: "gauge", help: "Cluster capacity ratio", series: [g(0.88)] },
  { name: "zilliz_cluster_computation", type: "gauge", help: "Cluster computation ratio", series: [g(0.42)] },
  {
    name: "zilliz_cluster_storage_bytes",
    type: "gauge",
    help: "Cluster storage usage",
    series: [g(8.9342782e7)],
  },
  { name: "zilliz_cluster_write_capacity", type: "gauge", help: "Cluster write capacity", series: [g(0.3)] },
  {
    name: "zilliz_requests_total",
    type: "counter",
    help: "Total number of requests",
    series: [
      c(540, { request_type: "search", status: "success" }),
      c(60, { request_type: "search", status: "fail" }),
      // No insert ever failed: no status="fail" series for it.
      c(120, { request_type: "insert", status: "success" }),
    ],
  },
  {
    name: "zilliz_request_vectors_total",
    type: "counter",
    help: "Total number of vectors in requests",
    series: [c(6000, { request_type: "search" }), c(1200, { request_type: "insert" })],
  },
  {
    name: "zilliz_request_duration_seconds_bucket",
    type: "histogram",
    help: "Request latency",
    series: SEARCH_BUCKETS.map(([le, perMinute]) => c(perMinute, { request_type: "search", le }, 0)),
  },
  { name: "zilliz_slow_queries_total", type: "counter", help: "Slow queries", series: [c(30, {})] },
  {
    name: "zilliz_entities",
    type: "gauge",
    help: "Entities",
    series: [g(1000, { collection_name: "docs" }), g(3000, { collection_name: "images" })],
  },
  {
    name: "zilliz_loaded_entities",
    type: "gauge",
    help: "Loaded entities",
    series: [g(1000, { collection_name: "docs" }), g(0, { collection_name: "images" })],
  },
  {
    name: "zilliz_indexed_entities",
    type: "gauge",
    help: "Indexed entities",
    series: [g(900, { collection_name: "docs" }), g(3000, { collection_name: "images" })],
  },
  { name: "zilliz_collections", type: "gauge", help: "Collections", series: [g(2)] },
  { name: "zilliz_unloaded_collections", type: "gauge", help: "Unloaded collections", series: [g(1)] },
];

/** The per-second rate of the counter series of `name` whose labels include `labels`. */
function ratePerSecond(name: string, labels: Record<string, string>): number {
  const family = FAMILIES.find((f) => f.name === name);
  return (family?.series ?? [])
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + (s.perMinute ?? 0) / 60, 0);
}

/** The fake endpoint: one sample per series per minute of its own clock, from ten minutes back. */
class NativeEndpoint {
  readonly firstMs = Date.now() - HISTORY_MINUTES * MINUTE_MS;
  /** The newest minute served (0: the first sample). */
  minute = -1;
  refused = 0;
  private server: Server | undefined;

  /** The newest minute due at `nowMs`. */
  due(nowMs: number): number {
    return Math.floor((nowMs - this.firstMs) / MINUTE_MS);
  }

  exposition(): string {
    this.minute = Math.min(this.minute + 1, this.due(Date.now()));
    const at = this.firstMs + this.minute * MINUTE_MS;
    const lines: string[] = [];
    for (const f of FAMILIES) {
      lines.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
      for (const s of f.series) {
        const labels = Object.entries(s.labels).map(([k, v]) => `${k}="${v}"`);
        const value = s.start + (s.perMinute ?? 0) * this.minute;
        lines.push(`${f.name}${labels.length > 0 ? `{${labels.join(",")}}` : ""} ${value} ${at}`);
      }
    }
    return `${lines.join("\n")}\n`;
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      if (req.url !== PATH || req.headers.authorization !== `Bearer ${KEY}`) {
        this.refused++;
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(this.exposition());
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server !== undefined) await new Promise((resolve) => server.close(resolve));
  }
}

/** A series a panel query must return: its labels (a subset) and value; `exact` for ===. */
interface Expected {
  readonly labels?: Readonly<Record<string, string>>;
  readonly value: number | ((v: number) => boolean);
  readonly exact?: boolean;
}

const RATES = {
  search: ratePerSecond("zilliz_requests_total", { request_type: "search" }),
  insert: ratePerSecond("zilliz_requests_total", { request_type: "insert" }),
  searchFailed: ratePerSecond("zilliz_requests_total", { request_type: "search", status: "fail" }),
  all: ratePerSecond("zilliz_requests_total", {}),
  allFailed: ratePerSecond("zilliz_requests_total", { status: "fail" }),
};

/** The cluster dashboard's panels (by title) and refIds, and what each must show for the native cluster. */
const PANELS: Readonly<Record<string, Readonly<Record<string, readonly Expected[]>>>> = {
  "CU computation": { A: [{ value: 0.42, exact: true }] },
  "CU capacity": { A: [{ value: 0.88, exact: true }] },
  Storage: { A: [{ value: 8.9342782e7, exact: true }] },
  "CU computation, capacity and write capacity": {
    A: [{ value: 0.42, exact: true }],
    B: [{ value: 0.88, exact: true }],
    C: [{ value: 0.3, exact: true }],
  },
  Entities: {
    A: [{ value: 4000, exact: true }],
    B: [{ value: 1000, exact: true }],
    C: [{ value: 3900, exact: true }],
  },
  Collections: { A: [{ value: 2, exact: true }], B: [{ value: 1, exact: true }] },
  "Requests per type": {
    A: [
      { labels: { request_type: "search" }, value: RATES.search },
      { labels: { request_type: "insert" }, value: RATES.insert },
    ],
  },
  "Vector requests per type": {
    A: [
      {
        labels: { request_type: "search" },
        value: ratePerSecond("zilliz_request_vectors_total", { request_type: "search" }),
      },
      {
        labels: { request_type: "insert" },
        value: ratePerSecond("zilliz_request_vectors_total", { request_type: "insert" }),
      },
    ],
  },
  // Percentiles of the per-minute bucket increments (linear within a bucket, as histogram_quantile).
  "Latency percentiles per type": {
    A: [
      { labels: { request_type: "search", stat: "p50" }, value: 0.05 },
      { labels: { request_type: "search", stat: "p90" }, value: 0.1 },
      { labels: { request_type: "search", stat: "p99" }, value: 0.5 },
    ],
  },
  "Failure ratio per type": {
    A: [
      { labels: { request_type: "search" }, value: RATES.searchFailed / RATES.search },
      { labels: { request_type: "insert" }, value: 0 },
      { labels: { request_type: "all" }, value: RATES.allFailed / RATES.all },
    ],
  },
  "Success ratio": { A: [{ value: (RATES.all - RATES.allFailed) / RATES.all }] },
  "Slow queries": { A: [{ value: ratePerSecond("zilliz_slow_queries_total", {}) }] },
  "Entities per collection": {
    A: [
      { labels: { collection_name: "docs" }, value: 1000, exact: true },
      { labels: { collection_name: "images" }, value: 3000, exact: true },
    ],
    B: [
      { labels: { collection_name: "docs" }, value: 1000, exact: true },
      { labels: { collection_name: "images" }, value: 0, exact: true },
    ],
    C: [
      { labels: { collection_name: "docs" }, value: 900, exact: true },
      { labels: { collection_name: "images" }, value: 3000, exact: true },
    ],
  },
  // The newest native sample is at most a minute old (and a rule evaluation).
  "Data age": { A: [{ value: (v) => v >= 0 && v < 70 }] },
};

const prometheusTool = toolOrSkip("prometheus");

describe("a natively scraped cluster on the cluster dashboard and the alerts", () => {
  const endpoint = new NativeEndpoint();
  const prometheus = new PrometheusServer();
  let tmp = "";

  beforeAll(async () => {
    if (prometheusTool.skip) return;
    tmp = tempDir("vdbcloud-native-e2e-");
    const target = await endpoint.listen();
    await prometheus.start(toolPath(prometheusTool), tmp, {
      // Faster than the service allows (60 s): the fake's own timestamps keep its cadence.
      global: { scrape_interval: "200ms", scrape_timeout: "200ms", evaluation_interval: "1s" },
      rule_files: [NATIVE_FILE, RECORDING_FILE, ALERTS_FILE].map((f) => join(ROOT, f)),
      scrape_configs: [
        {
          job_name: "vdbcloud-native",
          honor_labels: true,
          metrics_path: PATH,
          authorization: { type: "Bearer", credentials: KEY },
          static_configs: [
            {
              targets: [target],
              // What /sd/native-export gives each target.
              labels: {
                cluster_id: CLUSTER,
                cluster_name: "native",
                project_id: "proj-1",
                region_id: "aws-us-west-2",
              },
            },
          ],
        },
      ],
    });
    // Every minute of the history served and stored, then the rules evaluated on all of it.
    const newest = await waitFor("the fake's history in Prometheus", 30_000, async () => {
      if (endpoint.minute < endpoint.due(Date.now())) return undefined;
      const at = endpoint.firstMs + endpoint.minute * MINUTE_MS;
      const stored = await prometheus.instant(`timestamp(zilliz_cluster_capacity{cluster_id="${CLUSTER}"})`);
      return Number(stored.data.result[0]?.value[1]) * 1000 === at ? at : undefined;
    });
    await waitFor("the recordings of the newest minute", 20_000, async () => {
      const rec = await prometheus.instant("vdbcloud_cluster:zilliz_cluster_capacity:timestamp");
      return Number(rec.data.result[0]?.value[1]) * 1000 === newest ? true : undefined;
    });
    // Every rule group evaluated at least once since.
    await sleep(2_500);
  }, 90_000);

  afterAll(async () => {
    await prometheus.stop();
    await endpoint.close();
    if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
  });

  it.skipIf(prometheusTool.skip)(
    "scrapes the fake as the service's endpoint, every native rule healthy",
    async () => {
      const up = await prometheus.instant(`up{job="vdbcloud-native", cluster_id="${CLUSTER}"}`);
      expect(up.data.result.map((s) => s.value[1])).toEqual(["1"]);
      expect(endpoint.refused).toBe(0);
      const rules = await prometheus.api<{
        groups: Array<{ name: string; rules: Array<{ health: string; lastError?: string }> }>;
      }>("/api/v1/rules");
      const native = rules.data.groups.filter((gr) => gr.name.startsWith("vdbcloud-native"));
      expect(native.map((gr) => gr.name).sort()).toEqual(["vdbcloud-native", "vdbcloud-native-collections"]);
      for (const rule of native.flatMap((gr) => gr.rules))
        expect(rule, JSON.stringify(rule)).toMatchObject({ health: "ok" });
    },
  );

  it.skipIf(prometheusTool.skip)(
    "every cluster dashboard panel query over cluster metrics shows the native cluster's values",
    async () => {
      const board = JSON.parse(
        readFileSync(join(ROOT, "grafana", "dashboards", "vdbcloud-cluster.json"), "utf8"),
      ) as Record<string, unknown>;
      const panels = allPanels(board);
      const checked: string[] = [];
      for (const [title, targets] of Object.entries(PANELS)) {
        const matching = panels.filter((p) => p.title === title);
        expect(matching.length, title).toBeGreaterThan(0);
        for (const panel of matching) {
          for (const [refId, expected] of Object.entries(targets)) {
            const target = (panel.targets as Array<{ refId: string; expr: string }>).find(
              (t) => t.refId === refId,
            );
            const expr = expandVariables(target?.expr ?? "", { cluster: CLUSTER });
            const where = `${title} ${refId}: ${expr}`;
            const answer = await prometheus.instant(expr);
            expect(answer.status, `${where} ${answer.error ?? ""}`).toBe("success");
            const result = answer.data.result;
            expect(result.length, `${where} -> ${JSON.stringify(result)}`).toBe(expected.length);
            for (const e of expected) {
              const series = result.find((s: InstantSample) =>
                Object.entries(e.labels ?? {}).every(([k, v]) => s.metric[k] === v),
              );
              expect(series, `${where}: no series ${JSON.stringify(e.labels)}`).toBeDefined();
              const value = Number(series?.value[1]);
              if (typeof e.value === "function") expect(e.value(value), `${where} = ${value}`).toBe(true);
              else if (e.exact === true) expect(value, where).toBe(e.value);
              else expect(value, where).toBeCloseTo(e.value, 9);
            }
            checked.push(`${title} ${refId}`);
          }
        }
      }
      expect(checked.length).toBeGreaterThanOrEqual(20);
    },
    30_000,
  );

  it.skipIf(prometheusTool.skip)(
    "the cluster alerts see the native cluster (pending their `for`)",
    async () => {
      const pending = await prometheus.instant(`ALERTS{cluster_id="${CLUSTER}"}`);
      const alerts = pending.data.result
        .map((s) => `${s.metric.alertname} ${s.metric.request_type ?? ""}`.trim())
        .sort();
      // CU capacity 88% (> 70%), search and all failures 10% and 1/12 (> 5%); CU computation 42% is fine.
      expect(alerts).toEqual([
        "VdbcloudCuCapacityHigh",
        "VdbcloudRequestFailureRatioHigh all",
        "VdbcloudRequestFailureRatioHigh search",
      ]);
    },
  );
});
