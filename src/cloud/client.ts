/**
 * The read-only upstream client. Each call: rate-limit token -> HTTP request -> envelope ->
 * schema -> normalize; a failure goes through the retry policy, and the last error is thrown.
 * Every attempt, retry, rate-limit answer and schema error is reported to the observer.
 *
 * There is deliberately no method for any mutating endpoint (drop, delete, create, update,
 * migrate, release): an exporter must not be able to change what it observes.
 */
import type { Dispatcher } from "undici";
import { describeClusterEndpoint, listClustersEndpoint } from "./clusters.js";
import type { EndpointDef, RequestSpec } from "./endpoint.js";
import { unwrapEnvelope } from "./envelope.js";
import { CloudError, redactSecret } from "./errors.js";
import { listImportJobsEndpoint } from "./importJobs.js";
import { queryClusterMetricsEndpoint } from "./metrics.js";
import { safeObserver } from "./observer.js";
import { listProjectsEndpoint } from "./projects.js";
import { DEFAULT_RATE_LIMIT_MARGIN_MS, type Permit, RATE_WINDOW_MS, RateLimiter } from "./rateLimiter.js";
import { listRegionsEndpoint } from "./regions.js";
import { type RetryPolicyOptions, retryDelayMs } from "./retry.js";
import { type SleepFn, sleep as timerSleep } from "./sleep.js";
import { describeSparkJobEndpoint } from "./sparkJobs.js";
import { Transport } from "./transport.js";
import type { ClientObserver, CloudApi, EndpointTemplate } from "./types.js";
import { controllerBaseUrl, joinUrl } from "./urls.js";
import { summarizeIssues } from "./wire.js";

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
/**
 * The longest pause a Retry-After can impose on an endpoint: a bogus value (hours) must not
 * silence a collector; a minute covers every documented interval.
 */
export const MAX_RATE_LIMIT_PAUSE_MS = 60_000;

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
  const limiter = new RateLimiter({ rate: opts.rateLimit, marginMs, now, sleep });
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
  });

  function resolveUrl(spec: RequestSpec): URL {
    if (spec.target.plane === "v2") return joinUrl(opts.baseUrl, spec.path, spec.query);
    if (spec.target.region === "") throw new TypeError("a region is required for v1 endpoints");
    return joinUrl(controllerBaseUrl(opts.controllerUrl, spec.target.region), spec.path, spec.query);
  }

  function aborted(endpoint: EndpointTemplate, cause: unknown): CloudError {
    return new CloudError("aborted", `${endpoint}: aborted`, { endpoint, cause });
  }

  /** One attempt after the token is held: request, envelope, schema, normalize. */
  async function attemptOnce<A, D, R>(
    def: EndpointDef<A, D, R>,
    args: A,
    spec: RequestSpec,
    url: URL,
    signal: AbortSignal | undefined,
    onSend: () => void,
  ): Promise<R> {
    const endpoint = def.endpoint;
    const res = await transport.send(
      { endpoint, method: spec.method, url, ...(spec.body === undefined ? {} : { body: spec.body }) },
      signal,
      onSend,
    );
    const data = unwrapEnvelope(res.body, {
      endpoint,
      httpStatus: res.status,
      redact,
      ...(res.retryAfterMs === undefined ? {} : { retryAfterMs: res.retryAfterMs }),
    });
    const parsed = def.schema.safeParse(data);
    if (!parsed.success) {
      throw new CloudError("schema_error", `${endpoint}: ${summarizeIssues(parsed.error, "data")}`, {
        endpoint,
        httpStatus: res.status,
      });
    }
    try {
      return def.normalize(parsed.data, args);
    } catch (error) {
      throw new CloudError("schema_error", `${endpoint}: response could not be normalized`, {
        endpoint,
        cause: error,
      });
    }
  }

  async function call<A, D, R>(def: EndpointDef<A, D, R>, args: A, signal?: AbortSignal): Promise<R> {
    const endpoint = def.endpoint;
    let spec: RequestSpec;
    let url: URL;
    try {
      spec = def.build(args);
      url = resolveUrl(spec);
    } catch (error) {
      // A request that cannot be expressed is a configuration problem: retrying cannot help.
      const detail = error instanceof Error ? redact(error.message) : "invalid arguments";
      throw new CloudError("api_error", `${endpoint}: cannot build the request: ${detail}`, {
        endpoint,
        cause: error,
      });
    }
    for (let attempt = 0; ; attempt += 1) {
      let permit: Permit;
      try {
        permit = await limiter.grant(endpoint, signal);
      } catch (error) {
        throw aborted(endpoint, error);
      }
      const started = now();
      let failure: CloudError;
      try {
        const result = await attemptOnce(def, args, spec, url, signal, permit.sent);
        observer.attempt(endpoint, "success", (now() - started) / 1000);
        return result;
      } catch (error) {
        failure =
          error instanceof CloudError
            ? error
            : signal?.aborted
              ? aborted(endpoint, error)
              : new CloudError("network_error", `${endpoint}: unexpected failure`, {
                  endpoint,
                  cause: error,
                });
      } finally {
        permit.release();
      }
      observer.attempt(endpoint, failure.code, Math.max(0, now() - started) / 1000);
      if (failure.code === "rate_limited") {
        observer.rateLimited(endpoint);
        limiter.penalize(
          endpoint,
          Math.min(failure.retryAfterMs ?? rateLimitPauseMs, MAX_RATE_LIMIT_PAUSE_MS),
        );
      } else if (failure.code === "schema_error") {
        observer.schemaError(endpoint);
      }
      const delay = signal?.aborted ? null : retryDelayMs(attempt, failure, retryOpts, random);
      if (delay === null) throw failure;
      observer.retry(endpoint, delay);
      try {
        await sleep(delay, signal);
      } catch (error) {
        throw aborted(endpoint, error);
      }
    }
  }

  const client: CloudClient = {
    queryClusterMetrics: (req, signal) => call(queryClusterMetricsEndpoint, req, signal),
    listImportJobs: (args, signal) => call(listImportJobsEndpoint, args, signal),
    describeSparkJob: (args, signal) => call(describeSparkJobEndpoint, args, signal),
    describeCluster: (clusterId, signal) => call(describeClusterEndpoint, clusterId, signal),
    listClusters: (args, signal) => call(listClustersEndpoint, args, signal),
    listProjects: (args, signal) => call(listProjectsEndpoint, args, signal),
    listRegions: (args, signal) => call(listRegionsEndpoint, args, signal),
    close: () => transport.close(),
  };
  return Object.freeze(client);
}
