/**
 * HTTP transport to the upstream: undici with keep-alive (one Pool per origin: the v2 server
 * and each region's controller), authentication and content headers, timeouts, caller aborts, a response size cap,
 * a cap on requests in flight, and JSON parsing. Failures leave here as CloudErrors.
 */
import type { Dispatcher, Pool as UndiciPool } from "undici";
import { readEnvelope } from "./envelope.js";
import { errorForHttpStatus } from "./errorMapping.js";
import { CloudError, redactSecret } from "./errors.js";
import { jsonShapeProblem, UPSTREAM_JSON_LIMITS } from "./jsonShape.js";
import { parseRetryAfter } from "./retryAfter.js";
import { Semaphore } from "./semaphore.js";
import type { EndpointTemplate } from "./types.js";
import { Pool, request } from "./undici.js";
import { timedDispatcher } from "./wireTiming.js";

/** Transport settings (a subset of CloudClientOptions). */
export interface TransportOptions {
  readonly apiKey: string;
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxInFlight: number;
  /** Send `Request-Timeout: <seconds>` (the spec's examples do). Default true. */
  readonly sendRequestTimeoutHeader?: boolean;
  /** Identifies the exporter to the upstream's operators. Default "vdbcloud-exporter". */
  readonly userAgent?: string;
  /** Used instead of the own pools (tests, proxies); the caller then owns and closes it. */
  readonly dispatcher?: Dispatcher;
  /** Wall clock for Retry-After dates. Default Date.now. */
  readonly now?: () => number;
  /**
   * Awaited before a request is written and before its answer is parsed, so the exporter's own
   * answers (a scrape being written) go first (shared/foreground.ts). Undefined: go now.
   */
  readonly turn?: () => Promise<void> | undefined;
  /** The monotonic clock (ms) a timed request's time on the wire is read with. Default performance.now. */
  readonly wireClock?: () => number;
}

/**
 * A request that measures the service (a probe): its own time limit, which counts from when it
 * holds its in-flight slot (the exporter's queue is not the service's delay), and its time on
 * the wire measured (wireTiming.ts).
 */
export interface TimedRequest {
  readonly timeoutMs: number;
}

/** One resolved request. */
interface HttpRequest {
  readonly endpoint: EndpointTemplate;
  readonly method: "GET" | "POST";
  readonly url: URL;
  readonly body?: unknown;
  readonly timed?: TimedRequest;
}

/** A 2xx answer: its status, parsed JSON body, and Retry-After if it carried one. */
interface HttpResponse {
  readonly status: number;
  readonly body: unknown;
  readonly retryAfterMs?: number;
  /** A timed request's time on the wire (ms): its first byte written to its answer's last byte read. */
  readonly wireMs?: number;
}

const KEEP_ALIVE_MS = 30_000;

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Sends requests and turns every outcome into a parsed body or a CloudError. Safe for
 * concurrent use; `close()` releases the connections it owns.
 */
export class Transport {
  private readonly opts: TransportOptions;
  private readonly injected: Dispatcher | undefined;
  private readonly pools = new Map<string, UndiciPool>();
  private readonly inFlight: Semaphore;
  private readonly now: () => number;

  constructor(opts: TransportOptions) {
    if (!(opts.requestTimeoutMs > 0)) throw new RangeError("requestTimeoutMs must be > 0");
    if (!(opts.maxResponseBytes > 0)) throw new RangeError("maxResponseBytes must be > 0");
    this.opts = opts;
    this.inFlight = new Semaphore(opts.maxInFlight);
    this.now = opts.now ?? Date.now;
    this.injected = opts.dispatcher;
  }

  /**
   * Sends `req`. Resolves with the parsed JSON of a 2xx answer; rejects with a CloudError:
   * the mapped error for non-2xx (classified by status alone when its body is unreadable or
   * oversized), `timeout` after `requestTimeoutMs` (waiting for a free in-flight slot
   * included; a timed request after its own limit, from when it holds its slot), `aborted`
   * when `signal` fires, `body_too_large` past `maxResponseBytes`,
   * `schema_error` for a body that is empty, not JSON or truncated (the connection failed
   * after the headers), and `network_error` for other connection failures.
   *
   * `onSend` (the client's rate-limit permit) is called once the in-flight slot is held, just
   * before the request is written: the moment the limiter counts the request from.
   */
  async send(req: HttpRequest, signal?: AbortSignal, onSend?: () => void): Promise<HttpResponse> {
    // One controller for both causes; AbortSignal.any() is avoided because dependent signals
    // of a long-lived caller signal (the scheduler's) are retained on Node 20.
    const combined = new AbortController();
    let timedOut = false;
    const limitMs = req.timed?.timeoutMs ?? this.opts.requestTimeoutMs;
    // Real time on purpose, unlike the client's waits: this bounds I/O, together with undici's
    // headersTimeout and bodyTimeout below, which cannot take an injected clock at all. A
    // test clock that jumps minutes ahead must not expire an answer still on its way.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      timer = setTimeout(() => {
        timedOut = true;
        combined.abort();
      }, limitMs);
    };
    if (req.timed === undefined) arm();
    const onAbort = (): void => combined.abort();
    if (signal?.aborted) combined.abort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    let release: (() => void) | undefined;
    let readingBody = false;
    let wireMs: number | undefined;
    try {
      release = await this.inFlight.acquire(combined.signal);
      await this.opts.turn?.();
      if (req.timed !== undefined) arm();
      onSend?.();
      const pool = this.dispatcherFor(req.url);
      const dispatcher =
        req.timed === undefined
          ? pool
          : timedDispatcher(pool, this.opts.wireClock ?? performance.now.bind(performance), (ms) => {
              wireMs = ms;
            });
      const res = await request(dispatcher, req.url, {
        method: req.method,
        headers: this.headersFor(req, limitMs),
        ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
        signal: combined.signal,
        headersTimeout: limitMs,
        bodyTimeout: limitMs,
      });
      const retryAfterMs = parseRetryAfter(headerValue(res.headers["retry-after"]), this.now());
      if (res.statusCode < 200 || res.statusCode > 299) {
        // The status decides; an unreadable or oversized error body only loses the details.
        const raw = await this.readBody(res, req.endpoint).catch(() => undefined);
        throw errorForHttpStatus(
          res.statusCode,
          raw === undefined ? undefined : readEnvelope(tryParseJson(raw)),
          {
            endpoint: req.endpoint,
            ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
            redact: (text) => redactSecret(text, this.opts.apiKey),
          },
        );
      }
      readingBody = true;
      const raw = await this.readBody(res, req.endpoint);
      readingBody = false;
      // Parsing and what follows it (the caller's mapping) are the CPU of an answer.
      await this.opts.turn?.();
      return {
        status: res.statusCode,
        body: parseJsonBody(raw, req.endpoint, res.statusCode),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        ...(wireMs === undefined ? {} : { wireMs }),
      };
    } catch (error) {
      throw this.classify(error, req.endpoint, req.url.origin, {
        aborted: signal?.aborted === true,
        timedOut,
        readingBody,
        limitMs,
      });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      release?.();
    }
  }

  /** In-flight slots currently free (for tests and diagnostics). */
  get freeSlots(): number {
    return this.inFlight.free;
  }

  /** Closes the pools it owns; an injected dispatcher is left to its owner. */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }

  // Origins are few (the v2 server and one controller per region in use), so pools are kept.
  private dispatcherFor(url: URL): Dispatcher {
    if (this.injected) return this.injected;
    let pool = this.pools.get(url.origin);
    if (!pool) {
      pool = new Pool(url.origin, {
        connections: this.opts.maxInFlight,
        keepAliveTimeout: KEEP_ALIVE_MS,
        headersTimeout: this.opts.requestTimeoutMs,
        bodyTimeout: this.opts.requestTimeoutMs,
      });
      this.pools.set(url.origin, pool);
    }
    return pool;
  }

  private headersFor(req: HttpRequest, limitMs: number): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.opts.apiKey}`,
      accept: "application/json",
      "user-agent": this.opts.userAgent ?? "vdbcloud-exporter",
    };
    if (req.body !== undefined) headers["content-type"] = "application/json";
    if (this.opts.sendRequestTimeoutHeader ?? true) {
      headers["request-timeout"] = String(Math.max(1, Math.ceil(limitMs / 1000)));
    }
    return headers;
  }

  private async readBody(res: Dispatcher.ResponseData, endpoint: EndpointTemplate): Promise<Buffer> {
    const limit = this.opts.maxResponseBytes;
    const declared = Number(headerValue(res.headers["content-length"]));
    if (Number.isFinite(declared) && declared > limit) {
      res.body.destroy();
      throw tooLarge(endpoint, limit, res.statusCode);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > limit) {
        // Stop reading: destroying the body drops the connection instead of draining it.
        res.body.destroy();
        throw tooLarge(endpoint, limit, res.statusCode);
      }
      chunks.push(buf);
    }
    return Buffer.concat(chunks, size);
  }

  private classify(
    error: unknown,
    endpoint: EndpointTemplate,
    origin: string,
    state: {
      readonly aborted: boolean;
      readonly timedOut: boolean;
      readonly readingBody: boolean;
      readonly limitMs: number;
    },
  ): CloudError {
    if (error instanceof CloudError) return error;
    if (state.aborted) return new CloudError("aborted", `${endpoint}: aborted`, { endpoint, cause: error });
    const code = errorCode(error);
    if (
      state.timedOut ||
      code === "UND_ERR_HEADERS_TIMEOUT" ||
      code === "UND_ERR_BODY_TIMEOUT" ||
      code === "UND_ERR_CONNECT_TIMEOUT"
    ) {
      return new CloudError("timeout", `${endpoint}: no complete answer within ${state.limitMs} ms`, {
        endpoint,
        origin,
        cause: error,
      });
    }
    // The connection ended before the body did: the answer is truncated, not merely late.
    if (state.readingBody || code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH") {
      return new CloudError("schema_error", `${endpoint}: truncated response body`, {
        endpoint,
        cause: error,
      });
    }
    const detail = error instanceof Error ? redactSecret(error.message, this.opts.apiKey) : "unknown failure";
    return new CloudError("network_error", `${endpoint}: network error${code ? ` ${code}` : ""}: ${detail}`, {
      endpoint,
      origin,
      cause: error,
    });
  }
}

function tooLarge(endpoint: EndpointTemplate, limit: number, status: number): CloudError {
  return new CloudError("body_too_large", `${endpoint}: response body exceeds ${limit} bytes`, {
    endpoint,
    httpStatus: status,
  });
}

function tryParseJson(raw: Buffer): unknown {
  // An error body only adds details: one that would cost more than it tells is not read.
  if (jsonShapeProblem(raw, UPSTREAM_JSON_LIMITS) !== undefined) return undefined;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

// The SyntaxError is not kept as the cause: V8 quotes part of the body in its message.
function parseJsonBody(raw: Buffer, endpoint: EndpointTemplate, status: number): unknown {
  if (raw.length === 0) {
    throw new CloudError("schema_error", `${endpoint}: empty response body`, {
      endpoint,
      httpStatus: status,
    });
  }
  const problem = jsonShapeProblem(raw, UPSTREAM_JSON_LIMITS);
  if (problem !== undefined) {
    throw new CloudError("schema_error", `${endpoint}: response body ${problem} (${raw.length} bytes)`, {
      endpoint,
      httpStatus: status,
    });
  }
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    throw new CloudError(
      "schema_error",
      `${endpoint}: response body is not valid JSON (${raw.length} bytes)`,
      { endpoint, httpStatus: status },
    );
  }
}
