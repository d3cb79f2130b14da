import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { Simulator } from "./index.js";
import { BUILD_S, FAILED_BUILD_REASON, generatedIndexes, indexView, pinnedIndex } from "./indexes.js";
import { simulatorPerSuite } from "./testkit.js";

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);
let clock = T0;
let sim: Simulator;
simulatorPerSuite({ now: () => clock, clusters: 3, collectionsPerCluster: 6, rateLimitPerSecond: 0 }, (s) => {
  sim = s;
});

/** A call to a cluster's data plane with `key` (default: any API key, which even clusters take). */
async function dp(clusterId: string, path: string, body: unknown, key = "k") {
  const res = await request(`${sim.baseUrl}/dp/${clusterId}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test reads the answer as the wire gives it
  return (await res.body.json()) as { code: number; data?: any; message?: string };
}

describe("index views over time", () => {
  const [building] = generatedIndexes(0, 1, T0);
  const [failed] = generatedIndexes(0, 2, T0);
  const view = (atS: number, timeScale = 1) => indexView(building as never, 1000, T0 + atS * 1000, timeScale);

  it.each([
    { atS: 0, state: "Unissued", indexed: 0 },
    { atS: 59, state: "Unissued", indexed: 0 },
    { atS: 60 + BUILD_S / 4, state: "InProgress", indexed: 250 },
    { atS: 60 + BUILD_S / 2, state: "InProgress", indexed: 500 },
    { atS: 60 + BUILD_S, state: "Finished", indexed: 1000 },
    { atS: 10 * BUILD_S, state: "Finished", indexed: 1000 },
  ])(
    "the first cluster's building index at $atS s: $state, $indexed of 1000 indexed",
    ({ atS, state, indexed }) => {
      expect(view(atS)).toMatchObject({
        indexState: state,
        totalRows: 1000,
        indexedRows: indexed,
        pendingRows: 1000 - indexed,
      });
    },
  );

  it("moves timeScale times faster", () => {
    expect(view((60 + BUILD_S / 2) / 10, 10).indexedRows).toBe(500);
  });

  it("the first cluster's failed index stays failed, with its reason, 40% indexed", () => {
    for (const atS of [0, 3600, 86_400]) {
      expect(indexView(failed as never, 1000, T0 + atS * 1000, 1)).toMatchObject({
        indexState: "Failed",
        indexedRows: 400,
        pendingRows: 600,
        failReason: FAILED_BUILD_REASON,
      });
    }
  });

  it("other collections: a finished vector index, every third also a scalar one without a metric", () => {
    expect(generatedIndexes(1, 0, T0).map((i) => [i.indexName, i.indexType, i.metricType])).toEqual([
      ["embedding_idx", "AUTOINDEX", "COSINE"],
    ]);
    expect(generatedIndexes(1, 1, T0).map((i) => [i.indexName, i.indexType, i.metricType])).toEqual([
      ["embedding_idx", "AUTOINDEX", "L2"],
      ["title_idx", "INVERTED", ""],
    ]);
    expect(indexView(generatedIndexes(1, 3, T0)[0] as never, 7, T0, 1)).toMatchObject({
      indexType: "HNSW",
      indexState: "Finished",
      indexedRows: 7,
      pendingRows: 0,
    });
  });

  it("a pinned index shows what the test set; pending rows default to the rows not indexed", () => {
    expect(
      indexView(pinnedIndex({ indexName: "x", state: "Retry", indexedRows: 10 }, 50), 50, T0, 1),
    ).toMatchObject({
      indexState: "Retry",
      totalRows: 50,
      indexedRows: 10,
      pendingRows: 40,
      failReason: "",
    });
  });
});

describe("List Indexes and Describe Index over HTTP", () => {
  it("list the collection's indexes and describe each as SimState tells it, an array on even clusters and an object on odd ones", async () => {
    clock = T0 + 60_000 + (BUILD_S * 1000) / 2;
    for (const [ci, cluster] of sim.clusters.entries()) {
      if (sim.state.dataPlaneCredential(cluster.id) !== undefined) continue;
      const expected = sim.state.dataIndexes(cluster.id);
      expect(expected.length).toBeGreaterThan(sim.state.dataCollections(cluster.id).length);
      for (const c of sim.state.dataCollections(cluster.id)) {
        const ref = { dbName: c.dbName, collectionName: c.collectionName };
        const listed = await dp(cluster.id, "/v2/vectordb/indexes/list", ref);
        const mine = expected.filter((i) => i.dbName === c.dbName && i.collectionName === c.collectionName);
        expect(listed).toEqual({ code: 0, data: mine.map((i) => i.indexName) });
        for (const i of mine) {
          const answer = await dp(cluster.id, "/v2/vectordb/indexes/describe", {
            ...ref,
            indexName: i.indexName,
          });
          expect(answer.code).toBe(0);
          const item = ci % 2 === 1 ? answer.data : answer.data[0];
          if (ci % 2 === 0) expect(answer.data).toHaveLength(1);
          else expect(Array.isArray(answer.data)).toBe(false);
          const { dbName: _d, collectionName: _c, ...view } = i;
          expect(item).toMatchObject(view);
          expect(item).toHaveProperty("mmap.enabled", false);
        }
      }
    }
    const first = sim.clusters[0]?.id as string;
    const states = sim.state
      .dataIndexes(first)
      .map((i) => `${i.collectionName}/${i.indexName} ${i.indexState}`);
    expect(states).toContain("images/embedding_idx InProgress");
    expect(states).toContain("products/embedding_idx Failed");
  });

  it("answers the engine's codes: 100 for an unknown collection, 700 for an unknown index", async () => {
    const first = sim.clusters[0]?.id as string;
    expect(await dp(first, "/v2/vectordb/indexes/list", { collectionName: "nope" })).toMatchObject({
      code: 100,
    });
    expect(
      await dp(first, "/v2/vectordb/indexes/describe", { collectionName: "docs", indexName: "nope" }),
    ).toEqual({ code: 700, message: "index not found[indexName=nope]" });
  });

  it("refuses a bad token with the reference's failure sample", async () => {
    const userCluster = sim.clusters.find((c) => sim.state.dataPlaneCredential(c.id) !== undefined)
      ?.id as string;
    for (const path of ["/v2/vectordb/indexes/list", "/v2/vectordb/indexes/describe"]) {
      expect(
        await dp(userCluster, path, { collectionName: "docs", indexName: "embedding_idx" }, "user:wrong"),
      ).toEqual({
        code: 1800,
        message: "User hasn't authenticated",
      });
    }
  });

  it("pins an index through SimState", async () => {
    const id = sim.clusters[0]?.id as string;
    sim.state.setIndex(id, "default", "docs", {
      indexName: "embedding_idx",
      state: "Retry",
      totalRows: 90,
      indexedRows: 30,
      failReason: "node lost",
    });
    const answer = await dp(id, "/v2/vectordb/indexes/describe", {
      collectionName: "docs",
      indexName: "embedding_idx",
    });
    expect(answer.data[0]).toMatchObject({
      indexState: "Retry",
      totalRows: 90,
      indexedRows: 30,
      pendingRows: 60,
      failReason: "node lost",
    });
    // Replaced in place: the listing keeps its order.
    expect((await dp(id, "/v2/vectordb/indexes/list", { collectionName: "docs" })).data).toEqual([
      "embedding_idx",
    ]);
  });
});
