import { deflateTail, gzipWithTail } from "./gzipJoin.js";
import type { SampleStore } from "./store.js";

export const TEXT_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
export const OPENMETRICS_CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/** Anything that renders a small set of extra metrics at scrape time (the self-metrics). */
interface ScrapeTimeMetrics {
  /**
   * The metrics as UTF-8 exposition lines (OpenMetrics without `# EOF`). Contract: the same
   * Buffer object for as long as the rendering is unchanged, never a Buffer modified later:
   * what a response derives from it (its deflated form) is kept per Buffer.
   */
  render(openMetrics: boolean): Promise<Buffer>;
}

const EOF = Buffer.from("# EOF\n", "utf8");

/** A rendering of the scrape-time metrics as a body's tail, and its raw deflate once made. */
interface Tail {
  readonly bytes: Buffer;
  deflated: Buffer | undefined;
}

/**
 * Per rendering: consecutive scrapes mostly share one (it changes when a self-metric does), so
 * its tail and the compression of it are made once, not per gzip scrape.
 */
const tails = { text: new WeakMap<Buffer, Tail>(), openMetrics: new WeakMap<Buffer, Tail>() };

function tailOf(rendered: Buffer, openMetrics: boolean): Tail {
  // Per format: one Buffer may well serve both (families without counters read the same).
  const memo = openMetrics ? tails.openMetrics : tails.text;
  let tail = memo.get(rendered);
  if (tail === undefined) {
    tail = { bytes: openMetrics ? Buffer.concat([rendered, EOF]) : rendered, deflated: undefined };
    memo.set(rendered, tail);
  }
  return tail;
}

/**
 * A ready-to-write /metrics response: the buffers of `body`'s lists, in order, as they are, and
 * `length` bytes in all. The published part is the snapshot's segments (its families' own
 * lists, shared), with one buffer per family header and per entry: write them gathered into
 * larger blocks.
 */
export interface MetricsResponse {
  readonly contentType: string;
  readonly contentEncoding?: "gzip";
  readonly body: readonly (readonly Buffer[])[];
  readonly length: number;
}

/**
 * Whether the client prefers OpenMetrics: it must be listed with a q-value above zero and at
 * least that of text/plain (Prometheus 2.x sends OpenMetrics q=1 before text/plain q=0.5).
 */
export function prefersOpenMetrics(accept: string | undefined): boolean {
  if (!accept) return false;
  let om = -1;
  let text = -1;
  for (const part of accept.split(",")) {
    const [type = "", ...params] = part.trim().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const t = type.trim().toLowerCase();
    if (t === "application/openmetrics-text") om = Math.max(om, q);
    else if (t === "text/plain") text = Math.max(text, q);
  }
  return om > 0 && om >= text;
}

/** Whether `gzip` is acceptable per Accept-Encoding (absent, or q=0, means no). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(",").some((part) => {
    const [coding = "", ...params] = part.trim().split(";");
    if (coding.trim().toLowerCase() !== "gzip" && coding.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * Builds the /metrics response from the store's latest published snapshot (no rendering of
 * polled data happens here) plus the self-metrics rendered now (a few hundred series).
 * With gzip, the published part comes compressed from the store's cache; only the self part is
 * compressed now, and appended inside the same gzip member. If compressing fails, the answer
 * is uncompressed (identity is always acceptable to a scraper).
 */
export async function metricsResponse(
  store: SampleStore,
  self: ScrapeTimeMetrics,
  headers: { accept?: string | undefined; acceptEncoding?: string | undefined },
): Promise<MetricsResponse> {
  const om = prefersOpenMetrics(headers.accept);
  const gzip = acceptsGzip(headers.acceptEncoding);
  const published = store.latest();
  const tail = tailOf(await self.render(om), om);
  const contentType = om ? OPENMETRICS_CONTENT_TYPE : TEXT_CONTENT_TYPE;
  if (gzip) {
    const head = await store.gzipped(om).catch(() => undefined);
    if (head) {
      tail.deflated ??= deflateTail(tail.bytes);
      const chunks = gzipWithTail(head, tail.bytes, tail.deflated);
      return { contentType, contentEncoding: "gzip", body: [chunks], length: byteLength(chunks) };
    }
  }
  const length = (om ? published.openMetricsLength : published.textLength) + tail.bytes.length;
  return { contentType, body: [...published.segments(om), [tail.bytes]], length };
}

function byteLength(chunks: readonly Buffer[]): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}
