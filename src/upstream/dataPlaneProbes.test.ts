/**
 * The canary's calls through the data-plane client, at the HTTP level (undici's MockAgent): the
 * documented bodies, `cost`, a probe made once with its own time limit, its time on the wire
 * (the client's queues left out), and the background lane behind the plane's other calls.
 */

import type { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIMENSION_REFUSAL, REFERENCE_DESCRIBE_COLLECTION } from "./canaryTestkit.js";
import { createDataPlaneClient, type DataPlaneClient } from "./dataPlane.js";
import type { SleepFn } from "./sleep.js";
import {
  TEST_DATA_PLANE_ENDPOINT as ENDPOINT,
  failure,
  mockUpstream,
  TEST_DATA_PLANE_TOKEN as TOKEN,
} from "./testkit.js";

const REF = { dbName: "default", collectionName: "docs" };
const SEARCH = { ...REF, annsField: "vector", vector: [1, 0, 0, 0, 0] };
const SEARCH_PATH = "/v2/vectordb/entities/search";

let upstream: MockAgent;
const clients: DataPlaneClient[] = [];

beforeEach(() => {
  upstream = mockUpstream();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await upstream.close();
});

/** One clock for the limiter's waits and the wire: it moves only when something sleeps or advances it. */
function fakeClock() {
  let t = 1_700_000_000_000;
  const sleep: SleepFn = (ms, signal) => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    t += ms;
    return Promise.resolve();
  };
  const advance = (ms: number): void => {
    t += ms;
  };
  return { now: () => t, sleep, advance };
}

function client(
  opts: {
    rateLimit?: number;
    maxRetries?: number;
    maxInFlight?: number;
    clock?: ReturnType<typeof fakeClock>;
  } = {},
) {
  const clock = opts.clock;
  const c = createDataPlaneClient({
    endpoint: ENDPOINT,
    token: TOKEN,
    rateLimit: opts.rateLimit ?? 100,
    requestTimeoutMs: 5_000,
    maxRetries: opts.maxRetries ?? 3,
    maxResponseBytes: 1 << 20,
    maxInFlight: opts.maxInFlight ?? 4,
    dispatcher: upstream,
    random: () => 0,
    ...(clock === undefined ? {} : { now: clock.now, sleep: clock.sleep, wireClock: clock.now }),
  });
  clients.push(c);
  return c;
}

describe("the canary's calls", () => {
  it("send the documented bodies with the cluster's token and read cost and hits", async () => {
    const seen: unknown[] = [];
    const origin = upstream.get(ENDPOINT);
    const answer = (path: string, body: unknown) =>
      origin
        .intercept({ method: "POST", path, headers: { authorization: `Bearer ${TOKEN}` } })
        .reply(200, (opts) => {
          seen.push(JSON.parse(String(opts.body)));
          return body;
        });
    answer("/v2/vectordb/collections/describe", { code: 0, data: REFERENCE_DESCRIBE_COLLECTION });
    answer(SEARCH_PATH, { code: 0, cost: 2, data: [{ id: 7, distance: 0.9 }], topks: [1] });
    answer("/v2/vectordb/entities/query", { code: 0, data: [] });
    const dp = client();
    expect(await dp.describeCollection(REF, { timeoutMs: 1_000 })).toEqual({
      vectorFields: [{ name: "vector", type: "FloatVector", dim: 5 }],
    });
    expect((await dp.search(SEARCH, { timeoutMs: 1_000 })).value).toEqual({ cost: 2, hits: 1 });
    expect((await dp.query({ ...REF, filter: "id >= 0" }, { timeoutMs: 1_000 })).value).toEqual({
      cost: null,
      hits: 0,
    });
    expect(seen).toEqual([
      REF,
      { ...REF, data: [[1, 0, 0, 0, 0]], annsField: "vector", limit: 1, outputFields: [] },
      { ...REF, filter: "id >= 0", limit: 1, outputFields: [] },
    ]);
  });

  it("time the wire only: a search that waited a whole window in the rate limiter reports its 40 ms", async () => {
    const clock = fakeClock();
    // One request per window: the second search waits 1.1 s (of the fake clock) for its turn.
    const dp = client({ rateLimit: 1, clock });
    const arrivals: number[] = [];
    upstream
      .get(ENDPOINT)
      .intercept({ method: "POST", path: SEARCH_PATH })
      .reply(200, () => {
        arrivals.push(clock.now());
        // The service takes 40 ms between the request's first byte and the answer's last.
        clock.advance(40);
        return { code: 0, cost: 1, data: [{ id: 1 }] };
      })
      .times(2);
    const startedAt = clock.now();
    const [first, second] = await Promise.all([
      dp.search(SEARCH, { timeoutMs: 1_000 }),
      dp.search(SEARCH, { timeoutMs: 1_000 }),
    ]);
    // The second search was called with the first but left a whole window later...
    expect(arrivals[0]).toBe(startedAt);
    expect((arrivals[1] ?? 0) - startedAt).toBeGreaterThanOrEqual(1_100);
    // ...and each reports the 40 ms of the wire alone.
    expect(first.seconds).toBeCloseTo(0.04, 6);
    expect(second.seconds).toBeCloseTo(0.04, 6);
  });

  it("time a real delay on the wire within its histogram bucket (undici's own timer, real time)", async () => {
    upstream
      .get(ENDPOINT)
      .intercept({ method: "POST", path: SEARCH_PATH })
      .reply(200, { code: 0, data: [] })
      .delay(60);
    const { seconds } = await client().search(SEARCH, { timeoutMs: 2_000 });
    expect(seconds).toBeGreaterThanOrEqual(0.055);
    expect(seconds).toBeLessThan(1);
  });

  it.each([
    ["an HTTP 503", 503, { code: 503, message: "unavailable" }, "http_error"],
    ["a refused vector (code 1100)", 200, DIMENSION_REFUSAL, "api_error"],
  ])("are made once: %s is not retried", async (_case, status, body, code) => {
    const origin = upstream.get(ENDPOINT);
    origin.intercept({ method: "POST", path: SEARCH_PATH }).reply(status, body);
    const err = await failure(client({ maxRetries: 3 }).search(SEARCH, { timeoutMs: 1_000 }));
    expect(err.code).toBe(code);
    expect(err.apiCode ?? status).toBe(body.code);
    upstream.assertNoPendingInterceptors();
  });

  it("time out on their own limit, not the client's request timeout", async () => {
    upstream
      .get(ENDPOINT)
      .intercept({ method: "POST", path: SEARCH_PATH })
      .reply(200, { code: 0, data: [] })
      .delay(2_000);
    const err = await failure(client({ maxRetries: 3 }).search(SEARCH, { timeoutMs: 100 }));
    expect(err.code).toBe("timeout");
    expect(err.message).toContain("within 100 ms");
  });

  it("time out from when they hold an in-flight slot: a probe that waited 300 ms for one still has its 100 ms", async () => {
    const origin = upstream.get(ENDPOINT);
    origin
      .intercept({ method: "POST", path: "/v2/vectordb/databases/list" })
      .reply(200, { code: 0, data: ["default"] })
      .delay(300);
    origin.intercept({ method: "POST", path: SEARCH_PATH }).reply(200, { code: 0, data: [] }).delay(20);
    // One request at a time: the search waits for the slow listing's slot.
    const dp = client({ maxInFlight: 1 });
    const listing = dp.listDatabases();
    const probed = await dp.search(SEARCH, { timeoutMs: 100 });
    expect(probed.seconds).toBeLessThan(0.1);
    await listing;
  });

  it("wait behind the plane's other calls: a later listing goes before a search already waiting", async () => {
    const order: string[] = [];
    const origin = upstream.get(ENDPOINT);
    const record = (path: string, what: string, data: unknown) =>
      origin
        .intercept({ method: "POST", path })
        .reply(200, () => {
          order.push(what);
          return { code: 0, data };
        })
        .persist();
    record("/v2/vectordb/databases/list", "list", ["default"]);
    record(SEARCH_PATH, "search", []);
    // One request at a time: each waits for the one before it to be answered.
    const dp = client({ rateLimit: 1, clock: fakeClock() });
    const first = dp.listDatabases();
    const search = dp.search(SEARCH, { timeoutMs: 1_000 });
    const later = dp.listDatabases();
    await Promise.all([first, search, later]);
    expect(order).toEqual(["list", "list", "search"]);
  });
});
