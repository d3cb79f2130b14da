/**
 * The read-only control-plane client. Each call (caller.ts): rate-limit turn -> connection slot ->
 * HTTP request -> envelope -> schema -> normalize, with retries; every attempt, retry, rate-limit answer and
 * schema error is reported to the observer.
 *
 * There is deliberately no method for any mutating endpoint (drop, delete, create, update,
 * migrate, release): an exporter must not be able to change what it observes.
 */
import type { Dispatcher } from "undici";
import { createCaller } from "./caller.js";
import type { EndpointDef, RequestSpec } from "./endpoints/define.js";
import { CONTROL_PLANE } from "./endpoints/table.js";
import { redactSecret } from "./errors.js";
import { safeObserver } from "./observer.js";
import { DEFAULT_RATE_LIMIT_MARGIN_MS, RATE_WINDOW_MS, RateLimiter } from "./rateLimiter.js";
import type { RetryPolicyOptions } from "./retry.js";
import { type SleepFn, sleep as timerSleep } from "./sleep.js";
import { Transport } from "./transport.js";
import type { ClientObserver, CloudApi, EndpointTemplate } from "./types.js";
import { controllerBaseUrl, joinUrl } from "./urls.js";

/** Options of createCloudClient. One client per credential: its rate budget is its own. */
export interface CloudClientOptions {
  /** v2 control plane, e.g. https://api.cloud.zilliz.com (a path prefix is allowed). */
  baseUrl: string;
  /** v1 controller template with `{region}`, e.g. https://controller.api.{region}.zillizcloud.com */
  controllerUrl: string;
  apiKey: string;
  requestTimeoutMs: number;
  /** Requests per second per endpoint. */
  rateLimit: number;
  /**
   * Requests per second of the endpoints whose budget differs from `rateLimit` (a replica's
   * share of a key several replicas use); whole numbers >= 1.
   */
  endpointRateLimits?: Readonly<Partial<Record<EndpointTemplate, number>>>;
  /**
   * Added to the limiter's one-second window, for network jitter. Default
   * DEFAULT_RATE_LIMIT_MARGIN_MS (rateLimiter.ts).
   */
  rateLimitMarginMs?: number;
  /** Retries after the first attempt (0 = none). */
  maxRetries: number;
  maxResponseBytes: number;
  maxInFlight: number;
  /** Send `Request-Timeout: <seconds>`. Default true. */
  sendRequestTimeoutHeader?: boolean;
  /** `User-Agent` header value. Default "vdbcloud-exporter". */
  userAgent?: string;
  observer?: ClientObserver;
  /** Replaces the client's own connection pools; the caller then closes it. */
  dispatcher?: Dispatcher;
  /** Awaited before each request is written and its answer parsed: the exporter's own answers first. */
  turn?: () => Promise<void> | undefined;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number;
  /**
   * Sleep used for retry delays and rate-limit waits and pacing; see
   * `sleepOn` (sleep.ts) to build one on a clock. Inject it together with `now` (a sleep
   * that does not advance `now` would make the limiter poll without waiting).
   */
  sleep?: SleepFn;
  /** Clock (ms) for the limiter, attempt durations and Retry-After dates. Default Date.now. */
  now?: () => number;
  /** First backoff ceiling. Default 250 ms. */
  retryBaseMs?: number;
  /** Largest backoff, and the longest Retry-After a call waits for. Default 10 s. */
  retryMaxMs?: number;
}

/** A CloudApi that holds connections: `close()` releases them. */
export interface CloudClient extends CloudApi {
  close(): Promise<void>;
}

/** Default first backoff ceiling. */
export const DEFAULT_RETRY_BASE_MS = 250;
/** Default backoff cap. */
export const DEFAULT_RETRY_MAX_MS = 10_000;

/** Creates the client. Throws RangeError for invalid numeric options. */
export function createCloudClient(opts: CloudClientOptions): CloudClient {
  if (!(Number.isInteger(opts.maxRetries) && opts.maxRetries >= 0)) {
    throw new RangeError(`maxRetries must be an integer >= 0, got ${opts.maxRetries}`);
  }
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? timerSleep;
  const random = opts.random ?? Math.random;
  const observer = safeObserver(opts.observer);
  const redact = (text: string): string => redactSecret(text, opts.apiKey);
  const retryOpts: RetryPolicyOptions = {
    baseMs: opts.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    maxMs: opts.retryMaxMs ?? DEFAULT_RETRY_MAX_MS,
    maxRetries: opts.maxRetries,
  };
  const marginMs = opts.rateLimitMarginMs ?? DEFAULT_RATE_LIMIT_MARGIN_MS;
  const rates: Readonly<Record<string, number | undefined>> = opts.endpointRateLimits ?? {};
  const limiter = new RateLimiter({
    rate: opts.rateLimit,
    rateOf: (endpoint) => rates[endpoint] ?? opts.rateLimit,
    marginMs,
    now,
    sleep,
  });
  // Without Retry-After, one window (plus the margin) is what any window-counting server
  // needs to forget the requests that filled it; the limiter then resumes at full pace.
  const rateLimitPauseMs = RATE_WINDOW_MS + marginMs;
  const transport = new Transport({
    apiKey: opts.apiKey,
    requestTimeoutMs: opts.requestTimeoutMs,
    maxResponseBytes: opts.maxResponseBytes,
    maxInFlight: opts.maxInFlight,
    now,
    ...(opts.userAgent === undefined ? {} : { userAgent: opts.userAgent }),
    ...(opts.sendRequestTimeoutHeader === undefined
      ? {}
      : { sendRequestTimeoutHeader: opts.sendRequestTimeoutHeader }),
    ...(opts.dispatcher === undefined ? {} : { dispatcher: opts.dispatcher }),
    ...(opts.turn === undefined ? {} : { turn: opts.turn }),
  });

  const call = createCaller({
    transport,
    limiter,
    observer,
    redact,
    ...(opts.turn === undefined ? {} : { turn: opts.turn }),
    resolveUrl: (spec: RequestSpec): URL => {
      if (spec.target.plane === "v2") return joinUrl(opts.baseUrl, spec.path, spec.query);
      if (spec.target.plane !== "v1" || spec.target.region === "")
        throw new TypeError("a region is required for v1 endpoints");
      return joinUrl(controllerBaseUrl(opts.controllerUrl, spec.target.region), spec.path, spec.query);
    },
    retry: retryOpts,
    random,
    sleep,
    now,
    rateLimitPauseMs,
  });

  // One method per declaration of the table: `CloudApi` is derived from the same table.
  const methods = Object.entries(CONTROL_PLANE).map(([name, declared]) => {
    const def = declared as EndpointDef<unknown, unknown, unknown, EndpointTemplate>;
    return [
      name,
      def.noArgs === true
        ? (signal?: AbortSignal) => call(def, undefined, signal)
        : (args: unknown, signal?: AbortSignal) => call(def, args, signal),
    ];
  });
  const client = { ...Object.fromEntries(methods), close: () => transport.close() } as CloudClient;
  return Object.freeze(client);
}
