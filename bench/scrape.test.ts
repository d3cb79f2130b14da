import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { interleaved, keepAliveOf, Scraper, VARIANTS } from "./scrape.js";

/** A loopback server answering with what the request asked for, counting connections. */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(
  opts: {
    status?: number;
    ignoreGzip?: boolean;
    order?: string[];
    name?: string;
    /** Answers with Content-Length instead of chunked. */
    length?: boolean;
    /** Closes the connection after each answer. */
    close?: boolean;
    /** Never answers. */
    silent?: boolean;
  } = {},
) {
  const seen: { accept: string | undefined; encoding: string | undefined }[] = [];
  let connections = 0;
  const srv = createServer((req, res) => {
    opts.order?.push(opts.name ?? "");
    seen.push({ accept: req.headers.accept, encoding: req.headers["accept-encoding"] });
    if (opts.silent) return;
    const plain = Buffer.from(`answer for ${req.headers.accept}\n`);
    const gzip = req.headers["accept-encoding"] === "gzip" && !opts.ignoreGzip;
    const body = gzip ? gzipSync(plain) : plain;
    res.writeHead(opts.status ?? 200, {
      ...(gzip ? { "content-encoding": "gzip" } : {}),
      ...(opts.length ? { "content-length": body.length } : {}),
      ...(opts.close ? { connection: "close" } : {}),
    });
    res.end(body);
  });
  srv.on("connection", () => connections++);
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  return { url, seen, connections: () => connections };
}

describe("Scraper", () => {
  it.each(VARIANTS.map((v) => ({ variant: v })))(
    "sends the headers of $variant.name",
    async ({ variant }) => {
      const { url, seen } = await serve();
      const scraper = new Scraper(url);
      const s = await scraper.get("/metrics", variant);
      await scraper.close();
      expect(s.status).toBe(200);
      expect(seen[0]).toEqual({ accept: variant.accept, encoding: variant.gzip ? "gzip" : undefined });
      const body = variant.gzip ? gunzipSync(s.body) : s.body;
      expect(body.toString()).toBe(`answer for ${variant.accept}\n`);
    },
  );

  it("times every scrape after the warm-up over one kept-alive connection", async () => {
    const { url, seen, connections } = await serve();
    const scraper = new Scraper(url);
    const run = await scraper.series("/metrics", VARIANTS[0] as (typeof VARIANTS)[0], 5, 2);
    await scraper.close();
    expect(run.ms).toHaveLength(5);
    expect(run.ms.every((ms) => ms >= 0)).toBe(true);
    expect(run.bytes).toBeGreaterThan(0);
    expect(seen).toHaveLength(7);
    expect(connections()).toBe(1);
  });

  it.each([
    { name: "a non-200 answer", opts: { status: 500 }, variant: 0 },
    { name: "an uncompressed answer to a gzip request", opts: { ignoreGzip: true }, variant: 2 },
  ])("rejects $name", async ({ opts, variant }) => {
    const { url } = await serve(opts);
    const scraper = new Scraper(url);
    await expect(
      scraper.series("/metrics", VARIANTS[variant] as (typeof VARIANTS)[0], 1, 0),
    ).rejects.toMatchObject({
      code: "scrape_failed",
    });
    await scraper.close();
  });

  it("interleaves servers request by request and times each one's scrapes", async () => {
    const order: string[] = [];
    const a = await serve({ order, name: "a" });
    const b = await serve({ order, name: "b" });
    const scrapers = [new Scraper(a.url), new Scraper(b.url)];
    const runs = await interleaved(scrapers, "/metrics", VARIANTS[0] as (typeof VARIANTS)[0], 3, 1);
    await Promise.all(scrapers.map((s) => s.close()));
    expect(order).toEqual(["a", "b", "a", "b", "a", "b", "a", "b"]);
    expect(runs.map((r) => r.ms.length)).toEqual([3, 3]);
  });

  it.each([
    { name: "chunked", opts: {} },
    { name: "Content-Length", opts: { length: true } },
  ])("counts a $name body without keeping it when asked", async ({ opts }) => {
    const { url } = await serve(opts);
    const scraper = new Scraper(url);
    const variant = VARIANTS[0] as (typeof VARIANTS)[0];
    const counted = await scraper.get("/metrics", variant, 5000, false);
    const kept = await scraper.get("/metrics", variant);
    await scraper.close();
    expect(counted.body.length).toBe(0);
    expect(counted.bytes).toBe(`answer for ${variant.accept}\n`.length);
    expect(kept.bytes).toBe(counted.bytes);
    expect(kept.body.toString()).toBe(`answer for ${variant.accept}\n`);
  });

  it("opens a new connection after a server closed one", async () => {
    const { url, seen, connections } = await serve({ close: true });
    const scraper = new Scraper(url);
    const variant = VARIANTS[0] as (typeof VARIANTS)[0];
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await scraper.get("/metrics", variant)).status);
    await scraper.close();
    expect(statuses).toEqual([200, 200, 200]);
    expect(seen).toHaveLength(3);
    expect(connections()).toBe(3);
  });

  it("rejects with scrape_timeout when no answer comes in time", async () => {
    const { url } = await serve({ silent: true });
    const scraper = new Scraper(url);
    await expect(scraper.get("/metrics", VARIANTS[0] as (typeof VARIANTS)[0], 50)).rejects.toMatchObject({
      code: "scrape_timeout",
    });
    await scraper.close();
  });
});

describe("keepAliveOf", () => {
  it.each([
    { header: undefined, ms: 5000 },
    { header: "timeout=65", ms: 65_000 },
    { header: "max=100, timeout=7", ms: 7000 },
    { header: "max=100", ms: 5000 },
  ])("reads $header as $ms ms", ({ header, ms }) => {
    expect(keepAliveOf(header)).toBe(ms);
  });
});
