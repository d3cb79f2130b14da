import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it } from "vitest";
import type { MetricsResponse } from "../exposition/exposition.js";
import { createApp, type HttpDeps } from "./app.js";
import { BasicAuth } from "./basicAuth.js";
import { tableCells } from "./landingTestkit.js";

let server: Server | undefined;

const SD_BODY = JSON.stringify([
  {
    targets: ["api.cloud.zilliz.com:443"],
    labels: {
      __scheme__: "https",
      __metrics_path__: "/v2/clusters/in01-a/metrics/export",
      cluster_id: "in01-a",
    },
  },
]);

async function serve(overrides: Partial<HttpDeps> = {}): Promise<string> {
  const deps: HttpDeps = {
    metrics: async (): Promise<MetricsResponse> => ({
      contentType: "text/plain; version=0.0.4; charset=utf-8",
      body: [[Buffer.from("m 1\n")]],
      length: 4,
    }),
    landing: () => ({
      version: "1.2.3",
      startedAtMs: 0,
      nowMs: 60_000,
      ready: true,
      series: 42,
      publishedAtMs: 59_000,
      shard: { index: 0, total: 1 },
      targets: [
        {
          collector: "cluster_metrics",
          target: "in01-a",
          up: true,
          lastSuccessMs: 30_000,
          consecutiveFailures: 0,
          lastError: null,
        },
        {
          collector: "cluster_metrics",
          target: "<script>x</script>",
          up: false,
          lastSuccessMs: null,
          consecutiveFailures: 3,
          lastError: { code: "not_found", message: "cluster not found" },
        },
      ],
    }),
    ready: () => true,
    reload: async () => ({ ok: true, problems: [] }),
    nativeTargets: () => ({ status: 200, contentType: "application/json; charset=utf-8", body: SD_BODY }),
    ...overrides,
  };
  server = createApp(deps).listen(0, "127.0.0.1");
  await new Promise((r) => server?.once("listening", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = undefined;
});

describe("http app", () => {
  it("serves /metrics with its content type and no framework banner", async () => {
    const base = await serve();
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(res.headers.get("x-powered-by")).toBeNull();
    expect(await res.text()).toBe("m 1\n");
  });

  it.each([
    { name: "a GET", method: "GET", fails: false },
    { name: "a HEAD", method: "HEAD", fails: false },
    { name: "a failing answer", method: "GET", fails: true },
  ])(
    "marks /metrics as answered in the foreground until its last byte, for $name",
    async ({ method, fails }) => {
      const log: string[] = [];
      const base = await serve({
        metrics: async () => {
          log.push("metrics");
          if (fails) throw new Error("boom");
          return {
            contentType: "text/plain; version=0.0.4; charset=utf-8",
            body: [[Buffer.from("m 1\n")]],
            length: 4,
          };
        },
        answering: () => {
          log.push("enter");
          return () => log.push("end");
        },
      });
      const res = await fetch(`${base}/metrics`, { method });
      await res.arrayBuffer();
      expect(res.status).toBe(fails ? 500 : 200);
      // "finish" and "close" both end it; the span counts one end.
      expect(log.slice(0, 3)).toEqual(["enter", "metrics", "end"]);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect(log.filter((l) => l === "enter")).toHaveLength(1);
    },
  );

  it.each([
    { path: "/nope", method: "GET", status: 404 },
    { path: "/metrics", method: "POST", status: 405 },
    { path: "/metrics", method: "DELETE", status: 405 },
    { path: "/-/reload", method: "GET", status: 405 },
    { path: "/healthz", method: "PUT", status: 405 },
    { path: "/sd/native-export", method: "POST", status: 405 },
  ])("$method $path -> $status", async ({ path, method, status }) => {
    const base = await serve();
    const res = await fetch(`${base}${path}`, { method });
    expect(res.status).toBe(status);
    if (status === 405) expect(res.headers.get("allow")).toBeTruthy();
  });

  it.each([
    { health: "/healthz", readiness: "/readyz" },
    { health: "/-/healthy", readiness: "/-/ready" },
  ])("answers $health always and $readiness only when ready", async ({ health, readiness }) => {
    let ready = false;
    const base = await serve({ ready: () => ready });
    expect((await fetch(`${base}${health}`)).status).toBe(200);
    expect((await fetch(`${base}${health}`, { method: "HEAD" })).status).toBe(200);
    expect((await fetch(`${base}${readiness}`)).status).toBe(503);
    ready = true;
    const res = await fetch(`${base}${readiness}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ready\n");
    expect((await fetch(`${base}${health}`, { method: "POST" })).status).toBe(405);
  });

  it("reload: 200 when applied, 400 with the problems when rejected (with --web.enable-lifecycle)", async () => {
    const base = await serve({
      lifecycle: true,
      reload: async () => ({ ok: false, problems: ["metrics.granularity: must be at least PT30S"] }),
    });
    const res = await fetch(`${base}/-/reload`, { method: "POST" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("metrics.granularity: must be at least PT30S");
  });

  it("reload: 403 without --web.enable-lifecycle, and nothing is reloaded", async () => {
    let reloads = 0;
    const base = await serve({
      reload: async () => {
        reloads++;
        return { ok: true, problems: [] };
      },
    });
    const res = await fetch(`${base}/-/reload`, { method: "POST" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("--web.enable-lifecycle");
    expect(reloads).toBe(0);
  });

  it("answers 503 with Retry-After when authentication is busy, and the probes stay open", async () => {
    const auth = { check: async () => "busy" as const } as unknown as BasicAuth;
    const base = await serve({ auth });
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it("rate_limit: a token bucket in front of every route but the probes (429 beyond)", async () => {
    let now = 0;
    const base = await serve({ rateLimit: { intervalMs: 1000, burst: 2 }, now: () => now });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${base}/metrics`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    now = 1000;
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
  });

  it("refuses large request bodies", async () => {
    const base = await serve({ lifecycle: true });
    const res = await fetch(`${base}/-/reload`, { method: "POST", body: "x".repeat(5000) });
    expect(res.status).toBe(413);
  });

  it("landing page links the endpoints and escapes target names and errors", async () => {
    const base = await serve();
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain('href="metrics"');
    for (const probe of ["healthz", "readyz", "-/healthy", "-/ready", "sd/native-export"])
      expect(html).toContain(`href="${probe}"`);
    expect(html).toContain("in01-a");
    expect(html).toContain("not_found: cluster not found");
    expect(html).not.toContain("<script>x</script>");
    expect(html).toContain("&#60;script&#62;");
    // The failing target is listed before the healthy one.
    expect(html.indexOf("not_found: cluster not found")).toBeLessThan(html.indexOf("in01-a"));
  });

  it("serves /sd/native-export as prepared: the JSON target groups, or the 404 with its reason", async () => {
    let answer = { status: 200, contentType: "application/json; charset=utf-8", body: SD_BODY };
    const base = await serve({ nativeTargets: () => answer });
    const res = await fetch(`${base}/sd/native-export`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual(JSON.parse(SD_BODY));
    expect((await fetch(`${base}/sd/native-export`, { method: "HEAD" })).status).toBe(200);
    answer = {
      status: 404,
      contentType: "text/plain; charset=utf-8",
      body: "404 native_export is disabled\n",
    };
    const off = await fetch(`${base}/sd/native-export`);
    expect(off.status).toBe(404);
    expect(await off.text()).toBe("404 native_export is disabled\n");
  });

  it.each([
    { query: "", want: ["<script>x</script>", "in01-a"] },
    { query: "?state=failing", want: ["<script>x</script>"] },
    { query: "?collector=cluster_metrics&q=IN01", want: ["in01-a"] },
    { query: "?state=pending", want: [] },
  ])("landing page filters its table by the query $query", async ({ query, want }) => {
    const base = await serve();
    const res = await fetch(`${base}/${query}`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    const listed = tableCells(html, "target-table").map((cells) => cells[1] ?? "");
    expect(listed.map((t) => t.replaceAll("&#60;", "<").replaceAll("&#62;", ">"))).toEqual(want);
  });

  it("basic auth protects /metrics and / but not the health probes", async () => {
    const hash = bcrypt.hashSync("s3cret", 4);
    const base = await serve({ auth: new BasicAuth(new Map([["prom", hash]])) });
    const good = `Basic ${Buffer.from("prom:s3cret").toString("base64")}`;
    const bad = `Basic ${Buffer.from("prom:wrong").toString("base64")}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: bad } })).status).toBe(401);
    expect((await fetch(`${base}/`)).headers.get("www-authenticate")).toContain("Basic");
    expect((await fetch(`${base}/metrics`, { headers: { authorization: good } })).status).toBe(200);
    expect((await fetch(`${base}/-/reload`, { method: "POST" })).status).toBe(401);
    expect(
      (await fetch(`${base}/-/reload`, { method: "POST", headers: { authorization: good } })).status,
    ).toBe(403);
    expect((await fetch(`${base}/sd/native-export`)).status).toBe(401);
    expect((await fetch(`${base}/sd/native-export`, { headers: { authorization: good } })).status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
    expect((await fetch(`${base}/-/ready`)).status).toBe(200);
  });
});
