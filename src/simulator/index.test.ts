import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { ApiCode, type RequestDone, type Simulator, startSimulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: Record<string, unknown>;
}

async function call(
  url: string,
  init: { method?: "GET" | "POST" | "DELETE" | "PUT" | "PATCH"; body?: unknown; key?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? "test-key"}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await request(url, {
    method: init.method ?? "GET",
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    json: (await res.body.json()) as Record<string, unknown>,
  };
}

function data<T = Record<string, unknown>>(a: Answer): T {
  return a.json.data as T;
}

describe("simulator endpoints", () => {
  let sim: Simulator;
  let clock = T0;

  simulatorPerSuite({ now: () => clock, rateLimitPerSecond: 0 }, (s) => {
    sim = s;
  });
  afterEach(() => {
    clock = T0;
  });

  it("generates six clusters with deterministic IDs, one hot, one creating and one stopped", async () => {
    expect(sim.clusters).toHaveLength(6);
    for (const c of sim.clusters) expect(c.id).toMatch(/^in01-[0-9a-f]{16}$/);
    expect(sim.clusters.filter((c) => c.hot)).toHaveLength(1);
    expect(sim.clusters.map((c) => c.status).filter((s) => s !== "RUNNING")).toEqual(["CREATING", "STOPPED"]);
    const again = await startSimulator({ now: () => T0 });
    try {
      expect(again.clusters.map((c) => c.id)).toEqual(sim.clusters.map((c) => c.id));
    } finally {
      await again.close();
    }
  });

  it("describes a cluster (v2, code 0)", async () => {
    const c = sim.clusters[0];
    if (!c) throw new Error("no cluster");
    const a = await call(`${sim.baseUrl}/v2/clusters/${c.id}`);
    expect(a.status).toBe(200);
    expect(a.json.code).toBe(0);
    expect(data(a)).toMatchObject({
      clusterId: c.id,
      clusterName: c.name,
      projectId: c.projectId,
      regionId: c.regionId,
      cuType: c.cuType,
      plan: c.plan,
      status: "RUNNING",
      cuSize: c.cuSize,
      connectAddress: expect.stringContaining(c.id),
      createTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
  });

  it("answers 80020 for an unknown cluster on v2 and 96018 on v1", async () => {
    const v2 = await call(`${sim.baseUrl}/v2/clusters/in01-ffffffffffffffff`);
    expect(v2.status).toBe(200);
    expect(v2.json).toEqual({ code: ApiCode.CLUSTER_NOT_FOUND_V2, message: expect.any(String) });
    const v1 = await call(`${sim.baseUrl}/v1/vector/collections/import/list?clusterId=in01-ffffffffffffffff`);
    expect(v1.json.code).toBe(ApiCode.CLUSTER_NOT_FOUND_V1);
  });

  it("lists clusters as an object with pagination and filters", async () => {
    const page1 = data<{ count: number; currentPage: number; pageSize: number; clusters: unknown[] }>(
      await call(`${sim.baseUrl}/v2/clusters?pageSize=4&currentPage=1`),
    );
    expect(page1).toMatchObject({ count: 6, currentPage: 1, pageSize: 4 });
    expect(page1.clusters).toHaveLength(4);
    const page2 = data<{ clusters: Array<{ clusterId: string }> }>(
      await call(`${sim.baseUrl}/v2/clusters?pageSize=4&currentPage=2`),
    );
    expect(page2.clusters.map((c) => c.clusterId)).toEqual(sim.clusters.slice(4).map((c) => c.id));

    const region = sim.clusters[0]?.regionId ?? "";
    const filtered = data<{ count: number; clusters: Array<{ regionId: string }> }>(
      await call(`${sim.baseUrl}/v2/clusters?regionId=${region}`),
    );
    expect(filtered.count).toBe(sim.clusters.filter((c) => c.regionId === region).length);
    expect(filtered.clusters.every((c) => c.regionId === region)).toBe(true);

    const project = sim.projects[0]?.id ?? "";
    const byProject = data<{ count: number }>(await call(`${sim.baseUrl}/v2/clusters?projectId=${project}`));
    expect(byProject.count).toBe(sim.clusters.filter((c) => c.projectId === project).length);
  });

  it.each(["0", "101", "x"])("refuses List Clusters pageSize %s", async (size) => {
    const a = await call(`${sim.baseUrl}/v2/clusters?pageSize=${size}`);
    expect(a.json.code).toBe(ApiCode.INVALID_PARAMETER);
  });

  it("lists clusters as a bare array when configured", async () => {
    const arr = await startSimulator({ listClustersShape: "array", now: () => T0 });
    try {
      const a = await call(`${arr.baseUrl}/v2/clusters?pageSize=100`);
      expect(Array.isArray(a.json.data)).toBe(true);
      expect(data<unknown[]>(a)).toHaveLength(6);
    } finally {
      await arr.close();
    }
  });

  it("lists regions with a cloudId filter and its own host as domain", async () => {
    const all = data<Array<{ cloudId: string; regionId: string; domain: string }>>(
      await call(`${sim.baseUrl}/v2/regions`),
    );
    expect(all.length).toBeGreaterThan(3);
    expect(all[0]?.domain).toBe(new URL(sim.baseUrl).host);
    const gcp = data<Array<{ cloudId: string }>>(await call(`${sim.baseUrl}/v2/regions?cloudId=gcp`));
    expect(gcp.length).toBeGreaterThan(0);
    expect(gcp.every((r) => r.cloudId === "gcp")).toBe(true);
  });

  it("lists projects on v1 with code 200, at the controller URL and at the root", async () => {
    const region = sim.regions[0]?.regionId ?? "";
    const viaController = await call(`${sim.controllerUrlTemplate.replace("{region}", region)}/v1/projects`);
    expect(viaController.json.code).toBe(200);
    const projects = data<Array<Record<string, unknown>>>(viaController);
    expect(projects).toHaveLength(sim.projects.length);
    expect(projects[0]).toEqual({
      createTimeMilli: expect.any(Number),
      instanceCount: sim.projects[0]?.clusterIds.length,
      projectId: sim.projects[0]?.id,
      projectName: sim.projects[0]?.name,
    });
    const viaRoot = await call(`${sim.baseUrl}/v1/projects`);
    expect(viaRoot.json).toEqual(viaController.json);
  });

  it("lists import jobs under `records` for some clusters and `tasks` for others", async () => {
    const keys = new Set<string>();
    for (const c of sim.clusters) {
      const url = `${sim.controllerUrlTemplate.replace("{region}", c.regionId)}/v1/vector/collections/import/list?clusterId=${c.id}&pageSize=100&currentPage=1`;
      const d = data(await call(url));
      const key = "records" in d ? "records" : "tasks";
      keys.add(key);
      expect(d).toMatchObject({ count: 8, currentPage: 1, pageSize: 100 });
      const list = d[key] as Array<Record<string, unknown>>;
      expect(list).toHaveLength(8);
      for (const job of list) {
        expect(Object.keys(job).sort()).toEqual(["collectionName", "jobId", "state"]);
        expect(["ImportPending", "ImportRunning", "ImportCompleted", "ImportFailed"]).toContain(job.state);
      }
    }
    expect([...keys].sort()).toEqual(["records", "tasks"]);
  });

  it("pages import jobs and validates pageSize 5..100", async () => {
    const c = sim.clusters[1];
    if (!c) throw new Error("no cluster");
    const base = `${sim.baseUrl}/v1/vector/collections/import/list?clusterId=${c.id}`;
    const p1 = data(await call(`${base}&pageSize=5&currentPage=1`));
    const p2 = data(await call(`${base}&pageSize=5&currentPage=2`));
    const list = (d: Record<string, unknown>) => d[c.importListKey] as Array<{ jobId: string }>;
    expect(list(p1)).toHaveLength(5);
    expect(list(p2)).toHaveLength(3);
    expect(list(p2).map((j) => j.jobId)).toEqual(
      sim.state
        .importJobs(c.id)
        .slice(5)
        .map((j) => j.jobId),
    );
    for (const bad of ["4", "101", "abc"]) {
      expect((await call(`${base}&pageSize=${bad}`)).json.code).toBe(ApiCode.INVALID_PARAMETER);
    }
    expect((await call(`${sim.baseUrl}/v1/vector/collections/import/list`)).json.code).toBe(
      ApiCode.INVALID_PARAMETER,
    );
  });

  it("refuses an import listing asked of another region's controller", async () => {
    const c = sim.clusters[0];
    const other = sim.regions.find((r) => r.regionId !== c?.regionId)?.regionId ?? "";
    const a = await call(
      `${sim.controllerUrlTemplate.replace("{region}", other)}/v1/vector/collections/import/list?clusterId=${c?.id}`,
    );
    expect(a.json.code).toBe(ApiCode.CLUSTER_NOT_FOUND_V1);
  });

  it("describes a Spark job with every field of the spec", async () => {
    const ref = sim.state.sparkJobRefs[0];
    if (!ref) throw new Error("no job");
    const a = await call(`${sim.baseUrl}/v2/projects/${ref.projectId}/jobs/${ref.jobId}`);
    expect(a.json.code).toBe(0);
    expect(Object.keys(data(a)).sort()).toEqual(
      [
        "artifact",
        "clusterId",
        "createdAt",
        "description",
        "details",
        "durationSeconds",
        "failureReason",
        "finishedAt",
        "jobId",
        "precheckReport",
        "projectId",
        "regionId",
        "startedAt",
        "status",
        "submittedAt",
        "type",
      ].sort(),
    );
    expect(data(a)).toMatchObject({ jobId: ref.jobId, projectId: ref.projectId });
    const missing = await call(`${sim.baseUrl}/v2/projects/${ref.projectId}/jobs/job-nope`);
    expect(missing.json.code).toBe(ApiCode.JOB_NOT_FOUND);
  });

  it("generates jobs of every status family across projects", async () => {
    const statuses = new Set(
      sim.state.sparkJobRefs.map((r) => sim.state.sparkJob(r.projectId, r.jobId).status),
    );
    // At start, the spread creation times leave both finished and unfinished jobs.
    expect([...statuses].some((s) => ["SUCCEEDED", "FAILED", "TIMEOUT", "CANCELED"].includes(s))).toBe(true);
    expect([...statuses].some((s) => ["PENDING", "PREPARING", "RUNNING", "CANCELLING"].includes(s))).toBe(
      true,
    );
  });

  it("rejects a missing or malformed key with HTTP 200 and code 80001", async () => {
    for (const key of [null, ""]) {
      const a = await call(`${sim.baseUrl}/v2/regions`, { key });
      expect(a.status).toBe(200);
      expect(a.json).toEqual({
        code: ApiCode.INVALID_TOKEN,
        message: expect.stringMatching(/^Invalid token/),
      });
    }
  });

  it("accepts only the configured keys when apiKeys is set", async () => {
    const strict = await startSimulator({ apiKeys: ["good"], now: () => T0 });
    try {
      expect((await call(`${strict.baseUrl}/v2/regions`, { key: "good" })).json.code).toBe(0);
      expect((await call(`${strict.baseUrl}/v2/regions`, { key: "bad" })).json.code).toBe(
        ApiCode.INVALID_TOKEN,
      );
    } finally {
      await strict.close();
    }
  });

  it("answers unknown paths with 404 and an envelope", async () => {
    const a = await call(`${sim.baseUrl}/v2/nothing-here`);
    expect(a.status).toBe(404);
    expect(a.json.code).toBe(ApiCode.NOT_FOUND);
  });

  it("counts requests per endpoint template and cluster, and records the last request", async () => {
    sim.stats.reset();
    const c = sim.clusters[2];
    if (!c) throw new Error("no cluster");
    await call(`${sim.baseUrl}/v2/clusters/${c.id}`);
    await call(`${sim.baseUrl}/v2/clusters/${c.id}`);
    await call(`${sim.baseUrl}/v1/vector/collections/import/list?clusterId=${c.id}`);
    await call(`${sim.baseUrl}/v2/clusters/${c.id}/metrics/query`, {
      method: "POST",
      body: { period: "PT5M", granularity: "PT1M", metricQueries: [{ name: "CU_COMPUTATION" }] },
    });
    expect(sim.stats.requests).toBe(4);
    expect(sim.stats.byEndpoint).toEqual({
      "GET /v2/clusters/{id}": 2,
      "GET /v1/vector/collections/import/list": 1,
      "POST /v2/clusters/{id}/metrics/query": 1,
    });
    expect(sim.stats.byEndpointCluster["GET /v2/clusters/{id}"]).toEqual({ [c.id]: 2 });
    const last = sim.stats.lastRequest["POST /v2/clusters/{id}/metrics/query"];
    expect(last?.body).toEqual({
      period: "PT5M",
      granularity: "PT1M",
      metricQueries: [{ name: "CU_COMPUTATION" }],
    });
    expect(last?.headers.authorization).toBe("Bearer test-key");
    const http = await call(`${sim.baseUrl}/_sim/stats`);
    expect(http.json.requests).toBe(4);
    sim.stats.reset();
    expect(sim.stats.requests).toBe(0);
    expect(sim.stats.byEndpoint).toEqual({});
  });

  it.each([
    ["DELETE", "/v1/pipelines/pipe-1", 200],
    ["DELETE", "/v1/clusters/in01-0123456789abcdef/drop", 200],
    ["DELETE", "/v2/api-keys/key-1", 0],
    ["POST", "/v2/migrations/toExisting", 0],
    ["POST", "/v2/migrations/toNewDedicated", 0],
    ["POST", "/v2/vectordb/users/create", 0],
    ["POST", "/v2/vectordb/users/update_password", 0],
    ["POST", "/v2/vectordb/partitions/release", 0],
    ["POST", "/v1/vector/collections/create", 200],
    ["POST", "/v2/clusters/in01-0123456789abcdef/resume", 0],
    ["PUT", "/v2/clusters/in01-0123456789abcdef", 0],
    ["PATCH", "/v1/clusters/in01-0123456789abcdef", 200],
  ] as const)("records the mutating call %s %s", async (method, path, code) => {
    sim.stats.reset();
    const a = await call(`${sim.baseUrl}${path}`, { method, ...(method === "DELETE" ? {} : { body: {} }) });
    expect(a.json.code).toBe(code);
    expect(sim.stats.mutatingCalls).toEqual([`${method} ${path}`]);
  });

  it("records mutating calls made through the controller URL by their v1 path", async () => {
    sim.stats.reset();
    await call(`${sim.baseUrl}/ctl/aws-us-west-2/v1/pipelines/pipe-9`, { method: "DELETE" });
    expect(sim.stats.mutatingCalls).toEqual(["DELETE /ctl/aws-us-west-2/v1/pipelines/pipe-9"]);
    expect(sim.stats.byEndpoint["DELETE /v1/*"]).toBe(1);
  });
});

describe("onRequestDone", () => {
  it.each([
    {
      countDistinctRequests: true,
      distinct: { "POST /v2/clusters/{id}/metrics/query": 2, "GET /v2/clusters/{id}": 1 },
    },
    { countDistinctRequests: false, distinct: {} },
  ])(
    "counts distinct requests per endpoint when asked ($countDistinctRequests)",
    async ({ countDistinctRequests, distinct }) => {
      const sim = await startSimulator({ now: () => T0, rateLimitPerSecond: 0, countDistinctRequests });
      try {
        const c = sim.clusters[0];
        if (!c) throw new Error("no cluster");
        const query = (start: number, dbName?: string) =>
          call(`${sim.baseUrl}/v2/clusters/${c.id}/metrics/query`, {
            method: "POST",
            body: {
              start: new Date(start).toISOString(),
              end: new Date(start + 300_000).toISOString(),
              granularity: "PT1M",
              ...(dbName === undefined ? {} : { dbName }),
              metricQueries: [{ name: "CU_COMPUTATION", stat: "AVG" }],
            },
          });
        // The same target asked in three cycles (its window moved), another target once, and
        // one cluster described twice: a first pass needs three calls.
        await query(T0 - 600_000);
        await query(T0 - 540_000);
        await query(T0 - 480_000);
        await query(T0 - 600_000, "db1");
        await call(`${sim.baseUrl}/v2/clusters/${c.id}`);
        await call(`${sim.baseUrl}/v2/clusters/${c.id}`);
        expect(sim.stats.byEndpoint).toEqual({
          "POST /v2/clusters/{id}/metrics/query": 4,
          "GET /v2/clusters/{id}": 2,
        });
        expect(sim.stats.distinctByEndpoint).toEqual(distinct);
        sim.stats.reset();
        expect(sim.stats.distinctByEndpoint).toEqual({});
      } finally {
        await sim.close();
      }
    },
  );

  it("reports each answered request with its template, cluster, body and status", async () => {
    const done: RequestDone[] = [];
    const sim = await startSimulator({
      now: () => T0,
      rateLimitPerSecond: 0,
      onRequestDone: (d) => done.push(d),
    });
    try {
      const c = sim.clusters[0];
      if (!c) throw new Error("no cluster");
      const body = {
        startTime: new Date(T0 - 600_000).toISOString(),
        endTime: new Date(T0).toISOString(),
        period: "PT30S",
        dbName: "db1",
        collectionName: "c1",
        metricQueries: [{ name: "CU_COMPUTATION", stat: "AVG" }],
      };
      await call(`${sim.baseUrl}/v2/clusters/${c.id}/metrics/query`, { method: "POST", body });
      await call(`${sim.baseUrl}/v2/clusters/${c.id}`, { key: null });
      await new Promise((r) => setTimeout(r, 20));
      expect(done).toEqual([
        { template: "POST /v2/clusters/{id}/metrics/query", clusterId: c.id, body, status: 200 },
        { template: "GET /v2/clusters/{id}", clusterId: c.id, body: undefined, status: 200 },
      ]);
    } finally {
      await sim.close();
    }
  });
});
