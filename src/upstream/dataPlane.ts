/**
 * The read-only client of one cluster's data plane (its own endpoint, connectAddress by
 * default): List Databases, List Collections (V2, falling back to the deprecated V1 GET when the
 * V2 listing is refused as unknown with HTTP 404), Get Load State, Get Collection Stats, List
 * Indexes and Describe Index, and a canary's Describe Collection, Search and Query (declared in
 * endpoints/). It authenticates with a Bearer token that is either an API key or
 * `username:password`, and has its own limiter: the data plane documents no rate limit, so every
 * call to the endpoint shares one evenly spaced budget (default 10 per second), whatever the
 * path. A canary's calls take that budget's background lane: they wait behind every other call
 * of the endpoint, so probing never slows what the exporter polls there.
 *
 * Like the control-plane client it has no method for any mutating endpoint.
 */
import type { Dispatcher } from "undici";
import { type CallOptions, createCaller, MAX_RATE_LIMIT_PAUSE_MS } from "./caller.js";
import { DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_MAX_MS } from "./client.js";
import {
  type CollectionSchema,
  describeCollectionEndpoint,
  type ProbeAnswer,
  type QueryArgs,
  queryEndpoint,
  type SearchArgs,
  searchEndpoint,
} from "./endpoints/canary.js";
import {
  type CollectionRef,
  getLoadStateEndpoint,
  getStatsEndpoint,
  type LoadState,
  listCollectionsEndpoint,
  listCollectionsV1Endpoint,
  listDatabasesEndpoint,
} from "./endpoints/dataPlane.js";
import {
  describeIndexEndpoint,
  type IndexDescription,
  type IndexRef,
  listIndexesEndpoint,
} from "./endpoints/indexes.js";
import { CloudError, type CloudErrorCode, redactSecret } from "./errors.js";
import { safeObserver } from "./observer.js";
import { DEFAULT_RATE_LIMIT_MARGIN_MS, RATE_WINDOW_MS, RateLimiter } from "./rateLimiter.js";
import { type SleepFn, sleep as timerSleep } from "./sleep.js";
import { Transport } from "./transport.js";
import type { ClientObserver } from "./types.js";
import { joinUrl } from "./urls.js";

export type {
  CollectionSchema,
  ProbeAnswer,
  QueryArgs,
  SearchArgs,
  VectorField,
} from "./endpoints/canary.js";
export type { CollectionRef, LoadState } from "./endpoints/dataPlane.js";

/** How a probe (a canary's Search or Query) is made: its own time limit, and the caller's signal. */
export interface ProbeOptions {
  /** No complete answer within this many ms (from when the request may leave) is a timeout. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** A probe's answer and its time on the wire, its first byte written to its answer's last byte read. */
export interface Probed<T> {
  readonly value: T;
  /** Its time on the wire; null when the transport did not report one (never taken as 0). */
  readonly seconds: number | null;
}

/** Default data-plane budget: requests per second per cluster endpoint. */
export const DEFAULT_DATA_PLANE_RATE_LIMIT = 10;

/**
 * The data plane of one cluster. Every method rejects with a CloudError (auth_error for a
 * refused credential, not_found for an unknown database or collection), honours `signal`,
 * and waits for the endpoint's limiter.
 */
export interface DataPlaneApi {
  /** Database names; a plane without the database API (HTTP 404) has only "default". */
  listDatabases(signal?: AbortSignal): Promise<string[]>;
  /** Collection names of `dbName` (V2; V1 when the V2 listing answers HTTP 404). */
  listCollections(dbName: string, signal?: AbortSignal): Promise<string[]>;
  getLoadState(args: CollectionRef, signal?: AbortSignal): Promise<LoadState>;
  /** Row count, or null when the answer has none. */
  getRowCount(args: CollectionRef, signal?: AbortSignal): Promise<number | null>;
  /** The collection's index names, each once. */
  listIndexes(args: CollectionRef, signal?: AbortSignal): Promise<string[]>;
  /** One index's field, type, build state and rows; null when the answer holds no index. */
  describeIndex(args: IndexRef, signal?: AbortSignal): Promise<IndexDescription | null>;
  /** A canary's: the collection's vector fields and their dimensions, made once (background lane). */
  describeCollection(args: CollectionRef, probe: ProbeOptions): Promise<CollectionSchema>;
  /** A canary's Search of one vector, limit 1, made once and timed on the wire (background lane). */
  search(args: SearchArgs, probe: ProbeOptions): Promise<Probed<ProbeAnswer>>;
  /** A canary's Query, limit 1, made once and timed on the wire (background lane). */
  query(args: QueryArgs, probe: ProbeOptions): Promise<Probed<ProbeAnswer>>;
}

/** A DataPlaneApi that holds connections. */
export interface DataPlaneClient extends DataPlaneApi {
  close(): Promise<void>;
}

/** Options of createDataPlaneClient. */
interface DataPlaneClientOptions {
  /** The cluster's endpoint, e.g. https://in01-xxx.aws-us-west-2.vectordb.zillizcloud.com:19530 */
  readonly endpoint: string;
  /** An API key or `username:password`. Never logged. */
  readonly token: string;
  readonly rateLimit: number;
  readonly rateLimitMarginMs?: number;
  readonly requestTimeoutMs: number;
  readonly maxRetries: number;
  readonly maxResponseBytes: number;
  readonly maxInFlight: number;
  readonly userAgent?: string;
  readonly observer?: ClientObserver;
  readonly dispatcher?: Dispatcher;
  /** Awaited before each request is written and its answer parsed: the exporter's own answers first. */
  readonly turn?: () => Promise<void> | undefined;
  readonly random?: () => number;
  readonly sleep?: SleepFn;
  readonly now?: () => number;
  /** The monotonic clock (ms) a probe's time on the wire is read with. Default performance.now. */
  readonly wireClock?: () => number;
}

/**
 * The engine's own error codes, which the data plane answers with HTTP 200: 1801 (a body that
 * is not JSON), 1802 (a required parameter missing; the Search reference's own failure sample)
 * and 1803 (a schema that cannot be encoded) are the request's fault, not the credential's;
 * 800 (database not found), 100 (collection not found) and 700 (index not found) name something
 * that does not exist. 1800 (not authenticated) is not here: the control plane answers it too,
 * so the one mapping of both (AUTH_API_CODES) holds it.
 */
const DATA_PLANE_CODES: ReadonlyMap<number, CloudErrorCode> = new Map([
  [1801, "invalid_request"],
  [1802, "invalid_request"],
  [1803, "invalid_request"],
  [800, "not_found"],
  [100, "not_found"],
  [700, "not_found"],
]);

/** Reclassifies an engine code the control-plane mapping does not know. */
function mapDataPlaneError(error: CloudError): CloudError {
  const code = error.apiCode === undefined ? undefined : DATA_PLANE_CODES.get(error.apiCode);
  if (code === undefined || code === error.code) return error;
  return new CloudError(code, error.message, {
    endpoint: error.endpoint,
    cause: error,
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    ...(error.apiCode === undefined ? {} : { apiCode: error.apiCode }),
  });
}

function unknownPath(error: unknown): boolean {
  return error instanceof CloudError && error.httpStatus === 404;
}

/** Creates the client of one data-plane endpoint and credential. */
export function createDataPlaneClient(opts: DataPlaneClientOptions): DataPlaneClient {
  const now = opts.now ?? Date.now;
  const marginMs = opts.rateLimitMarginMs ?? DEFAULT_RATE_LIMIT_MARGIN_MS;
  // A `username:password` token: its password alone must not leak either.
  const secrets = [opts.token, opts.token.includes(":") ? opts.token.slice(opts.token.indexOf(":") + 1) : ""];
  const redact = (text: string): string => secrets.reduce((t, s) => redactSecret(t, s), text);
  const transport = new Transport({
    apiKey: opts.token,
    requestTimeoutMs: opts.requestTimeoutMs,
    maxResponseBytes: opts.maxResponseBytes,
    maxInFlight: opts.maxInFlight,
    now,
    ...(opts.userAgent === undefined ? {} : { userAgent: opts.userAgent }),
    ...(opts.dispatcher === undefined ? {} : { dispatcher: opts.dispatcher }),
    ...(opts.turn === undefined ? {} : { turn: opts.turn }),
    ...(opts.wireClock === undefined ? {} : { wireClock: opts.wireClock }),
  });
  const call = createCaller({
    transport,
    ...(opts.turn === undefined ? {} : { turn: opts.turn }),
    limiter: new RateLimiter({
      rate: opts.rateLimit,
      marginMs,
      now,
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
    }),
    observer: safeObserver(opts.observer),
    redact,
    resolveUrl: (spec) => joinUrl(opts.endpoint, spec.path, spec.query),
    // One budget for the whole endpoint: its limit, if any, is not documented per path.
    limiterKey: () => "data-plane",
    mapError: mapDataPlaneError,
    retry: { baseMs: DEFAULT_RETRY_BASE_MS, maxMs: DEFAULT_RETRY_MAX_MS, maxRetries: opts.maxRetries },
    random: opts.random ?? Math.random,
    sleep: opts.sleep ?? timerSleep,
    now,
    rateLimitPauseMs: Math.min(RATE_WINDOW_MS + marginMs, MAX_RATE_LIMIT_PAUSE_MS),
  });
  /** One probe, made by `run` with the options it needs, and its time on the wire. */
  const probe = async <T>(
    run: (options: CallOptions) => Promise<T>,
    timeoutMs: number,
  ): Promise<Probed<T>> => {
    let wireMs: number | null = null;
    const value = await run({
      lane: "background",
      timed: {
        timeoutMs,
        onWire: (ms) => {
          wireMs = ms;
        },
      },
    });
    return { value, seconds: wireMs === null ? null : wireMs / 1000 };
  };
  return Object.freeze({
    listDatabases: async (signal?: AbortSignal) => {
      try {
        return await call(listDatabasesEndpoint, undefined, signal);
      } catch (error) {
        if (unknownPath(error)) return ["default"];
        throw error;
      }
    },
    listCollections: async (dbName: string, signal?: AbortSignal) => {
      try {
        return await call(listCollectionsEndpoint, dbName, signal);
      } catch (error) {
        if (unknownPath(error)) return call(listCollectionsV1Endpoint, dbName, signal);
        throw error;
      }
    },
    getLoadState: (args: CollectionRef, signal?: AbortSignal) => call(getLoadStateEndpoint, args, signal),
    getRowCount: (args: CollectionRef, signal?: AbortSignal) => call(getStatsEndpoint, args, signal),
    listIndexes: (args: CollectionRef, signal?: AbortSignal) => call(listIndexesEndpoint, args, signal),
    describeIndex: (args: IndexRef, signal?: AbortSignal) => call(describeIndexEndpoint, args, signal),
    describeCollection: async (args: CollectionRef, o: ProbeOptions) =>
      (await probe((options) => call(describeCollectionEndpoint, args, o.signal, options), o.timeoutMs))
        .value,
    search: (args: SearchArgs, o: ProbeOptions) =>
      probe((options) => call(searchEndpoint, args, o.signal, options), o.timeoutMs),
    query: (args: QueryArgs, o: ProbeOptions) =>
      probe((options) => call(queryEndpoint, args, o.signal, options), o.timeoutMs),
    close: () => transport.close(),
  });
}
