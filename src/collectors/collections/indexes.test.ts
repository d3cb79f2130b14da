/**
 * The collections collector's index work, task by task: a fail reason logged once per index and
 * state, the re-describe cadence of a finished index at rest, failures that cost only what they
 * asked, the schedule's call counts, and every data-plane call within collections.rate_limit.
 */
import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import type { Sample } from "../../metrics/sample.js";
import { computeSchedule } from "../../polling/schedule.js";
import { spyContext } from "../../polling/testkit.js";
import { NO_PROBES } from "../../upstream/canaryTestkit.js";
import { createDataPlaneClient, type DataPlaneApi, type DataPlaneClient } from "../../upstream/dataPlane.js";
import { CloudError } from "../../upstream/errors.js";
import type { IndexDescription, IndexRef } from "../../upstream/indexes.js";
import { DATA_PLANE_ENDPOINT } from "../../upstream/types.js";
import { collectionsCollector } from "./tasks.js";

const MINUTE = 60_000;
const INTERVAL = 5 * MINUTE;
const CLUSTER = "in01-0123456789abcdef";
const DP = "https://in01-0123456789abcdef.example.test:19530";

/** One collection's indexes on the fake plane, by name. */
type Indexes = Map<string, IndexDescription>;

function index(name: string, over: Partial<IndexDescription> = {}): IndexDescription {
  return {
    indexName: name,
    fieldName: "embedding",
    indexType: "AUTOINDEX",
    metricType: "COSINE",
    state: "Finished",
    totalRows: 1000,
    indexedRows: 1000,
    pendingRows: 0,
    failReason: "",
    ...over,
  };
}

/**
 * A data plane holding collections of "default" with their indexes; it records every call and
 * fails an index call with `fail` when set.
 */
function fakePlane(collections: Record<string, Indexes>) {
  const calls: string[] = [];
  const state: { fail?: (call: string) => CloudError | undefined; rows?: number } = {};
  const check = (call: string) => {
    calls.push(call);
    const err = state.fail?.(call);
    if (err !== undefined) throw err;
  };
  const api: DataPlaneApi = {
    ...NO_PROBES,
    listDatabases: async () => ["default"],
    listCollections: async () => Object.keys(collections),
    getLoadState: async () => ({ state: "LoadStateLoaded", progress: 100 }),
    getRowCount: async () => state.rows ?? null,
    listIndexes: async (c) => {
      check(`list ${c.collectionName}`);
      return [...(collections[c.collectionName]?.keys() ?? [])];
    },
    describeIndex: async (r: IndexRef) => {
      check(`describe ${r.collectionName}/${r.indexName}`);
      return collections[r.collectionName]?.get(r.indexName) ?? null;
    },
  };
  return { api, calls, state };
}

async function setup(plane: DataPlaneApi, collections: Record<string, unknown> = {}) {
  const spy = spyContext(1_700_000_000_000);
  const env = await collectorEnv({
    ctx: spy.ctx,
    client: {} as never,
    dataPlane: plane,
    raw: {
      clusters: [{ id: CLUSTER, data_plane: { endpoint: DP } }],
      collections: { enabled: true, interval: "PT5M", ...collections },
    },
  });
  const [task] = collectionsCollector.tasks(env);
  if (task === undefined) throw new Error("no task");
  const run = async () => {
    expect(await task.run(new AbortController().signal)).toBe("ok");
    return spy.data.get(CLUSTER)?.samples ?? [];
  };
  const advance = (ms: number) => spy.setNow(spy.ctx.now() + ms);
  return { spy, env, task, run, advance };
}

const value = (
  samples: readonly Sample[],
  family: string,
  indexName: string,
  extra: Record<string, string> = {},
) =>
  samples.find(
    (s) =>
      s.family === family &&
      s.labels.index_name === indexName &&
      Object.entries(extra).every(([k, v]) => s.labels[k] === v),
  )?.value;

const failedLines = (spy: ReturnType<typeof spyContext>) =>
  spy.warnings
    .filter((w) => w.message === "index build failed")
    .map((w) => w.fields as Record<string, string>);

describe("a failed build's reason", () => {
  it("is logged once per index and state, never per cycle, and never becomes a label", async () => {
    const broken = index("vec", { state: "Failed", failReason: "out of memory building segment 7" });
    const docs: Indexes = new Map([["vec", broken]]);
    const plane = fakePlane({ docs });
    const s = await setup(plane.api);
    for (let i = 0; i < 4; i++) {
      const samples = await s.run();
      expect(value(samples, "vdbcloud_index_state", "vec", { state: "failed" })).toBe(1);
      expect(JSON.stringify(samples)).not.toContain("out of memory");
      s.advance(INTERVAL);
    }
    expect(failedLines(s.spy)).toEqual([
      {
        collector: "collections",
        cluster_id: CLUSTER,
        db_name: "default",
        collection_name: "docs",
        index_name: "vec",
        state: "Failed",
        reason: "out of memory building segment 7",
      },
    ]);
    // Retried with a reason (another state): logged once more; back to failed: once more.
    docs.set("vec", { ...broken, state: "Retry", failReason: "retrying: out of memory" });
    await s.run();
    await s.run();
    docs.set("vec", index("vec", { state: "InProgress", indexedRows: 10, pendingRows: 990 }));
    await s.run();
    docs.set("vec", broken);
    await s.run();
    await s.run();
    expect(failedLines(s.spy).map((l) => l.state)).toEqual(["Failed", "Retry", "Failed"]);
  });
});

describe("re-describe cadence", () => {
  it("a finished index at rest is described at most once per interval, however often the collector runs", async () => {
    const plane = fakePlane({
      docs: new Map([["vec", index("vec")]]),
      faq: new Map([["vec", index("vec", { state: "InProgress", indexedRows: 400, pendingRows: 600 })]]),
    });
    const s = await setup(plane.api);
    const describes = () => plane.calls.filter((c) => c.startsWith("describe docs/")).length;
    const building = () => plane.calls.filter((c) => c.startsWith("describe faq/")).length;
    const counts: number[] = [];
    // The collector runs every half interval (a rebuild of the tasks, an early first slot): 12 runs, 6 intervals.
    for (let i = 0; i < 12; i++) {
      const samples = await s.run();
      // Shown every run all the same, from memory in between.
      expect(value(samples, "vdbcloud_index_rows", "vec", { collection_name: "docs" })).toBe(1000);
      expect(
        value(samples, "vdbcloud_index_state", "vec", { collection_name: "docs", state: "finished" }),
      ).toBe(1);
      counts.push(describes());
      s.advance(INTERVAL / 2);
    }
    // Described at start, once more to see its rows stay (at rest from then on), then once per interval.
    expect(counts).toEqual([1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]);
    // A build in progress is described every run; every listing too.
    expect(building()).toBe(12);
    expect(plane.calls.filter((c) => c === "list docs")).toHaveLength(12);
  });

  it("a run a little less than an interval after the last answer still describes (the scheduler's jitter)", async () => {
    const plane = fakePlane({ docs: new Map([["vec", index("vec")]]) });
    const s = await setup(plane.api);
    await s.run();
    s.advance(INTERVAL);
    await s.run();
    s.advance(INTERVAL - 40);
    await s.run();
    expect(plane.calls.filter((c) => c.startsWith("describe"))).toHaveLength(3);
  });

  it("an index at rest is described again at once when its rows move, or when the collection's rows differ", async () => {
    const docs: Indexes = new Map([["vec", index("vec")]]);
    const plane = fakePlane({ docs });
    const s = await setup(plane.api, { row_count: true });
    plane.state.rows = 1000;
    await s.run();
    s.advance(MINUTE);
    await s.run();
    s.advance(MINUTE);
    await s.run();
    expect(plane.calls.filter((c) => c.startsWith("describe"))).toHaveLength(2);
    // New rows in the collection: Get Collection Stats says so, the index is asked again.
    plane.state.rows = 1500;
    docs.set(
      "vec",
      index("vec", { state: "InProgress", totalRows: 1500, indexedRows: 1000, pendingRows: 500 }),
    );
    s.advance(MINUTE);
    const samples = await s.run();
    expect(plane.calls.filter((c) => c.startsWith("describe"))).toHaveLength(3);
    expect(value(samples, "vdbcloud_index_pending_rows", "vec")).toBe(500);
    expect(value(samples, "vdbcloud_index_state", "vec", { state: "in_progress" })).toBe(1);
  });
});

describe("index calls that fail", () => {
  it("cost only what they asked: reported on the poll, the last answer shown, the rest asked", async () => {
    const plane = fakePlane({
      docs: new Map([["a", index("a", { pendingRows: 5, state: "InProgress" })]]),
      faq: new Map([["b", index("b")]]),
    });
    const s = await setup(plane.api);
    await s.run();
    plane.state.fail = (call) =>
      call === "describe docs/a"
        ? new CloudError("timeout", "timed out", { endpoint: DATA_PLANE_ENDPOINT.describeIndex })
        : undefined;
    s.advance(INTERVAL);
    const samples = await s.run();
    expect(value(samples, "vdbcloud_index_pending_rows", "a")).toBe(5);
    expect(value(samples, "vdbcloud_index_rows", "b")).toBe(1000);
    expect(s.spy.partials).toHaveLength(1);
    expect(s.spy.partials[0]?.failed).toBe(1);
    expect(s.spy.failures).toEqual([]);
    // Past the staleness bound (5 intervals), the last answer is no longer shown.
    for (let i = 0; i < 5; i++) {
      s.advance(INTERVAL);
      await s.run();
    }
    expect(value(await s.run(), "vdbcloud_index_pending_rows", "a")).toBeUndefined();
  });

  it("a refused credential ends the run's index calls; the collections are still shown", async () => {
    const plane = fakePlane({
      docs: new Map([["a", index("a")]]),
      faq: new Map([["b", index("b")]]),
      logs: new Map([["c", index("c")]]),
    });
    plane.state.fail = (call) =>
      call.startsWith("list")
        ? new CloudError("auth_error", "User hasn't authenticated", {
            endpoint: DATA_PLANE_ENDPOINT.listIndexes,
            apiCode: 1800,
          })
        : undefined;
    const s = await setup(plane.api);
    const samples = await s.run();
    expect(plane.calls).toEqual(["list docs"]);
    expect(samples.filter((x) => x.family.startsWith("vdbcloud_index"))).toEqual([]);
    expect(samples.filter((x) => x.family === "vdbcloud_collection_info")).toHaveLength(3);
    expect((s.spy.partials[0]?.err as CloudError | undefined)?.code).toBe("auth_error");
  });

  it("an index or collection that vanished since it was listed is left out, without a failure", async () => {
    const plane = fakePlane({ docs: new Map([["a", index("a")]]), faq: new Map([["b", index("b")]]) });
    const s = await setup(plane.api);
    await s.run();
    plane.state.fail = (call) =>
      call === "describe docs/a"
        ? new CloudError("not_found", "index not found[indexName=a]", {
            endpoint: DATA_PLANE_ENDPOINT.describeIndex,
            apiCode: 700,
          })
        : call === "list faq"
          ? new CloudError("not_found", "collection not found[collection=faq]", {
              endpoint: DATA_PLANE_ENDPOINT.listIndexes,
              apiCode: 100,
            })
          : undefined;
    s.advance(INTERVAL);
    const samples = await s.run();
    expect(samples.filter((x) => x.family.startsWith("vdbcloud_index"))).toEqual([]);
    expect(s.spy.partials).toEqual([]);
  });
});

describe("schedule and budget", () => {
  it("--check-config counts List Indexes and Describe Index per polled collection; none with indexes off", async () => {
    const plane = fakePlane({});
    const on = await setup(plane.api, { max_per_cluster: 40 });
    const calls = (t: typeof on.task) =>
      Object.fromEntries(t.calls.map((c) => [c.endpoint, [c.count, c.atLeast]]));
    expect(calls(on.task)).toMatchObject({
      [DATA_PLANE_ENDPOINT.listIndexes]: [40, false],
      [DATA_PLANE_ENDPOINT.describeIndex]: [40, true],
    });
    const schedule = computeSchedule([collectionsCollector], on.env.config);
    expect(schedule.notes.filter((n) => n.includes("a Describe Index per index"))).toHaveLength(1);
    // Databases 1 + collections 1 + load states 40 + List Indexes 40 + Describe Index 40.
    expect(schedule.dataPlaneRows).toEqual([
      expect.objectContaining({ clusterId: CLUSTER, callsPerCycle: 122, atLeast: true }),
    ]);
    const off = await setup(plane.api, { max_per_cluster: 40, indexes: false });
    expect(calls(off.task)[DATA_PLANE_ENDPOINT.listIndexes]).toBeUndefined();
    expect(calls(off.task)[DATA_PLANE_ENDPOINT.describeIndex]).toBeUndefined();
    const offPlan = computeSchedule([collectionsCollector], off.env.config);
    expect(offPlan.dataPlaneRows[0]?.callsPerCycle).toBe(42);
    expect(offPlan.notes.filter((n) => n.includes("Describe Index"))).toEqual([]);
    await off.run();
    expect(plane.calls).toEqual([]);
  });
});

describe("family lists", () => {
  it.each([
    { deny: ["vdbcloud_index_.*"], calls: 0 },
    { deny: ["vdbcloud_index_info|vdbcloud_index_state"], calls: 2 },
    { deny: [], calls: 2 },
  ])("deny $deny: $calls index calls, as the schedule counts", async ({ deny, calls }) => {
    const plane = fakePlane({ docs: new Map([["vec", index("vec")]]) });
    const s = await setup(plane.api);
    const env = await collectorEnv({
      ctx: s.spy.ctx,
      client: {} as never,
      dataPlane: plane.api,
      raw: {
        clusters: [{ id: CLUSTER, data_plane: { endpoint: DP } }],
        collections: { enabled: true, interval: "PT5M" },
        families: { deny },
      },
    });
    const [task] = collectionsCollector.tasks(env);
    await task?.run(new AbortController().signal);
    expect(plane.calls).toHaveLength(calls);
    const planned = task?.calls.filter((c) => c.endpoint.includes("/indexes/")) ?? [];
    expect(planned.length).toBe(calls);
  });
});

describe("collections.rate_limit", () => {
  let agent: MockAgent | undefined;
  let client: DataPlaneClient | undefined;
  afterEach(async () => {
    await client?.close();
    await agent?.close();
  });

  it("holds every data-plane call of a run, index calls included, within the budget in any sliding second", async () => {
    const RATE = 2;
    let virtual = 0;
    const sent: { at: number; path: string }[] = [];
    agent = new MockAgent();
    agent.disableNetConnect();
    const answers: Record<string, unknown> = {
      "/v2/vectordb/databases/list": ["default"],
      "/v2/vectordb/collections/list": ["docs", "faq", "logs"],
      "/v2/vectordb/collections/get_load_state": { loadState: "LoadStateLoaded", loadProgress: 100 },
      "/v2/vectordb/indexes/list": ["vec", "title"],
      "/v2/vectordb/indexes/describe": [index("vec")],
    };
    for (const [path, data] of Object.entries(answers)) {
      agent
        .get(DP)
        .intercept({ method: "POST", path })
        .reply(() => {
          sent.push({ at: virtual, path });
          return { statusCode: 200, data: { code: 0, data } };
        })
        .persist();
    }
    client = createDataPlaneClient({
      endpoint: DP,
      token: "k",
      rateLimit: RATE,
      requestTimeoutMs: 5000,
      maxRetries: 0,
      maxResponseBytes: 1 << 20,
      maxInFlight: 4,
      dispatcher: agent,
      now: () => virtual,
      sleep: async (ms) => {
        virtual += ms;
      },
    });
    const s = await setup(client, { rate_limit: RATE });
    await s.run();
    // 1 + 1 + 3 load states + 3 List Indexes + 6 Describe Index.
    expect(sent).toHaveLength(14);
    expect(sent.filter((x) => x.path.includes("/indexes/"))).toHaveLength(9);
    for (const first of sent) {
      const inWindow = sent.filter((x) => x.at >= first.at && x.at < first.at + 1000);
      expect(inWindow.length, `requests in the second after ${first.at} ms`).toBeLessThanOrEqual(RATE);
    }
  });
});
