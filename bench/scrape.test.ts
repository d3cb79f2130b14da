import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { Scraper, VARIANTS } from "./scrape.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A loopback server answering with what the request asked for, counting connections. */
async function serve(opts: { status?: number; ignoreGzip?: boolean } = {}) {
  const seen: { accept: string | undefined; encoding: string | undefined }[] = [];
  let connections = 0;
  server = createServer((req, res) => {
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
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, connections: () => connections };
}

describe("Scraper", () => {
  it.each(VARIANTS.map((v) => ({ variant: v })))("sends the headers of $variant.name", async ({ variant }) => {
    const { url, seen } = await serve();
    const scraper = new Scraper(url);
    const s = await scraper.get("/metrics", variant);
    await scraper.close();
    expect(s.status).toBe(200);
    expect(seen[0]).toEqual({ accept: variant.accept, encoding: variant.gzip ? "gzip" : undefined });
    const body = variant.gzip ? gunzipSync(s.body) : s.body;
    expect(body.toString()).toBe(`answer for ${variant.accept}\n`);
  });

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
    await expect(scraper.series("/metrics", VARIANTS[variant] as (typeof VARIANTS)[0], 1, 0)).rejects.toMatchObject({
      code: "scrape_failed",
    });
    await scraper.close();
  });
});
