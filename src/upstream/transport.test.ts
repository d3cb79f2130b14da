import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Dispatcher, MockAgent, Pool } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { failure, mockUpstream } from "./testkit.js";
import { Transport, type TransportOptions } from "./transport.js";

const ORIGIN = "https://api.transport.test";
const KEY = "sk-transport-secret-0123456789";
const ENDPOINT = "GET /v2/regions" as const;

let upstream: MockAgent;

/** Options of a test transport; `dispatcher: "own"` makes it use its own pools (real peers). */
type Overrides = Omit<Partial<TransportOptions>, "dispatcher"> & {
  readonly dispatcher?: Dispatcher | "own";
};

/** A transport answered by `upstream` unless `overrides.dispatcher` says otherwise. */
function transport(overrides: Overrides = {}): Transport {
  const { dispatcher = upstream, ...rest } = overrides;
  return new Transport({
    apiKey: KEY,
    requestTimeoutMs: 5_000,
    maxResponseBytes: 1_000,
    maxInFlight: 4,
    ...rest,
    ...(dispatcher === "own" ? {} : { dispatcher }),
  });
}

/** The interceptor for one request to ORIGIN. */
function on(method: "GET" | "POST", path: string, body?: string) {
  return upstream.get(ORIGIN).intercept({ method, path, ...(body === undefined ? {} : { body }) });
}

/** A loopback HTTP server answering `{"code":0}` to anything; `origin` is its base URL. */
async function loopback(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"code":0}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A GET of ENDPOINT at `url`, as the client sends it. */
function GET(url: string): Parameters<Transport["send"]>[0] {
  return { endpoint: ENDPOINT, method: "GET", url: new URL(url) };
}

const JSON_HEADERS = { headers: { "content-type": "application/json" } };

const open: Transport[] = [];
function track(t: Transport): Transport {
  open.push(t);
  return t;
}

beforeEach(() => {
  upstream = mockUpstream();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
  await upstream.close();
});

describe("Transport headers", () => {
  it("sends Authorization, Accept, Content-Type (with a body) and Request-Timeout in seconds", async () => {
    upstream
      .get(ORIGIN)
      .intercept({
        method: "POST",
        path: "/v2/x",
        body: JSON.stringify({ a: 1 }),
        headers: {
          authorization: `Bearer ${KEY}`,
          accept: "application/json",
          "content-type": "application/json",
          "request-timeout": "8",
        },
      })
      .reply(200, { code: 0, data: {} }, JSON_HEADERS);
    const t = track(transport({ requestTimeoutMs: 7_500 }));
    const res = await t.send({
      endpoint: ENDPOINT,
      method: "POST",
      url: new URL(`${ORIGIN}/v2/x`),
      body: { a: 1 },
    });
    expect(res).toEqual({ status: 200, body: { code: 0, data: {} } });
    upstream.assertNoPendingInterceptors();
  });

  it("sends no Content-Type without a body, and no Request-Timeout when switched off", async () => {
    let sent: Record<string, string> = {};
    on("GET", "/v2/x").reply(({ headers }) => {
      sent = headers as Record<string, string>;
      return { statusCode: 200, data: { code: 0, data: [] } };
    });
    const t = track(transport({ sendRequestTimeoutHeader: false }));
    await t.send(GET(`${ORIGIN}/v2/x`));
    const names = Object.keys(sent).map((h) => h.toLowerCase());
    expect(names).toContain("authorization");
    expect(names).not.toContain("content-type");
    expect(names).not.toContain("request-timeout");
  });
});

describe("Transport responses", () => {
  it("returns Retry-After in milliseconds", async () => {
    on("GET", "/v2/x").reply(200, { code: 0 }, { headers: { "Retry-After": "3" } });
    const res = await track(transport()).send(GET(`${ORIGIN}/v2/x`));
    expect(res.retryAfterMs).toBe(3_000);
  });

  it.each([
    { status: 429, body: { code: 1, message: "slow down" }, code: "rate_limited", retryAfterMs: 2_000 },
    {
      status: 401,
      body: { code: 80001, message: "invalid token" },
      code: "auth_error",
      retryAfterMs: undefined,
    },
    { status: 404, body: "", code: "not_found", retryAfterMs: undefined },
    { status: 503, body: "<html>busy</html>", code: "http_error", retryAfterMs: undefined },
  ])("maps HTTP $status to $code", async ({ status, body, code, retryAfterMs }) => {
    on("GET", "/v2/x").reply(status, body, { headers: status === 429 ? { "Retry-After": "2" } : {} });
    const err = await failure(track(transport()).send(GET(`${ORIGIN}/v2/x`)));
    expect(err.code).toBe(code);
    expect(err.httpStatus).toBe(status);
    expect(err.retryAfterMs).toBe(retryAfterMs);
  });

  it.each([
    { name: "invalid JSON", body: "{not json", message: /not valid JSON/ },
    { name: "an empty body", body: "", message: /empty response body/ },
  ])("fails with a schema error on $name, without quoting the body", async ({ body, message }) => {
    on("GET", "/v2/x").reply(200, body);
    const err = await failure(track(transport()).send(GET(`${ORIGIN}/v2/x`)));
    expect(err.code).toBe("schema_error");
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain("{not");
  });
});

describe("Transport close", () => {
  it("keeps one pool per origin and closes them all", async () => {
    // Its own pools, so real peers: two loopback servers are two origins.
    const servers = await Promise.all([loopback(), loopback()]);
    const t = transport({ dispatcher: "own" });
    const pools = (t as unknown as { pools: Map<string, Pool> }).pools;
    const [a, b] = servers.map((s) => s.origin) as [string, string];
    await t.send(GET(`${a}/v2/x`));
    await t.send(GET(`${a}/v2/x`));
    await t.send(GET(`${b}/v1/y`));
    const owned = [...pools.values()];
    expect([...pools.keys()].sort()).toEqual([a, b].sort());
    await t.close();
    expect(owned.every((pool) => pool.closed)).toBe(true);
    expect(pools.size).toBe(0);
    await Promise.all(servers.map((s) => s.close()));
  });

  it("leaves an injected dispatcher open for its owner", async () => {
    on("GET", "/v2/x").reply(200, { code: 0 });
    const t = transport();
    await t.send(GET(`${ORIGIN}/v2/x`));
    await t.close();
    // Still open: it answers another request.
    on("GET", "/v2/z").reply(200, "still open");
    const after = await upstream.request({ origin: ORIGIN, path: "/v2/z", method: "GET" });
    expect(await after.body.text()).toBe("still open");
  });
});

describe("Transport limits", () => {
  it("refuses a body whose Content-Length exceeds maxResponseBytes", async () => {
    const body = JSON.stringify({ code: 0, data: "x".repeat(200) });
    on("GET", "/v2/x").reply(200, body, { headers: { "content-length": String(body.length) } });
    const err = await failure(track(transport({ maxResponseBytes: 100 })).send(GET(`${ORIGIN}/v2/x`)));
    expect(err.code).toBe("body_too_large");
  });

  it("stops reading a chunked body once it exceeds maxResponseBytes", async () => {
    // No Content-Length, so the limit must be enforced while streaming.
    on("GET", "/v2/x").reply(200, JSON.stringify({ code: 0, data: "y".repeat(5_000) }), {
      headers: { "transfer-encoding": "chunked" },
    });
    const err = await failure(track(transport({ maxResponseBytes: 1_000 })).send(GET(`${ORIGIN}/v2/x`)));
    expect(err.code).toBe("body_too_large");
  });

  it("classifies an oversized error page by its status, so a 503 stays retryable", async () => {
    on("GET", "/v2/x").reply(503, `<html>${"busy ".repeat(500)}</html>`);
    const err = await failure(track(transport({ maxResponseBytes: 100 })).send(GET(`${ORIGIN}/v2/x`)));
    expect(err.code).toBe("http_error");
    expect(err.httpStatus).toBe(503);
  });

  it("accepts a body of exactly maxResponseBytes", async () => {
    const body = JSON.stringify({ code: 0, data: "z".repeat(80) });
    on("GET", "/v2/x").reply(200, body);
    const res = await track(transport({ maxResponseBytes: body.length })).send(GET(`${ORIGIN}/v2/x`));
    expect(res.body).toEqual({ code: 0, data: "z".repeat(80) });
  });

  it("fails at once as aborted for an already aborted signal", async () => {
    on("GET", "/v2/x").reply(200, { code: 0 });
    const err = await failure(track(transport()).send(GET(`${ORIGIN}/v2/x`), AbortSignal.abort()));
    expect(err.code).toBe("aborted");
    expect(upstream.pendingInterceptors()).toHaveLength(1);
  });
});

// Socket-level behaviour (stalls, truncation, resets) needs a real peer: the loopback server
// below stands in for the upstream, on an ephemeral port of 127.0.0.1.
describe("Transport over a loopback socket", () => {
  // These exercise the transport's own pools against a real peer, not the mock.
  const ownTransport = (overrides: Overrides = {}) => transport({ dispatcher: "own", ...overrides });
  let server: Server | undefined;
  let handler: RequestListener = () => {};

  async function listen(): Promise<string> {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it("fails with a schema error when the body is shorter than Content-Length", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "40" });
      res.write('{"code":0,"da');
      setImmediate(() => res.socket?.destroy());
    };
    const base = await listen();
    const err = await failure(track(ownTransport()).send(GET(`${base}/x`)));
    expect(err.code).toBe("schema_error");
    expect(err.message).toMatch(/truncated/);
  });

  it("times out when no answer arrives within requestTimeoutMs", async () => {
    handler = () => {};
    const base = await listen();
    const err = await failure(track(ownTransport({ requestTimeoutMs: 50 })).send(GET(`${base}/x`)));
    expect(err.code).toBe("timeout");
  });

  it("times out when the body stalls after the headers", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"code":0,');
    };
    const base = await listen();
    const err = await failure(track(ownTransport({ requestTimeoutMs: 50 })).send(GET(`${base}/x`)));
    expect(err.code).toBe("timeout");
  });

  it("fails as aborted when the caller's signal fires mid-request", async () => {
    const ctl = new AbortController();
    handler = () => ctl.abort();
    const base = await listen();
    const err = await failure(track(ownTransport()).send(GET(`${base}/x`), ctl.signal));
    expect(err.code).toBe("aborted");
  });

  it("reports a reset connection as a network error", async () => {
    handler = (req) => req.socket.destroy();
    const base = await listen();
    const err = await failure(track(ownTransport()).send(GET(`${base}/x`)));
    expect(err.code).toBe("network_error");
  });

  it("holds no more than maxInFlight requests open at once", async () => {
    let open = 0;
    let peak = 0;
    handler = (_req, res) => {
      open += 1;
      peak = Math.max(peak, open);
      // Held long enough that, without the cap, all six would be open together.
      setTimeout(() => {
        open -= 1;
        res.setHeader("content-type", "application/json");
        res.end('{"code":0,"data":[]}');
      }, 50);
    };
    const base = await listen();
    const t = track(ownTransport({ maxInFlight: 2 }));
    const results = await Promise.all(Array.from({ length: 6 }, () => t.send(GET(`${base}/x`))));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(peak).toBeGreaterThanOrEqual(1);
    expect(peak).toBeLessThanOrEqual(2);
  });

  it("reports a request as leaving only once it holds an in-flight slot (for the rate limiter)", async () => {
    const arrived: number[] = [];
    handler = (_req, res) => {
      arrived.push(Date.now());
      setTimeout(() => {
        res.setHeader("content-type", "application/json");
        res.end('{"code":0,"data":[]}');
      }, 150);
    };
    const base = await listen();
    const t = track(ownTransport({ maxInFlight: 1 }));
    const left: number[] = [];
    const send = () =>
      t.send(GET(`${base}/x`), undefined, () => {
        left.push(Date.now());
      });
    const first = send();
    const second = send();
    await new Promise((r) => setTimeout(r, 50));
    // The second waits for the slot: it has not left, so the limiter must not count it yet.
    expect(left).toHaveLength(1);
    await Promise.all([first, second]);
    expect(left).toHaveLength(2);
    expect((left[1] as number) - (left[0] as number)).toBeGreaterThanOrEqual(140);
    expect(arrived).toHaveLength(2);
  });
});

describe("Transport onSend (the client's rate-limit permit)", () => {
  it("is called with the slot held, just before the request is written", async () => {
    const order: string[] = [];
    on("GET", "/v2/x").reply(() => {
      order.push("request");
      return { statusCode: 200, data: { code: 0, data: [] } };
    });
    const t = track(transport({ maxInFlight: 1 }));
    const res = await t.send(GET(`${ORIGIN}/v2/x`), undefined, () => {
      order.push(`sent with ${t.freeSlots} slots free`);
    });
    expect(res.status).toBe(200);
    expect(order).toEqual(["sent with 0 slots free", "request"]);
    expect(t.freeSlots).toBe(1);
  });

  it("is not called for a request aborted while it waits for a slot", async () => {
    on("GET", "/v2/x").reply(200, { code: 0, data: [] }).delay(100);
    const t = track(transport({ maxInFlight: 1 }));
    const sent: string[] = [];
    const first = t.send(GET(`${ORIGIN}/v2/x`), undefined, () => sent.push("first"));
    const ctl = new AbortController();
    const second = t.send(GET(`${ORIGIN}/v2/x`), ctl.signal, () => sent.push("second"));
    ctl.abort();
    expect((await failure(second)).code).toBe("aborted");
    await first;
    expect(sent).toEqual(["first"]);
  });
});

describe("Transport turn (the exporter's own answers first)", () => {
  it("writes a request and parses its answer only once the turn is given", async () => {
    const order: string[] = [];
    on("GET", "/v2/x").reply(() => {
      order.push("request");
      return { statusCode: 200, data: { code: 0, data: [] } };
    });
    let give: (() => void) | undefined;
    const t = track(
      transport({
        turn: () => {
          order.push("turn asked");
          return new Promise<void>((resolve) => {
            give = () => {
              order.push("turn given");
              resolve();
            };
          });
        },
      }),
    );
    let answered = false;
    const pending = t
      .send(GET(`${ORIGIN}/v2/x`), undefined, () => order.push("sent"))
      .then((r) => {
        answered = true;
        return r;
      });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(["turn asked"]);
    give?.();
    await new Promise((r) => setTimeout(r, 20));
    // Answered, but not parsed: the second turn is still held.
    expect(order).toEqual(["turn asked", "turn given", "sent", "request", "turn asked"]);
    expect(answered).toBe(false);
    give?.();
    expect((await pending).body).toEqual({ code: 0, data: [] });
  });
});
