import { request } from "undici";
import { describe, expect, it } from "vitest";
import { parseSamples } from "../../test/helpers/harness.js";
import { MINUTE } from "../../test/helpers/time.js";
import { type Simulator, startSimulator } from "./index.js";
import { buildProfile } from "./metric-values.js";
import {
  ENTERPRISE_ONLY_CODE,
  ENTERPRISE_ONLY_MESSAGE,
  NATIVE_EXPORT_TEMPLATE,
  NATIVE_FAMILIES,
} from "./native-export.js";
import { NativeScrapeGuard } from "./native-guard.js";
import { NATIVE_GAUGE_GRANULARITY_MS, newestGaugeBucket, trafficSeconds } from "./native-values.js";
import { simulatorPerSuite } from "./testkit.js";

const T0 = Date.UTC(2025, 4, 1, 12, 0, 17);

async function scrape(sim: Simulator, clusterId: string, key = "k") {
  const res = await request(`${sim.baseUrl}/v2/clusters/${clusterId}/metrics/export`, {
    headers: key === "" ? {} : { authorization: `Bearer ${key}` },
  });
  return { status: res.statusCode, type: String(res.headers["content-type"]), text: await res.body.text() };
}

describe("the service's own Prometheus endpoint", () => {
  let sim: Simulator;
  let now = T0;
  let enterprise: string;
  let standard: string;
  simulatorPerSuite(
    { now: () => now, rateLimitPerSecond: 0, clusters: 10, nativeHistogramSumCount: false },
    (s) => {
      sim = s;
      enterprise = s.clusters.find((c) => c.plan === "Enterprise" && c.status === "RUNNING")?.id ?? "";
      standard = s.clusters.find((c) => c.plan === "Standard")?.id ?? "";
    },
  );

  it("serves an Enterprise cluster's thirteen families, every series with cluster_id, org_id, project_id", async () => {
    now = T0;
    const res = await scrape(sim, enterprise);
    expect(res.status).toBe(200);
    expect(res.type).toBe("text/plain; version=0.0.4; charset=utf-8");
    const types = [...res.text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(types).toHaveLength(13);
    expect(NATIVE_FAMILIES).toHaveLength(13);
    // As the documentation's sample declares it, and without _sum or _count.
    expect(res.text).toContain("# TYPE zilliz_request_duration_seconds_bucket histogram\n");
    expect(res.text).not.toMatch(/_sum|_count/);
    const cluster = sim.clusters.find((c) => c.id === enterprise);
    const all = parseSamples(res.text);
    for (const s of all) {
      expect(s.labels).toMatchObject({ cluster_id: enterprise, project_id: cluster?.projectId });
      expect(s.labels.org_id).toMatch(/^org-[0-9a-f]{16}$/);
    }
    const names = new Set(all.map((s) => s.name));
    for (const family of NATIVE_FAMILIES) expect(names, family).toContain(family);
    const requests = all.filter((s) => s.name === "zilliz_requests_total");
    expect(new Set(requests.map((s) => s.labels.status))).toEqual(new Set(["success", "fail"]));
    expect(new Set(requests.map((s) => s.labels.request_type))).toEqual(
      new Set([
        "insert",
        "upsert",
        "delete",
        "flush",
        "search",
        "query",
        ...(requests.some((s) => s.labels.request_type === "bulk_insert") ? ["bulk_insert"] : []),
      ]),
    );
    // Per collection: every collection of the cluster.
    const entities = all.filter((s) => s.name === "zilliz_entities").map((s) => s.labels.collection_name);
    expect(entities.sort()).toEqual(cluster?.collections.map((c) => c.collectionName).sort());
    for (const ratio of [
      "zilliz_cluster_computation",
      "zilliz_cluster_capacity",
      "zilliz_cluster_write_capacity",
    ]) {
      const v = all.find((s) => s.name === ratio)?.value ?? Number.NaN;
      expect(v, ratio).toBeGreaterThan(0);
      expect(v, ratio).toBeLessThan(1);
    }
  });

  it("serves entities, loaded and indexed entities per collection, labelled by collection_name and no db_name", async () => {
    now = T0 + 5 * MINUTE;
    const all = parseSamples((await scrape(sim, enterprise)).text);
    const cluster = sim.clusters.find((c) => c.id === enterprise);
    const of = (name: string) => all.filter((s) => s.name === name);
    const entities = new Map(of("zilliz_entities").map((s) => [s.labels.collection_name, s.value]));
    for (const family of ["zilliz_entities", "zilliz_loaded_entities", "zilliz_indexed_entities"]) {
      const series = of(family);
      expect(series.length, family).toBe(cluster?.collections.length);
      for (const s of series) {
        expect(Object.keys(s.labels).sort(), family).toEqual([
          "cluster_id",
          "collection_name",
          "org_id",
          "project_id",
        ]);
      }
    }
    // A collection cannot have indexed more entities than it holds.
    for (const s of of("zilliz_indexed_entities")) {
      expect(s.value, s.labels.collection_name).toBeLessThanOrEqual(
        entities.get(s.labels.collection_name) ?? Number.NaN,
      );
    }
  });

  it("keeps counters growing and histogram buckets cumulative from one scrape to the next", async () => {
    now = T0 + 10 * MINUTE;
    const first = parseSamples((await scrape(sim, enterprise)).text);
    now += MINUTE;
    const second = parseSamples((await scrape(sim, enterprise)).text);
    const key = (s: { name: string; labels: Record<string, string> }) =>
      `${s.name}${JSON.stringify(s.labels)}`;
    const before = new Map(first.map((s) => [key(s), s.value]));
    const counters = second.filter((s) => /_total$|_bucket$/.test(s.name));
    expect(counters.length).toBeGreaterThan(20);
    for (const s of counters)
      expect(s.value, key(s)).toBeGreaterThanOrEqual(before.get(key(s)) ?? Number.NaN);
    const search = (xs: typeof first) =>
      xs.find(
        (s) =>
          s.name === "zilliz_requests_total" &&
          s.labels.request_type === "search" &&
          s.labels.status === "success",
      )?.value ?? 0;
    expect(search(second)).toBeGreaterThan(search(first));
    const buckets = second.filter(
      (s) => s.name === "zilliz_request_duration_seconds_bucket" && s.labels.request_type === "search",
    );
    expect(buckets.at(-1)?.labels.le).toBe("+Inf");
    for (let i = 1; i < buckets.length; i++)
      expect(buckets[i]?.value).toBeGreaterThanOrEqual(buckets[i - 1]?.value ?? 0);
    const total =
      search(second) +
      (second.find(
        (s) =>
          s.name === "zilliz_requests_total" &&
          s.labels.request_type === "search" &&
          s.labels.status === "fail",
      )?.value ?? 0);
    expect(Math.abs((buckets.at(-1)?.value ?? 0) - total)).toBeLessThanOrEqual(1);
  });

  it("gives the same ratios and entities as Query Cluster Metrics at PT1M for the same cluster", async () => {
    now = T0 + 30 * MINUTE;
    const native = parseSamples((await scrape(sim, enterprise)).text);
    const cluster = sim.clusters.find((c) => c.id === enterprise);
    if (cluster === undefined) throw new Error("no cluster");
    const t = newestGaugeBucket(buildProfile(1, cluster), now);
    const res = await request(`${sim.baseUrl}/v2/clusters/${enterprise}/metrics/query`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({
        start: new Date(t).toISOString(),
        end: new Date(t + NATIVE_GAUGE_GRANULARITY_MS).toISOString(),
        granularity: "PT1M",
        metricQueries: [
          { name: "CU_COMPUTATION", stat: "AVG" },
          { name: "CU_CAPACITY", stat: "AVG" },
          { name: "STORAGE_USE", stat: "AVG" },
        ],
      }),
    });
    const answered = (
      (await res.body.json()) as { data: { results: { name: string; values: { value: string | null }[] }[] } }
    ).data.results;
    const value = (name: string) => Number(answered.find((r) => r.name === name)?.values[0]?.value);
    const gauge = (name: string) => native.find((s) => s.name === name)?.value;
    expect(gauge("zilliz_cluster_computation")).toBe(value("CU_COMPUTATION") / 100);
    expect(gauge("zilliz_cluster_capacity")).toBe(value("CU_CAPACITY") / 100);
    expect(gauge("zilliz_storage_bytes")).toBe(value("STORAGE_USE") * 1e9);
  });

  it("refuses a scrape of the same cluster and key closer than 60 s, with 1 s of tolerance, and counts it", async () => {
    now = T0 + 60 * MINUTE;
    sim.stats.reset();
    expect((await scrape(sim, enterprise)).status).toBe(200);
    now += 30_000;
    const early = await scrape(sim, enterprise);
    expect(early.status).toBe(429);
    expect(JSON.parse(early.text)).toMatchObject({
      message: expect.stringContaining("at most once every 60 s"),
    });
    // Another key is another scraper.
    expect((await scrape(sim, enterprise, "other-key")).status).toBe(200);
    now += 29_000; // 59 s after the last one served: within the tolerance
    expect((await scrape(sim, enterprise)).status).toBe(200);
    now += 60_000;
    expect((await scrape(sim, enterprise)).status).toBe(200);
    expect(sim.stats.nativeScrapesRefused).toEqual({ [enterprise]: 1 });
    expect(sim.stats.byEndpointCluster[NATIVE_EXPORT_TEMPLATE]?.[enterprise]).toBe(5);
  });

  it("refuses a cluster of another plan with the catalogue's 96028, and a missing key as the API does", async () => {
    now = T0 + 120 * MINUTE;
    const std = await scrape(sim, standard);
    expect(JSON.parse(std.text)).toEqual({ code: ENTERPRISE_ONLY_CODE, message: ENTERPRISE_ONLY_MESSAGE });
    expect(JSON.parse((await scrape(sim, enterprise, "")).text)).toMatchObject({ code: 80001 });
    expect(JSON.parse((await scrape(sim, "in01-nope")).text)).toMatchObject({ code: 80020 });
  });

  it("declares every family but has no series while the cluster reports no metrics (stopped)", async () => {
    now = T0 + 130 * MINUTE;
    const stopped = sim.state.addCluster({ plan: "Enterprise", status: "STOPPED" });
    const res = await scrape(sim, stopped);
    expect(res.status).toBe(200);
    expect(parseSamples(res.text)).toEqual([]);
    expect(res.text.match(/^# TYPE /gm)).toHaveLength(13);
  });
});

describe("the endpoint's options and guard", () => {
  it("adds _sum and _count of the histogram when asked", async () => {
    const sim = await startSimulator({ now: () => T0, clusters: 4, nativeHistogramSumCount: true });
    try {
      const id = sim.clusters.find((c) => c.plan === "Enterprise")?.id ?? "";
      const all = parseSamples((await scrape(sim, id)).text);
      const count = all.find(
        (s) => s.name === "zilliz_request_duration_seconds_count" && s.labels.request_type === "search",
      );
      const inf = all.find(
        (s) =>
          s.name === "zilliz_request_duration_seconds_bucket" &&
          s.labels.request_type === "search" &&
          s.labels.le === "+Inf",
      );
      expect(count?.value).toBe(inf?.value);
      const sum = all.find(
        (s) => s.name === "zilliz_request_duration_seconds_sum" && s.labels.request_type === "search",
      );
      expect((sum?.value ?? 0) / (count?.value ?? 1)).toBeGreaterThan(0.001);
    } finally {
      await sim.close();
    }
  });

  it.each([
    [0, true],
    [58_999, false],
    [59_000, true],
    [60_000, true],
  ])("a scrape %d ms after the last one served: admitted %s", (after, admitted) => {
    const refused: string[] = [];
    const guard = new NativeScrapeGuard((id) => refused.push(id));
    expect(guard.admit("c", "k", T0)).toBe(true);
    if (after === 0) {
      expect(guard.admit("d", "k", T0)).toBe(true);
      return;
    }
    expect(guard.admit("c", "k", T0 + after)).toBe(admitted);
    expect(refused).toEqual(admitted ? [] : ["c"]);
  });

  it("counts traffic that only grows, from the cluster's creation", async () => {
    const sim = await startSimulator({ now: () => T0, clusters: 6 });
    try {
      for (const c of sim.clusters) {
        const p = buildProfile(1, c);
        expect(trafficSeconds(p, c.createTimeMs)).toBe(0);
        let last = 0;
        for (let t = c.createTimeMs; t < c.createTimeMs + 3 * 86_400_000; t += 3_600_000) {
          const v = trafficSeconds(p, t);
          expect(v).toBeGreaterThanOrEqual(last);
          last = v;
        }
      }
    } finally {
      await sim.close();
    }
  });
});

describe("clusters added and removed by a test", () => {
  it("an added cluster is listed, described and served; a removed one is gone", async () => {
    let now = T0;
    const sim = await startSimulator({ now: () => now, clusters: 3, rateLimitPerSecond: 0 });
    try {
      const list = async () => {
        const res = await request(`${sim.baseUrl}/v2/clusters?pageSize=100`, {
          headers: { authorization: "Bearer k" },
        });
        return ((await res.body.json()) as { data: { clusters: { clusterId: string; plan: string }[] } }).data
          .clusters;
      };
      const added = sim.state.addCluster({ name: "new-rag" });
      expect((await list()).find((c) => c.clusterId === added)).toMatchObject({ plan: "Enterprise" });
      expect(sim.clusters.map((c) => c.id)).toContain(added);
      expect((await scrape(sim, added)).status).toBe(200);
      expect(() => sim.state.addCluster({ id: added })).toThrow(/cluster exists/);
      sim.state.removeCluster(added);
      now += MINUTE;
      expect((await list()).map((c) => c.clusterId)).not.toContain(added);
      expect(JSON.parse((await scrape(sim, added)).text)).toMatchObject({ code: 80020 });
      expect(() => sim.state.removeCluster(added)).toThrow(/unknown cluster/);
    } finally {
      await sim.close();
    }
  });
});
