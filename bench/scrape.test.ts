import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { interleaved, Scraper, VARIANTS } from "./scrape.js";

/** A loopback server answering with what the request asked for, counting connections. */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(opts: { status?: number; ignoreGzip?: boolean; order?: string[]; name?: string } = {}) {
  const seen: { accept: string | undefined; encoding: string | undefined }[] = [];
  let connections = 0;
  const srv = createServer((req, res) => {
    opts.order?.push(opts.name ?? "");
    seen.push({ accept: req.headers.accept, encoding: req.headers["accept-encoding"] });
    const body = Buffer.from(`answer for ${req.headers.accept}\n`);
    if (req.headers["accept-encoding"] === "gzip" && !opts.ignoreGzip) {
      res.writeHead(opts.status ?? 200, { "content-encoding": "gzip" });
      res.end(gzipSync(body));
    } else {
      res.writeHead(opts.status ?? 200);
      res.end(body);
    }
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
});
