import { request } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiCode, RATE_LIMIT_MESSAGE, type Simulator, startSimulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);

async function raw(
  url: string,
  init: { method?: "GET" | "POST" | "DELETE"; body?: unknown; key?: string; signal?: AbortSignal } = {},
) {
  const res = await request(url, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${init.key ?? "k"}`, "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  return res;
}

async function text(url: string) {
  const res = await raw(url);
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

describe("faults", () => {
  let sim: Simulator;
  let describeUrl: string;
  let clusterId: string;

  simulatorPerSuite({ now: () => T0, rateLimitPerSecond: 0 }, (s) => {
    sim = s;
    clusterId = s.clusters[0]?.id ?? "";
    describeUrl = `${s.baseUrl}/v2/clusters/${clusterId}`;
  });
  afterEach(() => {
    sim.faults.clear();
    sim.stats.reset();
  });

  it.each([
    ["http_500", 500],
    ["http_502", 502],
    ["http_503", 503],
  ] as const)("%s answers HTTP %i and is counted", async (kind, status) => {
    sim.faults.set(kind, { rate: 1 });
    expect((await text(describeUrl)).status).toBe(status);
    expect(sim.stats.faultsInjected[kind]).toBe(1);
  });

  it("non_json sends an HTML page", async () => {
    sim.faults.set("non_json", { rate: 1 });
    const a = await text(describeUrl);
    expect(a.status).toBe(200);
    expect(a.headers["content-type"]).toMatch(/^text\/html/);
    expect(() => JSON.parse(a.body)).toThrow();
  });

  it("non_json takes a status", async () => {
    sim.faults.set("non_json", { rate: 1, status: 502 });
    expect((await text(describeUrl)).status).toBe(502);
  });

  it("truncated sends a cut prefix of the real body", async () => {
    const whole = (await text(describeUrl)).body;
    sim.faults.set("truncated", { rate: 1 });
    const cut = (await text(describeUrl)).body;
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.length).toBeLessThan(whole.length);
    expect(whole.startsWith(cut)).toBe(true);
    expect(() => JSON.parse(cut)).toThrow();
  });

  it("truncated with abort drops the connection mid-body", async () => {
    sim.faults.set("truncated", { rate: 1, abort: true });
    await expect(text(describeUrl)).rejects.toThrow();
  });

  it("wrong_shape sends a success envelope with data of the other shape", async () => {
    sim.faults.set("wrong_shape", { rate: 1 });
    const obj = JSON.parse((await text(describeUrl)).body) as { code: number; data: unknown };
    expect(obj.code).toBe(0);
    expect(Array.isArray(obj.data)).toBe(true);
    const arr = JSON.parse((await text(`${sim.baseUrl}/v1/projects`)).body) as {
      code: number;
      data: unknown;
    };
    expect(arr.code).toBe(200);
    expect(Array.isArray(arr.data)).toBe(false);
  });

  it("rate_limit_429 answers 429 with Retry-After", async () => {
    sim.faults.set("rate_limit_429", { rate: 1, retryAfterSeconds: 3 });
    const a = await text(describeUrl);
    expect(a.status).toBe(429);
    expect(a.headers["retry-after"]).toBe("3");
    expect(JSON.parse(a.body)).toEqual({ code: ApiCode.RATE_LIMITED, message: RATE_LIMIT_MESSAGE });
  });

  it("rate_limit_code answers HTTP 200 with a non-zero code and a rate-limit message", async () => {
    sim.faults.set("rate_limit_code", { rate: 1 });
    const a = await text(describeUrl);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ code: ApiCode.RATE_LIMITED, message: "Rate limit exceeded" });
  });

  it("invalid_key and unknown_cluster answer their codes (v2 and v1)", async () => {
    sim.faults.set("invalid_key", { rate: 1 });
    expect(JSON.parse((await text(describeUrl)).body).code).toBe(ApiCode.INVALID_TOKEN);
    sim.faults.clear("invalid_key");
    sim.faults.set("unknown_cluster", { rate: 1 });
    expect(JSON.parse((await text(describeUrl)).body).code).toBe(ApiCode.CLUSTER_NOT_FOUND_V2);
    const v1 = await text(`${sim.baseUrl}/v1/vector/collections/import/list?clusterId=${clusterId}`);
    expect(JSON.parse(v1.body).code).toBe(ApiCode.CLUSTER_NOT_FOUND_V1);
  });

  it.each([
    { code: undefined, want: { code: 96027, message: "Please check your Apikey scope." } },
    { code: 96013, want: { code: 96013, message: "Org owner or project owner is needed." } },
    { code: 96028, want: { code: 96028, message: "Feature only supported for enterprise plan clusters." } },
  ])(
    "catalogue_refusal answers the catalogue's code $code with its message, HTTP 200",
    async ({ code, want }) => {
      sim.faults.set("catalogue_refusal", { rate: 1, ...(code === undefined ? {} : { code }) });
      const a = await text(describeUrl);
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body)).toEqual(want);
    },
  );

  it("http_401 answers HTTP 401", async () => {
    sim.faults.set("http_401", { rate: 1 });
    expect((await text(describeUrl)).status).toBe(401);
  });

  it("illegal_token_code0 answers the reference's failure sample: code 0, a message, no data", async () => {
    sim.faults.set("illegal_token_code0", { rate: 1 });
    const a = await text(describeUrl);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ code: 0, message: "The token is illegal." });
  });

  it("slow_body sends the real body in several pieces", async () => {
    const whole = (await text(describeUrl)).body;
    sim.faults.set("slow_body", { rate: 1, durationMs: 100, chunks: 4 });
    const res = await raw(describeUrl);
    expect(res.statusCode).toBe(200);
    const pieces: Buffer[] = [];
    for await (const chunk of res.body) pieces.push(chunk as Buffer);
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces).toString()).toBe(whole);
  });

  it("hang never answers until the client gives up", async () => {
    sim.faults.set("hang", { rate: 1 });
    const ctl = new AbortController();
    const pending = raw(describeUrl, { signal: ctl.signal });
    await vi.waitFor(() => expect(sim.stats.faultsInjected.hang).toBe(1));
    ctl.abort();
    await expect(pending).rejects.toThrow();
  });

  it("close() ends hung requests instead of waiting for them", async () => {
    const local = await startSimulator({ now: () => T0 });
    local.faults.set("hang", { rate: 1 });
    const pending = raw(`${local.baseUrl}/v2/regions`);
    await vi.waitFor(() => expect(local.stats.requests).toBe(1));
    await local.close();
    await expect(pending).rejects.toThrow();
  });

  it("filters by endpoint template and by cluster", async () => {
    sim.faults.set("http_500", { rate: 1, endpoints: ["GET /v2/regions"] });
    expect((await text(describeUrl)).status).toBe(200);
    expect((await text(`${sim.baseUrl}/v2/regions`)).status).toBe(500);
    sim.faults.set("http_500", { rate: 1, clusters: [sim.clusters[1]?.id ?? ""] });
    expect((await text(describeUrl)).status).toBe(200);
    expect((await text(`${sim.baseUrl}/v2/clusters/${sim.clusters[1]?.id}`)).status).toBe(500);
    expect((await text(`${sim.baseUrl}/v2/regions`)).status).toBe(200);
  });

  it("never fires at rate 0 and fires reproducibly at a fractional rate", async () => {
    sim.faults.set("http_503", { rate: 0 });
    expect((await text(describeUrl)).status).toBe(200);

    const outcomes = async (s: Simulator) => {
      s.faults.set("http_503", { rate: 0.5 });
      const out: number[] = [];
      for (let i = 0; i < 16; i++) out.push((await text(`${s.baseUrl}/v2/regions`)).status);
      return out;
    };
    const a = await startSimulator({ now: () => T0, rateLimitPerSecond: 0, seed: 7 });
    const b = await startSimulator({ now: () => T0, rateLimitPerSecond: 0, seed: 7 });
    try {
      const first = await outcomes(a);
      expect(await outcomes(b)).toEqual(first);
      expect(first).toContain(503);
      expect(first).toContain(200);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("refuses an invalid fault setting", () => {
    expect(() => sim.faults.set("http_500", { rate: 2 })).toThrow(
      expect.objectContaining({ code: "INVALID_FAULT" }),
    );
    expect(() => sim.faults.set("nope" as "http_500", { rate: 1 })).toThrow(
      expect.objectContaining({ code: "INVALID_FAULT" }),
    );
  });

  it("is controlled over HTTP at /_sim/faults", async () => {
    const set = await raw(`${sim.baseUrl}/_sim/faults`, {
      method: "POST",
      body: { kind: "http_502", rate: 1 },
    });
    expect(set.statusCode).toBe(200);
    await set.body.dump();
    expect(sim.faults.active()).toEqual({ http_502: { rate: 1 } });
    expect((await text(describeUrl)).status).toBe(502);
    const bad = await raw(`${sim.baseUrl}/_sim/faults`, { method: "POST", body: { kind: "boom", rate: 1 } });
    expect(bad.statusCode).toBe(400);
    await bad.body.dump();
    const cleared = await raw(`${sim.baseUrl}/_sim/faults`, { method: "DELETE" });
    await cleared.body.dump();
    expect(sim.faults.active()).toEqual({});
    expect((await text(describeUrl)).status).toBe(200);
  });
});

describe("rate limiting", () => {
  let clock = T0;
  let sim: Simulator;

  simulatorPerSuite({ now: () => clock }, (s) => {
    sim = s;
  });

  it("refuses the 21st request within a second with 429 and Retry-After: 1", async () => {
    const url = `${sim.baseUrl}/v2/regions`;
    for (let i = 0; i < 20; i++) expect((await text(url)).status).toBe(200);
    const refused = await text(url);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(JSON.parse(refused.body)).toEqual({ code: ApiCode.RATE_LIMITED, message: RATE_LIMIT_MESSAGE });
    expect(sim.stats.rateLimited).toBe(1);
    expect(sim.stats.rateLimitedByEndpoint["GET /v2/regions"]).toBe(1);

    // Budgets are per endpoint and per key.
    expect((await text(`${sim.baseUrl}/v1/projects`)).status).toBe(200);
    const otherKey = await raw(url, { key: "other" });
    expect(otherKey.statusCode).toBe(200);
    await otherKey.body.dump();

    clock += 1000;
    expect((await text(url)).status).toBe(200);
  });
});
