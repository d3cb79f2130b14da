/**
 * The scraping client of the harness: sequential GETs of a metrics endpoint over one
 * keep-alive connection (as Prometheus does), timed from sending the request to the last
 * byte of the body.
 */
import { Pool } from "undici";
import { BenchError } from "./errors.js";

/** One combination of exposition format and compression. */
export interface Variant {
  readonly name: string;
  readonly accept: string;
  readonly gzip: boolean;
}

/** The four answers a Prometheus server may ask for. */
export const VARIANTS: readonly Variant[] = [
  { name: "text", accept: "text/plain;version=0.0.4;q=1", gzip: false },
  { name: "openmetrics", accept: "application/openmetrics-text;version=1.0.0;q=1", gzip: false },
  { name: "text+gzip", accept: "text/plain;version=0.0.4;q=1", gzip: true },
  { name: "openmetrics+gzip", accept: "application/openmetrics-text;version=1.0.0;q=1", gzip: true },
];

/** One answer: status, time to the last byte, body (raw: still compressed for gzip). */
export interface Scrape {
  readonly status: number;
  readonly ms: number;
  readonly body: Buffer;
  readonly contentEncoding: string | undefined;
}

/** A keep-alive client of one origin (scheme, host and port). Close it when done. */
export class Scraper {
  private readonly pool: Pool;

  constructor(origin: string) {
    this.pool = new Pool(origin, { connections: 1, keepAliveTimeout: 60_000 });
  }

  /** One GET of `path` as `variant`; rejects on a transport error or after `timeoutMs`. */
  async get(path: string, variant: Variant, timeoutMs = 30_000): Promise<Scrape> {
    const started = performance.now();
    const res = await this.pool.request({
      method: "GET",
      path,
      headers: { accept: variant.accept, ...(variant.gzip ? { "accept-encoding": "gzip" } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) chunks.push(chunk as Buffer);
    const ms = performance.now() - started;
    const encoding = res.headers["content-encoding"];
    return {
      status: res.statusCode,
      ms,
      body: Buffer.concat(chunks),
      contentEncoding: typeof encoding === "string" ? encoding : undefined,
    };
  }

  /**
   * `count` timed scrapes after `warmup` untimed ones. Every answer must be 200 and, when gzip
   * was asked for, gzip-encoded; otherwise rejects with `scrape_failed`. Returns the latencies
   * and the size of the last body.
   */
  async series(
    path: string,
    variant: Variant,
    count: number,
    warmup = 3,
  ): Promise<{ ms: number[]; bytes: number }> {
    const [run] = await interleaved([this], path, variant, count, warmup);
    return run as { ms: number[]; bytes: number };
  }

  /** One checked GET (see `series`). */
  async checked(path: string, variant: Variant): Promise<Scrape> {
    const s = await this.get(path, variant);
    if (s.status !== 200 || (variant.gzip && s.contentEncoding !== "gzip")) {
      throw new BenchError(
        "scrape_failed",
        `${variant.name}: status ${s.status}, content-encoding ${s.contentEncoding ?? "none"}`,
      );
    }
    return s;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/**
 * Scrapes several servers in turn, one request each per round, so that they are measured
 * under the same conditions (background work, other processes) rather than one after the
 * other. Returns, per scraper, its latencies and the size of its last body.
 */
export async function interleaved(
  scrapers: readonly Scraper[],
  path: string,
  variant: Variant,
  count: number,
  warmup = 3,
): Promise<{ ms: number[]; bytes: number }[]> {
  const out = scrapers.map(() => ({ ms: [] as number[], bytes: 0 }));
  for (let i = 0; i < warmup + count; i++) {
    for (const [j, scraper] of scrapers.entries()) {
      const s = await scraper.checked(path, variant);
      const run = out[j] as { ms: number[]; bytes: number };
      if (i >= warmup) run.ms.push(s.ms);
      run.bytes = s.body.length;
    }
  }
  return out;
}

/** GET `url` as plain text (uncompressed); rejects unless the answer is 200. */
export async function fetchText(url: string, timeoutMs = 30_000): Promise<string> {
  const res = await fetch(url, { headers: { accept: "text/plain" }, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  if (res.status !== 200) throw new BenchError("scrape_failed", `${url}: status ${res.status}`);
  return text;
}
