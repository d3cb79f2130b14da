import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Dispatcher, type MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTROL_PLANE } from "./endpoints/table.js";
import {
  closeTestClients,
  failure,
  mockUpstream,
  TEST_API_KEY,
  TEST_BASE_URL,
  testClient,
} from "./testkit.js";
import type { ClientObserver } from "./types.js";

const REGIONS = "GET /v2/regions" as const;
const ok = { code: 0, data: [{ cloudId: "aws", regionId: "aws-us-west-2", domain: "d" }] };

let upstream: MockAgent;

/**
 * Answers the requests of the enclosing block with a fresh mock upstream (testClient() sends
 * through it). The loopback block does without: its clients use their own pools.
 */
function answeredByMockUpstream(): void {
  beforeEach(() => {
    upstream = mockUpstream();
  });
}

afterEach(async () => {
  await closeTestClients();
});

/** The interceptor for one GET of `path` on the v2 server. */
function onGet(path: string) {
  return upstream.get(TEST_BASE_URL).intercept({ method: "GET", path });
}

/** Status and body of every interceptor not used up yet, in the order they were set up. */
function pending(): { status: number | undefined; body: unknown }[] {
  return upstream.pendingInterceptors().map(({ data }) => ({ status: data.statusCode, body: data.data }));
}

/** How a `200 ok` interceptor shows in pending() while no request has used it. */
const SPARE = { status: 200, body: ok };

describe("the client surface", () => {
  answeredByMockUpstream();

  it("has exactly the read-only methods and close(), nothing mutating", () => {
    const { client } = testClient();
    const methods = Object.keys(client).sort();
    // One method per declaration of the endpoint table (endpoints/table.ts), and close().
    expect(methods).toEqual([...Object.keys(CONTROL_PLANE), "close"].sort());
    expect(methods).toHaveLength(28);
    expect(methods.filter((m) => /drop|delete|create|update|migrate|release/i.test(m))).toEqual([]);
    expect(Object.isFrozen(client)).toBe(true);
  });

  it("rejects invalid retry settings at construction", () => {
    expect(() => testClient({ maxRetries: -1 })).toThrow(RangeError);
  });
});

describe("retries", () => {
  answeredByMockUpstream();

  it("retries 5xx answers with growing backoff, then succeeds", async () => {
    onGet("/v2/regions").reply(503, "busy");
    onGet("/v2/regions").reply(500, { code: 65000, message: "internal" });
    onGet("/v2/regions").reply(200, ok);
    const { client, clock, observer } = testClient({ retryBaseMs: 100 });
    await expect(client.listRegions({})).resolves.toHaveLength(1);
    upstream.assertNoPendingInterceptors();
    // random() = 0.5: half of 100, then half of 200; the first retry also keeps the endpoint's
    // pacing (one request per 55 ms at 20/s and the default margin): 5 ms more.
    expect(clock.sleeps).toEqual([50, 5, 100]);
    expect(observer.events).toEqual([
      { kind: "attempt", endpoint: REGIONS, outcome: "http_error" },
      { kind: "retry", endpoint: REGIONS, delayMs: 50 },
      { kind: "attempt", endpoint: REGIONS, outcome: "http_error" },
      { kind: "retry", endpoint: REGIONS, delayMs: 100 },
      { kind: "attempt", endpoint: REGIONS, outcome: "success" },
    ]);
  });

  it("honours Retry-After on 429, pauses the endpoint, counts it, then succeeds", async () => {
    onGet("/v2/regions").reply(
      429,
      { code: 1, message: "Too many requests" },
      { headers: { "Retry-After": "2" } },
    );
    onGet("/v2/regions").reply(200, ok);
    const { client, clock, observer } = testClient();
    await client.listRegions({});
    upstream.assertNoPendingInterceptors();
    // 2000 ms from Retry-After; the pause ends with it and the endpoint is back at full pace.
    expect(clock.sleeps).toEqual([2_000]);
    expect(observer.events).toEqual([
      { kind: "attempt", endpoint: REGIONS, outcome: "rate_limited" },
      { kind: "rateLimited", endpoint: REGIONS },
      { kind: "retry", endpoint: REGIONS, delayMs: 2_000 },
      { kind: "attempt", endpoint: REGIONS, outcome: "success" },
    ]);
  });

  it("pauses the endpoint for one window plus the margin after a rate-limit answer without Retry-After", async () => {
    onGet("/v2/regions").reply(429, { code: 1, message: "Too many requests" });
    onGet("/v2/regions").reply(200, ok).times(2);
    const { client, clock, observer } = testClient({ rateLimitMarginMs: 40 });
    await client.listRegions({});
    // The retry's backoff (random 0.5 of 250 ms), then the rest of the 1 040 ms pause.
    expect(clock.sleeps).toEqual([125, 915]);
    // Back at full pace at once: the next call only keeps the pacing (1 040 ms / 20).
    await client.listRegions({});
    expect(clock.sleeps).toEqual([125, 915, 52]);
    upstream.assertNoPendingInterceptors();
    expect(observer.events.filter((e) => e.kind === "rateLimited")).toHaveLength(1);
  });

  it("honours Retry-After given as an HTTP date", async () => {
    const { client, clock } = testClient();
    const at = new Date(clock.now() + 3_000).toUTCString();
    onGet("/v2/regions").reply(429, "", { headers: { "Retry-After": at } });
    onGet("/v2/regions").reply(200, ok);
    await client.listRegions({});
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(3_000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(4_000);
  });

  it("gives up on a Retry-After beyond retryMaxMs and pauses the endpoint at most a minute", async () => {
    onGet("/v2/regions").reply(429, "", { headers: { "Retry-After": "86400" } });
    onGet("/v2/regions").reply(200, ok);
    const { client, clock, observer } = testClient();
    const err = await failure(client.listRegions({}));
    expect(err.code).toBe("rate_limited");
    expect(err.retryAfterMs).toBe(86_400_000);
    expect(observer.events.filter((e) => e.kind === "retry")).toEqual([]);
    // The next call waits out the capped pause (60 s), not a day.
    await client.listRegions({});
    expect(clock.sleeps).toEqual([60_000]);
  });

  it("treats the rate-limit code in a 200 envelope as rate limiting, whatever the message", async () => {
    onGet("/v2/regions").reply(200, { code: 8, message: "service busy" });
    onGet("/v2/regions").reply(200, ok);
    const { client, observer } = testClient();
    await expect(client.listRegions({})).resolves.toHaveLength(1);
    upstream.assertNoPendingInterceptors();
    expect(observer.events.filter((e) => e.kind === "rateLimited")).toHaveLength(1);
    expect(observer.events.filter((e) => e.kind === "retry")).toHaveLength(1);
  });

  it("treats a rate-limit message in a 200 envelope as rate limiting", async () => {
    onGet("/v2/regions").reply(200, { code: 90001, message: "request rate limit exceeded" });
    onGet("/v2/regions").reply(200, ok);
    const { client, observer } = testClient();
    await client.listRegions({});
    upstream.assertNoPendingInterceptors();
    expect(observer.events.filter((e) => e.kind === "rateLimited")).toHaveLength(1);
  });

  it("gives up after maxRetries and throws the last error", async () => {
    onGet("/v2/regions").reply(503, "busy").times(3);
    onGet("/v2/regions").reply(200, ok);
    const { client, observer } = testClient({ maxRetries: 2 });
    const err = await failure(client.listRegions({}));
    expect(err.code).toBe("http_error");
    expect(err.httpStatus).toBe(503);
    // The three 503 answers are used up; the 200 after them is not.
    expect(pending()).toEqual([SPARE]);
    expect(observer.events.filter((e) => e.kind === "attempt")).toHaveLength(3);
  });

  /** A case where the upstream answers HTTP 200 with an error `code` in the envelope. */
  const refusal = (apiCode: number, message: string, code: string, permanent = true) => ({
    name: `code ${apiCode}`,
    status: 200,
    body: { code: apiCode, message },
    code,
    permanent,
  });

  it.each([
    { name: "HTTP 401", status: 401, body: {}, code: "auth_error", permanent: true },
    { name: "HTTP 403", status: 403, body: {}, code: "auth_error", permanent: true },
    { name: "HTTP 404", status: 404, body: {}, code: "not_found", permanent: true },
    {
      name: "HTTP 400",
      status: 400,
      body: { code: 1, message: "bad" },
      code: "http_error",
      permanent: false,
    },
    refusal(80001, "Invalid token", "auth_error"),
    refusal(21119, "The apikey is illegal.", "auth_error"),
    refusal(1800, "User hasn't authenticated", "auth_error"),
    refusal(80020, "not found", "not_found"),
    refusal(96018, "cluster not found", "not_found"),
    refusal(80003, "invalid pageSize", "invalid_request"),
    {
      ...refusal(80003, "pageSize must be within limit 5..100", "invalid_request"),
      name: "a validation error that mentions a limit",
    },
    {
      ...refusal(65535, "exceeds the limit of 64 collections", "api_error", false),
      name: "an unknown code whose message mentions a limit",
    },
    {
      name: "a schema mismatch",
      status: 200,
      body: { code: 0, data: { not: "an array" } },
      code: "schema_error",
      permanent: false,
    },
    { name: "invalid JSON", status: 200, body: "{oops", code: "schema_error", permanent: false },
  ])("does not retry $name", async ({ status, body, code, permanent }) => {
    onGet("/v2/regions").reply(status, body);
    onGet("/v2/regions").reply(200, ok);
    const { client, clock, observer } = testClient();
    const err = await failure(client.listRegions({}));
    expect(err.code).toBe(code);
    expect(err.permanent).toBe(permanent);
    // The first answer is used up; the spare is not.
    expect(pending()).toEqual([SPARE]);
    expect(clock.sleeps).toEqual([]);
    expect(observer.events.filter((e) => e.kind === "retry")).toEqual([]);
    expect(observer.events.filter((e) => e.kind === "rateLimited")).toEqual([]);
  });

  it("does not retry an oversized body", async () => {
    onGet("/v2/regions").reply(200, { code: 0, data: [], pad: "x".repeat(500) });
    onGet("/v2/regions").reply(200, ok);
    const { client, observer } = testClient({ maxResponseBytes: 100 });
    const err = await failure(client.listRegions({}));
    expect(err.code).toBe("body_too_large");
    expect(pending()).toContainEqual(SPARE);
    expect(observer.events).toEqual([{ kind: "attempt", endpoint: REGIONS, outcome: "body_too_large" }]);
  });
});

describe("observer reports", () => {
  answeredByMockUpstream();

  it("reports a schema error with its path, not the body", async () => {
    onGet("/v2/clusters/in01-abc").reply(200, {
      code: 0,
      data: { clusterId: "in01-abc", cuSize: "BODY-CONTENT" },
    });
    const { client, observer } = testClient();
    const err = await failure(client.describeCluster("in01-abc"));
    expect(err.code).toBe("schema_error");
    expect(err.message).toContain("data.cuSize");
    expect(err.message).not.toContain("BODY-CONTENT");
    expect(observer.events).toEqual([
      { kind: "attempt", endpoint: "GET /v2/clusters/{id}", outcome: "schema_error" },
      { kind: "schemaError", endpoint: "GET /v2/clusters/{id}" },
    ]);
  });

  it("still returns the answer when the observer throws", async () => {
    onGet("/v2/regions").reply(200, ok);
    const throwing: ClientObserver = {
      attempt: () => {
        throw new Error("observer bug");
      },
      retry: () => {},
      rateLimited: () => {},
      schemaError: () => {},
    };
    const { client } = testClient({ observer: throwing });
    await expect(client.listRegions({})).resolves.toHaveLength(1);
  });
});

describe("rate limiting across calls", () => {
  answeredByMockUpstream();

  it("spaces calls of one endpoint by the budget, and keeps endpoints apart", async () => {
    onGet("/v2/regions").reply(200, ok).times(3);
    onGet("/v2/clusters/c").reply(200, { code: 0, data: { clusterId: "c" } });
    const { client, clock } = testClient({ rateLimit: 2, rateLimitMarginMs: 40 });
    // Two per window of 1 s + 40 ms, paced 520 ms apart; the other endpoint does not wait. This
    // clock moves only when something sleeps, so the first call leaves (is written) once it
    // reads 520 ms, after the pacer's first sleep: the third waits a whole window after that.
    await Promise.all([
      client.listRegions({}),
      client.listRegions({}),
      client.listRegions({}),
      client.describeCluster("c"),
    ]);
    expect(clock.sleeps).toEqual([520, 1040]);
  });
});

describe("aborts", () => {
  answeredByMockUpstream();

  it("sends nothing for an already aborted signal", async () => {
    onGet("/v2/regions").reply(200, ok);
    const { client, observer } = testClient();
    const err = await failure(client.listRegions({}, AbortSignal.abort()));
    expect(err.code).toBe("aborted");
    expect(pending()).toEqual([SPARE]);
    expect(observer.events).toEqual([]);
  });

  it("stops retrying when the signal fires during the backoff", async () => {
    onGet("/v2/regions").reply(503, "busy");
    onGet("/v2/regions").reply(200, ok);
    const ctl = new AbortController();
    const { client } = testClient({
      sleep: (_ms, signal) => {
        ctl.abort();
        return Promise.reject(signal?.reason);
      },
    });
    const err = await failure(client.listRegions({}, ctl.signal));
    expect(err.code).toBe("aborted");
    expect(pending()).toContainEqual(SPARE);
  });
});

describe("over a loopback socket", () => {
  let server: Server | undefined;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it("retries a timed-out attempt and returns the next answer", async () => {
    let requests = 0;
    server = createServer((_req, res) => {
      requests += 1;
      if (requests === 1) return; // the first attempt never gets an answer
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(ok));
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Long enough that the answered attempt never times out on a loaded machine (the tests run
    // four at a time), short enough that the unanswered one costs the test little.
    const { client, observer } = testClient({ baseUrl: base, requestTimeoutMs: 400 });
    await expect(client.listRegions({})).resolves.toHaveLength(1);
    expect(requests).toBe(2);
    expect(
      observer.events.filter((e) => e.kind === "attempt").map((e) => e.kind === "attempt" && e.outcome),
    ).toEqual(["timeout", "success"]);
  });

  it("holds no slot while a request waits for its endpoint's turn: another endpoint's request goes meanwhile", async () => {
    const events: string[] = [];
    server = createServer((req, res) => {
      events.push(`request ${req.url}`);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(req.url === "/v2/regions" ? ok : { code: 0, data: { clusterId: "c" } }));
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The limiter's waits end only when the test says so: the second regions call waits for
    // its turn (one per second) for as long as the test likes.
    const turns: Array<() => void> = [];
    const { client, clock } = testClient({
      baseUrl: base,
      maxInFlight: 1,
      rateLimit: 1,
      rateLimitMarginMs: 0,
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          events.push(`limiter waits ${ms} ms`);
          turns.push(() => {
            clock.advance(ms);
            resolve();
          });
        }),
    });
    const regions = Promise.all([client.listRegions({}), client.listRegions({})]);
    for (let i = 0; i < 200 && turns.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    // With the only slot held by the waiting call, this would never resolve.
    const cluster = await Promise.race([
      client.describeCluster("c"),
      new Promise((_, reject) => setTimeout(() => reject(new Error("the other endpoint was held")), 2_000)),
    ]);
    expect(cluster).toMatchObject({ clusterId: "c" });
    const requests = () => events.filter((e) => e.startsWith("request"));
    expect(requests()).toEqual(["request /v2/regions", "request /v2/clusters/c"]);
    expect(events).toContain("limiter waits 1000 ms");
    turns[0]?.();
    await regions;
    expect(requests()).toEqual(["request /v2/regions", "request /v2/clusters/c", "request /v2/regions"]);
  });
});

describe("the API key never leaks", () => {
  answeredByMockUpstream();

  const key = TEST_API_KEY;
  it.each([
    {
      name: "an auth error echoing the key",
      status: 401,
      body: { code: 80001, message: `token ${key} is invalid` },
    },
    {
      name: "an envelope error echoing the key",
      status: 200,
      body: { code: 21119, message: `apikey ${key} illegal` },
    },
    {
      name: "a rate-limit message echoing the key",
      status: 200,
      body: { code: 5, message: `rate limit for ${key}` },
    },
    { name: "a 500 page echoing the key", status: 500, body: `<html>Authorization: Bearer ${key}</html>` },
    { name: "invalid JSON echoing the key", status: 200, body: `{"code":0,"data":"${key}` },
    {
      name: "a schema mismatch holding the key",
      status: 200,
      body: { code: 0, data: [{ cloudId: key, regionId: 1 }] },
    },
  ])("in $name", async ({ status, body }) => {
    onGet("/v2/regions").reply(status, body).times(4);
    const { client } = testClient();
    const err = await failure(client.listRegions({}));
    expect(err.message).not.toContain(key);
    expect(JSON.stringify(err)).not.toContain(key);
    expect(String(err.stack)).not.toContain(key);
  });

  it("in a network error", async () => {
    // A dispatcher whose connection attempt fails with a message that quotes the key.
    class FailingDispatcher extends Dispatcher {
      override dispatch(_opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        queueMicrotask(() => handler.onError?.(new Error(`connect to ${key} refused`)));
        return true;
      }
    }
    const { client } = testClient({ dispatcher: new FailingDispatcher(), maxRetries: 0 });
    const err = await failure(client.listRegions({}));
    expect(err.code).toBe("network_error");
    expect(err.message).toContain("[REDACTED]");
    expect(err.message).not.toContain(key);
    expect(JSON.stringify(err)).not.toContain(key);
  });
});
