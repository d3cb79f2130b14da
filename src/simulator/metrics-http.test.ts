import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { ApiCode, FIRST_FORM_NAMES, SECOND_FORM_NAMES, type Simulator, startSimulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";

const T0 = Date.UTC(2025, 4, 1, 12, 0, 17);
const MIN = 60_000;

interface Result {
  name: string;
  stat?: string;
  unit: string;
  values: Array<{ timestamp: string; value: string | null }>;
}

async function query(
  sim: Simulator,
  clusterId: string,
  body: unknown,
): Promise<{ code: number; message?: string; results: Result[] }> {
  const res = await request(`${sim.baseUrl}/v2/clusters/${clusterId}/metrics/query`, {
    method: "POST",
    headers: { authorization: "Bearer k", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.body.json()) as { code: number; message?: string; data?: { results: Result[] } };
  return {
    code: json.code,
    ...(json.message === undefined ? {} : { message: json.message }),
    results: json.data?.results ?? [],
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

describe("Query Cluster Metrics", () => {
  let sim: Simulator;
  let running: string;
  let hot: string;
  let stopped: string;

  // The permissive catalog: every name either form was ever seen with (the current and 2024
  // catalogs have their own suite below).
  simulatorPerSuite(
    { now: () => T0, rateLimitPerSecond: 0, clusters: 12, metricCatalog: "permissive" },
    (s) => {
      sim = s;
      hot = s.clusters.find((c) => c.hot)?.id ?? "";
      running = s.clusters.find((c) => !c.hot && c.status === "RUNNING")?.id ?? "";
      stopped = s.clusters.find((c) => c.status === "STOPPED")?.id ?? "";
    },
  );

  it("answers the second form for every documented name with its unit", async () => {
    const a = await query(sim, running, {
      start: iso(T0 - 60 * MIN),
      end: iso(T0),
      granularity: "PT1M",
      metricQueries: SECOND_FORM_NAMES.map((name) => ({ name })),
    });
    expect(a.code).toBe(0);
    expect(a.results.map((r) => r.name)).toEqual(SECOND_FORM_NAMES);
    const unit = (n: string) => a.results.find((r) => r.name === n)?.unit;
    expect(unit("CU_COMPUTATION")).toBe("percent");
    expect(unit("CLUSTER_WRITE_CAPACITY")).toBe("percent");
    expect(unit("REQ_FAIL_RATE_SEARCH")).toBe("percent");
    expect(unit("STORAGE_USE")).toBe("GB");
    expect(unit("REQ_SEARCH_LATENCY_P99")).toBe("ms");
    expect(unit("SLOW_QUERY_COUNT")).toBe("count/min");
    expect(unit("REQ_SEARCH_COUNT")).toBe("count/min");
    expect(unit("ENTITIES_COUNT")).toBe("count");
    expect(unit("READ_VCU")).toBe("count");
    for (const r of a.results) expect(r).not.toHaveProperty("stat");
  });

  it("answers the first form with stat echoed, accepting `metricName` too", async () => {
    const a = await query(sim, running, {
      period: "PT10M",
      granularity: "PT1M",
      metricQueries: [
        ...FIRST_FORM_NAMES.map((name) => ({ name, stat: "AVG" })),
        { metricName: "REQ_SEARCH_LATENCY", stat: "P99" },
      ],
    });
    expect(a.code).toBe(0);
    expect(a.results).toHaveLength(FIRST_FORM_NAMES.length + 1);
    expect(a.results.at(-1)).toMatchObject({ name: "REQ_SEARCH_LATENCY", stat: "P99", unit: "ms" });
    const unit = (n: string) => a.results.find((r) => r.name === n)?.unit;
    expect(unit("ENTITIES_INSERT_RATE")).toBe("count/s");
    expect(unit("REQ_SUCCESS_RATE")).toBe("percent");
  });

  it("returns one bucket per granularity step, aligned to granularity boundaries", async () => {
    const start = Date.UTC(2025, 4, 1, 11, 0, 20);
    const end = Date.UTC(2025, 4, 1, 11, 5, 0);
    const a = await query(sim, running, {
      start: iso(start),
      end: iso(end),
      granularity: "PT1M",
      metricQueries: [{ name: "CU_COMPUTATION" }],
    });
    expect(a.results[0]?.values.map((v) => v.timestamp)).toEqual([
      "2025-05-01T11:00:00Z",
      "2025-05-01T11:01:00Z",
      "2025-05-01T11:02:00Z",
      "2025-05-01T11:03:00Z",
      "2025-05-01T11:04:00Z",
    ]);
    const b = await query(sim, running, {
      period: "PT1H",
      granularity: "PT5M",
      metricQueries: [{ name: "CU_COMPUTATION" }],
    });
    const stamps = b.results[0]?.values.map((v) => Date.parse(v.timestamp)) ?? [];
    expect(stamps).toHaveLength(13);
    for (const t of stamps) expect(t % (5 * MIN)).toBe(0);
  });

  it("leaves the newest bucket null (data lag) and fills older ones with strings", async () => {
    const a = await query(sim, running, {
      period: "PT10M",
      granularity: "PT1M",
      metricQueries: [{ name: "CU_COMPUTATION" }],
    });
    const values = a.results[0]?.values.map((v) => v.value) ?? [];
    expect(values.at(-1)).toBeNull();
    expect(values.slice(0, 5).every((v) => typeof v === "string")).toBe(true);
  });

  it("is deterministic for the same seed and differs for another seed", async () => {
    const body = {
      start: iso(T0 - 30 * MIN),
      end: iso(T0),
      granularity: "PT1M",
      metricQueries: [{ name: "REQ_SEARCH_LATENCY_AVG" }],
    };
    const twin = await startSimulator({ now: () => T0, clusters: 12, metricCatalog: "permissive" });
    const other = await startSimulator({ now: () => T0, clusters: 12, seed: 2, metricCatalog: "permissive" });
    try {
      const mine = await query(sim, running, body);
      expect(await query(twin, running, body)).toEqual(mine);
      const otherId = other.clusters.find((c) => !c.hot && c.status === "RUNNING")?.id ?? "";
      expect((await query(other, otherId, body)).results).not.toEqual(mine.results);
    } finally {
      await twin.close();
      await other.close();
    }
  });

  it("keeps the hot cluster above 85% CU and P99 above AVG", async () => {
    const a = await query(sim, hot, {
      start: iso(T0 - 24 * 60 * MIN),
      end: iso(T0 - 10 * MIN),
      granularity: "PT30M",
      metricQueries: [
        { name: "CU_COMPUTATION" },
        { name: "REQ_SEARCH_LATENCY_AVG" },
        { name: "REQ_SEARCH_LATENCY_P99" },
      ],
    });
    // The newest bucket may still be inside the data lag: keep the buckets that have data.
    const [cu, avg, p99] = a.results.map((r) => r.values.slice(0, -1).map((v) => Number(v.value)));
    expect(cu?.length).toBe(47);
    for (const v of cu ?? []) expect(v).toBeGreaterThan(85);
    for (const [i, v] of (avg ?? []).entries()) expect(p99?.[i]).toBeGreaterThan(v);
  });

  it("returns all-null values for a stopped cluster and for bulk inserts on some clusters", async () => {
    const body = {
      period: "PT10M",
      granularity: "PT1M",
      metricQueries: [{ name: "CU_COMPUTATION" }, { name: "REQ_BULK_INSERT_COUNT" }],
    };
    const s = await query(sim, stopped, body);
    expect(s.code).toBe(0);
    expect(s.results.flatMap((r) => r.values.map((v) => v.value)).every((v) => v === null)).toBe(true);
    const allNullBulk = [];
    for (const c of sim.clusters.filter((x) => x.status === "RUNNING")) {
      const r = await query(sim, c.id, body);
      allNullBulk.push(r.results[1]?.values.every((v) => v.value === null));
    }
    expect(allNullBulk).toContain(true);
    expect(allNullBulk).toContain(false);
  });

  it("makes a metric all-null on request of a test", async () => {
    const body = { period: "PT10M", granularity: "PT1M", metricQueries: [{ name: "ENTITIES_COUNT" }] };
    sim.state.setMetricNull(running, "ENTITIES_COUNT");
    const a = await query(sim, running, body);
    expect(a.results[0]?.values.every((v) => v.value === null)).toBe(true);
    sim.state.setMetricNull(running, "ENTITIES_COUNT", false);
    const b = await query(sim, running, body);
    expect(b.results[0]?.values.some((v) => v.value !== null)).toBe(true);
  });

  it("answers a collection scope with a share of the cluster's entities", async () => {
    const cluster = sim.clusters.find((c) => c.id === running);
    const col = cluster?.collections[0];
    if (!col) throw new Error("no collection");
    const body = { start: iso(T0 - 10 * MIN), end: iso(T0 - 5 * MIN), granularity: "PT1M" };
    const whole = await query(sim, running, { ...body, metricQueries: [{ name: "ENTITIES_COUNT" }] });
    const scoped = await query(sim, running, {
      ...body,
      dbName: col.dbName,
      collectionName: col.collectionName,
      metricQueries: [{ name: "ENTITIES_COUNT" }, { name: "CU_COMPUTATION" }],
    });
    expect(scoped.code).toBe(0);
    const w = Number(whole.results[0]?.values[0]?.value);
    const s = Number(scoped.results[0]?.values[0]?.value);
    expect(s).toBeGreaterThan(0);
    expect(s).toBeLessThan(w);
    // A cluster-wide metric has no per-collection data.
    expect(scoped.results[1]?.values.every((v) => v.value === null)).toBe(true);
  });

  it.each([
    ["an unknown metric", { metricQueries: [{ name: "NOPE" }] }, ApiCode.UNKNOWN_METRIC],
    [
      "P99 on a non-latency metric",
      { metricQueries: [{ name: "CU_COMPUTATION", stat: "P99" }] },
      ApiCode.UNKNOWN_METRIC,
    ],
    [
      "a first-form-only name without stat",
      { metricQueries: [{ name: "REQ_SEARCH_LATENCY" }] },
      ApiCode.UNKNOWN_METRIC,
    ],
    [
      "a second-form latency name with stat",
      { metricQueries: [{ name: "REQ_SEARCH_LATENCY_P99", stat: "P99" }] },
      ApiCode.UNKNOWN_METRIC,
    ],
    ["granularity below PT30S", { granularity: "PT10S" }, ApiCode.INVALID_PARAMETER],
    ["no granularity", { granularity: undefined }, ApiCode.INVALID_PARAMETER],
    ["start without end", { period: undefined, start: iso(T0 - MIN) }, ApiCode.INVALID_PARAMETER],
    ["no window at all", { period: undefined }, ApiCode.INVALID_PARAMETER],
    ["an empty query list", { metricQueries: [] }, ApiCode.INVALID_PARAMETER],
    ["an unknown collection", { dbName: "default", collectionName: "nope" }, ApiCode.COLLECTION_NOT_FOUND],
    ["an unknown database", { dbName: "nope" }, ApiCode.COLLECTION_NOT_FOUND],
    [
      "stat with a scope",
      { dbName: "default", metricQueries: [{ name: "CU_COMPUTATION", stat: "AVG" }] },
      ApiCode.INVALID_PARAMETER,
    ],
  ])("refuses %s", async (_label, override, code) => {
    const body = {
      period: "PT5M",
      granularity: "PT1M",
      metricQueries: [{ name: "CU_COMPUTATION" }],
      ...override,
    };
    const a = await query(sim, running, body);
    expect(a.code).toBe(code);
    expect(a.message).toEqual(expect.any(String));
  });

  it("answers 80020 for an unknown cluster", async () => {
    const a = await query(sim, "in01-0000000000000000", {
      period: "PT5M",
      granularity: "PT1M",
      metricQueries: [{ name: "CU_COMPUTATION" }],
    });
    expect(a.code).toBe(ApiCode.CLUSTER_NOT_FOUND_V2);
  });

  it("accepts mixed forms unless rejectMixedMetricForms is set", async () => {
    const body = {
      period: "PT5M",
      granularity: "PT1M",
      metricQueries: [{ name: "CU_COMPUTATION" }, { name: "CU_COMPUTATION", stat: "AVG" }],
    };
    expect((await query(sim, running, body)).code).toBe(0);
    const strict = await startSimulator({
      now: () => T0,
      rejectMixedMetricForms: true,
      metricCatalog: "permissive",
    });
    try {
      const id = strict.clusters[1]?.id ?? "";
      expect((await query(strict, id, body)).code).toBe(ApiCode.INVALID_PARAMETER);
    } finally {
      await strict.close();
    }
  });
});

describe("Query Cluster Metrics by reference", () => {
  const window = { start: iso(T0 - 10 * MIN), end: iso(T0), granularity: "PT1M" };
  const CURRENT = SECOND_FORM_NAMES.map((name) => ({ name }));
  const sims: Simulator[] = [];
  async function sim(opts: Parameters<typeof startSimulator>[0]): Promise<Simulator> {
    const s = await startSimulator({ now: () => T0, rateLimitPerSecond: 0, clusters: 12, ...opts });
    sims.push(s);
    return s;
  }
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.close()));
  });
  const byPlan = (s: Simulator, plan: string) =>
    s.clusters.find((c) => c.plan === plan && c.status === "RUNNING")?.id ?? "";

  it.each<
    [what: string, catalog: "current" | "2024", stat: "ignored" | "refused", body: unknown[], code: number]
  >([
    ["current: the 40 names, name only", "current", "ignored", CURRENT, 0],
    ["current: a stray stat ignored", "current", "ignored", [{ name: "CU_CAPACITY", stat: "AVG" }], 0],
    [
      "current: a stray stat refused",
      "current",
      "refused",
      [{ name: "CU_CAPACITY", stat: "AVG" }],
      ApiCode.INVALID_METRIC,
    ],
    [
      "current: one 2024-only name refuses the batch",
      "current",
      "ignored",
      [...CURRENT, { name: "REQ_SUCCESS_RATE", stat: "AVG" }],
      ApiCode.INVALID_METRIC,
    ],
    [
      "current: a 2024 latency name is unknown",
      "current",
      "ignored",
      [{ name: "REQ_SEARCH_LATENCY", stat: "P99" }],
      ApiCode.INVALID_METRIC,
    ],
    [
      "2024: a name and a stat",
      "2024",
      "ignored",
      [
        { name: "REQ_SEARCH_LATENCY", stat: "P99" },
        { name: "REQ_SUCCESS_RATE", stat: "AVG" },
      ],
      0,
    ],
    ["2024: name only refused", "2024", "ignored", [{ name: "CU_CAPACITY" }], ApiCode.INVALID_METRIC],
    [
      "2024: a current-only name refused",
      "2024",
      "ignored",
      [{ name: "READ_VCU", stat: "AVG" }],
      ApiCode.INVALID_METRIC,
    ],
  ])("%s", async (_what, metricCatalog, metricStat, metricQueries, code) => {
    const s = await sim({ metricCatalog, metricStat });
    const a = await query(s, byPlan(s, "Enterprise"), { ...window, metricQueries });
    expect(a.code).toBe(code);
    if (code === 0) expect(a.results).toHaveLength(metricQueries.length);
  });

  it("current: a name the cluster's plan lacks answers all-null, the rest have data", async () => {
    const s = await sim({ metricCatalog: "current" });
    const valued = async (clusterId: string) => {
      const a = await query(s, clusterId, { ...window, metricQueries: CURRENT });
      expect(a.code).toBe(0);
      return new Set(a.results.filter((r) => r.values.some((v) => v.value !== null)).map((r) => r.name));
    };
    const enterprise = await valued(byPlan(s, "Enterprise"));
    const standard = await valued(byPlan(s, "Standard"));
    for (const name of [
      "CLUSTER_WRITE_CAPACITY",
      "SLOW_QUERY_COUNT",
      "FLUSH_COUNT",
      "UNLOADED_COLLECTIONS_COUNT",
    ]) {
      expect(enterprise.has(name), name).toBe(true);
      expect(standard.has(name), name).toBe(false);
    }
    expect(enterprise.has("READ_VCU")).toBe(false);
    expect(standard.has("CU_COMPUTATION")).toBe(true);
  });
});
