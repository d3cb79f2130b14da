import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import describeCollectionSample from "../upstream/samples/describe-collection-v2.json" with { type: "json" };
import { SEARCH_VCU, SIM_VECTOR } from "./canary.js";
import { type Simulator, type SimulatorOptions, startSimulator } from "./index.js";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(opts: SimulatorOptions = {}): Promise<Simulator> {
  sim = await startSimulator({ clusters: 6, rateLimitPerSecond: 0, ...opts });
  return sim;
}

/** A POST to a cluster's data plane with the credential it takes; the answer as the wire gives it. */
async function dp(s: Simulator, index: number, path: string, body: unknown, signal?: AbortSignal) {
  const cluster = s.clusters[index];
  if (cluster === undefined) throw new Error(`no cluster #${index}`);
  const key = s.state.dataPlaneCredential(cluster.id) ?? "k";
  const res = await request(`${s.baseUrl}/dp/${cluster.id}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });
  return (await res.body.json()) as {
    code: number;
    cost?: number;
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the answer as the wire gives it
    data?: any;
    topks?: number[];
    message?: string;
  };
}

const REF = { dbName: "default", collectionName: "docs" };
const unit = (dim: number) => [1, ...new Array<number>(dim - 1).fill(0)];
const search = (dim = SIM_VECTOR.dim ?? 8) => ({
  ...REF,
  data: [unit(dim)],
  annsField: "vector",
  limit: 1,
  outputFields: [],
});

describe("the canary's endpoints", () => {
  it("answers Describe Collection as the reference's sample does, but for what is the collection's own", async () => {
    const s = await start({ canary: { paramsShape: "array" } });
    const { code, data } = await dp(s, 0, "/v2/vectordb/collections/describe", REF);
    const ref: Record<string, unknown> = describeCollectionSample.data;
    expect(code).toBe(describeCollectionSample.code);
    expect(Object.keys(data).sort()).toEqual(Object.keys(ref).sort());
    const own = new Set(["collectionID", "collectionName", "fields", "indexes", "load"]);
    for (const [key, value] of Object.entries(ref)) if (!own.has(key)) expect(data[key], key).toEqual(value);
    const [idField, vectorField] = describeCollectionSample.data.fields;
    expect(data.fields[0]).toEqual(idField);
    expect(Object.keys(data.fields[1]).sort()).toEqual(Object.keys(vectorField ?? {}).sort());
  });

  it.each([
    ["array", [{ key: "dim", value: "8" }]],
    ["object", { dim: 8 }],
  ] as const)("Describe Collection sends params as the %s shape", async (paramsShape, params) => {
    const s = await start({ canary: { paramsShape } });
    const answer = await dp(s, 0, "/v2/vectordb/collections/describe", REF);
    expect(answer.code).toBe(0);
    expect(answer.data.fields[1]).toMatchObject({ name: "vector", type: "FloatVector", params });
  });

  it("Search answers its one hit with cost on a serverless cluster, 0 on a dedicated one", async () => {
    const s = await start();
    const serverless = s.clusters.findIndex((c) => c.plan === "Serverless");
    expect(await dp(s, serverless, "/v2/vectordb/entities/search", search())).toEqual({
      code: 0,
      cost: SEARCH_VCU,
      data: [{ distance: 0.42, id: 1 }],
      topks: [1],
    });
    expect((await dp(s, 0, "/v2/vectordb/entities/search", search())).cost).toBe(0);
    expect((await dp(s, 0, "/v2/vectordb/entities/query", { ...REF, filter: "", limit: 1 })).data).toEqual([
      { id: 1 },
    ]);
    expect(s.stats.mutatingCalls).toEqual([]);
  });

  it("refuses a vector of another dimension, and follows a changed field", async () => {
    const s = await start();
    const refused = await dp(s, 0, "/v2/vectordb/entities/search", search(5));
    expect(refused).toMatchObject({ code: 1100 });
    expect(refused.message).toContain("dim");
    s.canary.setVector(s.clusters[0]?.id ?? "", "default", "docs", {
      name: "vector",
      type: "FloatVector",
      dim: 5,
    });
    expect((await dp(s, 0, "/v2/vectordb/entities/search", search(5))).code).toBe(0);
    expect((await dp(s, 0, "/v2/vectordb/collections/describe", REF)).data.fields[1].params).toEqual([
      { key: "dim", value: "5" },
    ]);
  });

  it("degrades a cluster's plane as its profile says: latency, errors, a refused key", async () => {
    const s = await start({ canary: { profiles: { "#0": { latencyMs: 120, errorRate: 1 } } } });
    const t0 = performance.now();
    expect(await dp(s, 0, "/v2/vectordb/entities/search", search())).toMatchObject({ code: 65535 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    // Describe Collection is slowed, not failed; other clusters answer at once.
    expect((await dp(s, 0, "/v2/vectordb/collections/describe", REF)).code).toBe(0);
    expect((await dp(s, 3, "/v2/vectordb/entities/search", search())).code).toBe(0);
    s.canary.setProfile("*", { refuseKey: true });
    expect(await dp(s, 3, "/v2/vectordb/entities/query", REF)).toMatchObject({ code: 1800 });
  });

  it("leaves a share of probes unanswered (timeouts), and takes profiles over /_sim/canary", async () => {
    const s = await start();
    const set = await request(`${s.baseUrl}/_sim/canary`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cluster: s.clusters[0]?.id, profile: { timeoutRate: 1 } }),
    });
    expect(set.statusCode).toBe(200);
    await set.body.dump();
    await expect(
      dp(s, 0, "/v2/vectordb/entities/search", search(), AbortSignal.timeout(200)),
    ).rejects.toThrow();
    const bad = await request(`${s.baseUrl}/_sim/canary`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cluster: "#0", profile: { errorRate: 2 } }),
    });
    expect(bad.statusCode).toBe(400);
    await bad.body.dump();
  });

  it("records any write to a data plane as a mutating call", async () => {
    const s = await start();
    await dp(s, 0, "/v2/vectordb/entities/insert", { ...REF, data: [{ id: 2, vector: unit(8) }] });
    expect(s.stats.mutatingCalls).toEqual([`POST /dp/${s.clusters[0]?.id}/v2/vectordb/entities/insert`]);
  });
});
