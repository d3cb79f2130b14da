/**
 * The scraping client of the harness: sequential GETs of a metrics endpoint over one
 * keep-alive connection (as Prometheus does), timed from sending the request to the last
 * byte of the body.
 *
 * It reads straight from the socket into one reused buffer (`net` with `onread`) and counts
 * the body instead of keeping it when only the time matters. A general-purpose client
 * allocates a buffer per read and a stream object per answer: on a 2-core machine its own
 * garbage collection and scheduling made the same static 11 MB answer take p50 12 ms / p99
 * 63 ms, against 4.4 / 10.6-17 ms read this way (and 7.5 / 13.6 ms by curl).
 */
import { connect, type Socket } from "node:net";
import { BenchError } from "./errors.js";
import { ResponseReader } from "./httpResponse.js";

/** How long a server keeps an idle connection when it does not say (node:http's default). */
const DEFAULT_KEEP_ALIVE_MS = 5000;

/** The idle timeout a `Keep-Alive: timeout=N` header announces, in ms. */
export function keepAliveOf(header: string | undefined): number {
  const seconds = /(?:^|[\s,])timeout=(\d+)/i.exec(header ?? "")?.[1];
  return seconds === undefined ? DEFAULT_KEEP_ALIVE_MS : Number(seconds) * 1000;
}

/** Bytes of the one buffer every read of a connection lands in. */
const READ_BUFFER_BYTES = 256 * 1024;

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
  /** When the request started (its connect, for a fresh connection), epoch milliseconds. */
  readonly startMs: number;
  /** The body, or empty when the scrape was made with `keepBody: false`. */
  readonly body: Buffer;
  /** Body bytes received, kept or not. */
  readonly bytes: number;
  readonly contentEncoding: string | undefined;
}

/**
 * A client of one origin (scheme, host and port): keep-alive by default, as Prometheus scrapes;
 * with `fresh`, a new connection for every request, its connect timed with it (as a scraper
 * behind a proxy that closes connections does). Close it when done.
 */
export class Scraper {
  private readonly host: string;
  private readonly port: number;
  private readonly buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  private socket: Socket | undefined;
  /** When the connection last finished an answer, and how long the server keeps it idle. */
  private idleSince = 0;
  private keepAliveMs = DEFAULT_KEEP_ALIVE_MS;
  /** The response being read, with what to do when it completes or fails. */
  private pending: { reader: ResponseReader; done: () => void; fail: (err: Error) => void } | undefined;

  constructor(
    origin: string,
    private readonly opts: { readonly fresh?: boolean } = {},
  ) {
    const url = new URL(origin);
    if (url.protocol !== "http:") throw new BenchError("bad_arguments", `${origin}: only http:// is scraped`);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
  }

  /**
   * One GET of `path` as `variant`; rejects on a transport error, a malformed answer or after
   * `timeoutMs` (code `scrape_timeout`). The body is kept unless `keepBody` is false.
   */
  async get(path: string, variant: Variant, timeoutMs = 30_000, keepBody = true): Promise<Scrape> {
    const connecting = performance.now();
    if (this.opts.fresh === true) this.drop();
    const socket = await this.connection();
    const reader = new ResponseReader(keepBody);
    const request =
      `GET ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\naccept: ${variant.accept}\r\n` +
      `${variant.gzip ? "accept-encoding: gzip\r\n" : ""}\r\n`;
    let timer: NodeJS.Timeout | undefined;
    const started = this.opts.fresh === true ? connecting : performance.now();
    try {
      await new Promise<void>((resolve, reject) => {
        this.pending = { reader, done: resolve, fail: reject };
        timer = setTimeout(() => {
          reject(new BenchError("scrape_timeout", `GET ${path}: no complete answer within ${timeoutMs} ms`));
          this.drop();
        }, timeoutMs);
        socket.write(request);
      });
    } finally {
      clearTimeout(timer);
      this.pending = undefined;
    }
    const ms = performance.now() - started;
    this.idleSince = performance.now();
    this.keepAliveMs = keepAliveOf(reader.headers.get("keep-alive"));
    if (reader.closes) this.drop();
    return {
      status: reader.status,
      ms,
      startMs: performance.timeOrigin + started,
      body: reader.body(),
      bytes: reader.bodyBytes,
      contentEncoding: reader.headers.get("content-encoding"),
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
  async checked(path: string, variant: Variant, keepBody = true): Promise<Scrape> {
    const s = await this.get(path, variant, 30_000, keepBody);
    if (s.status !== 200 || (variant.gzip && s.contentEncoding !== "gzip")) {
      throw new BenchError(
        "scrape_failed",
        `${variant.name}: status ${s.status}, content-encoding ${s.contentEncoding ?? "none"}`,
      );
    }
    return s;
  }

  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (!socket || socket.destroyed) return;
    await new Promise<void>((resolve) => {
      socket.once("close", () => resolve());
      socket.end();
    });
  }

  /** The open connection, or a new one. */
  private async connection(): Promise<Socket> {
    // A server closes a connection idle past its keep-alive timeout: a request sent just then
    // would meet the close, so an idle connection is replaced a second before that.
    if (this.socket && performance.now() - this.idleSince > this.keepAliveMs - 1000) this.drop();
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = connect({
      host: this.host,
      port: this.port,
      onread: {
        buffer: this.buffer,
        callback: (n, buf) => {
          this.feed(buf.subarray(0, n));
          return true;
        },
      },
    });
    socket.setNoDelay(true);
    socket.on("error", (err) => this.fail(new BenchError("scrape_failed", err.message, { cause: err })));
    socket.on("end", () => {
      const pending = this.pending;
      if (!pending) return;
      try {
        pending.reader.end();
        pending.done();
      } catch (err) {
        pending.fail(err as Error);
      }
    });
    socket.on("close", () => {
      if (this.socket === socket) this.socket = undefined;
      this.fail(new BenchError("scrape_failed", "connection closed before the answer was complete"));
    });
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return socket;
  }

  private feed(data: Uint8Array): void {
    const pending = this.pending;
    if (!pending) {
      // Bytes nobody asked for: the connection is out of step, start a new one.
      this.drop();
      return;
    }
    try {
      if (pending.reader.push(data)) pending.done();
    } catch (err) {
      pending.fail(err as Error);
      this.drop();
    }
  }

  private fail(err: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.fail(err);
  }

  /** Closes the connection at once; the next request opens a new one. */
  private drop(): void {
    this.socket?.destroy();
    this.socket = undefined;
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
      const s = await scraper.checked(path, variant, false);
      const run = out[j] as { ms: number[]; bytes: number };
      if (i >= warmup) run.ms.push(s.ms);
      run.bytes = s.bytes;
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
