/**
 * Request counters of the simulator, readable at any time (and as JSON at GET /_sim/stats).
 * They are plain objects replaced on `reset()`: read them through `sim.stats`, do not keep
 * references to the inner records across a reset.
 */
import type { FaultKind } from "./faults.js";

/** The last request seen on one endpoint, unredacted (this is a test double). */
interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  readonly atMs: number;
}

/** Counters of the requests the simulator received. */
export interface SimStats {
  /** Every API request (admin /_sim routes excluded). */
  readonly requests: number;
  /** Requests per endpoint template, e.g. "POST /v2/clusters/{id}/metrics/query". */
  readonly byEndpoint: Readonly<Record<string, number>>;
  /** Requests per endpoint template and cluster ID (path parameter or clusterId query). */
  readonly byEndpointCluster: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** HTTP 429 answers of the simulator's own limiter (injected 429 faults are in faultsInjected). */
  readonly rateLimited: number;
  readonly rateLimitedByEndpoint: Readonly<Record<string, number>>;
  readonly faultsInjected: Readonly<Partial<Record<FaultKind, number>>>;
  /** Calls to mutating endpoints as "METHOD /path" (the exporter must never make one). */
  readonly mutatingCalls: readonly string[];
  readonly lastRequest: Readonly<Record<string, RecordedRequest>>;
  /** Requests per endpoint template and Bearer key ("" without one): which key called what. */
  readonly byEndpointKey: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /**
   * Requests per endpoint template counted once per distinct request (path, query and body, a
   * metrics query's time window left out): the calls a first pass over every target needs,
   * without its re-polls and retries. Empty unless the `countDistinctRequests` option is on.
   */
  readonly distinctByEndpoint: Readonly<Record<string, number>>;
  /**
   * Scrapes of the service's own Prometheus endpoint refused (HTTP 429) as closer than the 60 s
   * minimum to the last one served for the same cluster and key, per cluster ID.
   */
  readonly nativeScrapesRefused: Readonly<Record<string, number>>;
  /** Zeroes every counter and forgets recorded requests. */
  reset(): void;
}

function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A request body without the time window a metrics query moves along each cycle. */
function withoutWindow(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const { start: _start, end: _end, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** The mutable implementation behind `SimStats`. */
export class StatsRecorder implements SimStats {
  requests = 0;
  byEndpoint = emptyRecord<number>();
  byEndpointCluster = emptyRecord<Record<string, number>>();
  rateLimited = 0;
  rateLimitedByEndpoint = emptyRecord<number>();
  faultsInjected: Partial<Record<FaultKind, number>> = emptyRecord<number>();
  mutatingCalls: string[] = [];
  lastRequest = emptyRecord<RecordedRequest>();
  byEndpointKey = emptyRecord<Record<string, number>>();
  distinctByEndpoint = emptyRecord<number>();
  nativeScrapesRefused = emptyRecord<number>();
  readonly #seen: Set<string> | undefined;

  /** `distinct`: count distinct requests too (each is remembered, so memory grows with them). */
  constructor(distinct = false) {
    this.#seen = distinct ? new Set() : undefined;
  }

  reset(): void {
    this.#seen?.clear();
    this.distinctByEndpoint = emptyRecord();
    this.nativeScrapesRefused = emptyRecord();
    this.byEndpointKey = emptyRecord();
    this.requests = 0;
    this.byEndpoint = emptyRecord();
    this.byEndpointCluster = emptyRecord();
    this.rateLimited = 0;
    this.rateLimitedByEndpoint = emptyRecord();
    this.faultsInjected = emptyRecord();
    this.mutatingCalls = [];
    this.lastRequest = emptyRecord();
  }

  /** Counts one request to `endpoint` and remembers it. */
  request(
    endpoint: string,
    clusterId: string | undefined,
    key: string | undefined,
    req: RecordedRequest,
  ): void {
    this.requests++;
    const perKey = this.byEndpointKey[endpoint] ?? emptyRecord<number>();
    perKey[key ?? ""] = (perKey[key ?? ""] ?? 0) + 1;
    this.byEndpointKey[endpoint] = perKey;
    this.byEndpoint[endpoint] = (this.byEndpoint[endpoint] ?? 0) + 1;
    if (clusterId !== undefined) {
      const perCluster = this.byEndpointCluster[endpoint] ?? emptyRecord<number>();
      perCluster[clusterId] = (perCluster[clusterId] ?? 0) + 1;
      this.byEndpointCluster[endpoint] = perCluster;
    }
    this.lastRequest[endpoint] = req;
    if (this.#seen !== undefined) {
      const identity = `${endpoint} ${req.path} ${JSON.stringify(req.query)} ${JSON.stringify(withoutWindow(req.body))}`;
      if (!this.#seen.has(identity)) {
        this.#seen.add(identity);
        this.distinctByEndpoint[endpoint] = (this.distinctByEndpoint[endpoint] ?? 0) + 1;
      }
    }
  }

  rateLimit(endpoint: string): void {
    this.rateLimited++;
    this.rateLimitedByEndpoint[endpoint] = (this.rateLimitedByEndpoint[endpoint] ?? 0) + 1;
  }

  fault(kind: FaultKind): void {
    this.faultsInjected[kind] = (this.faultsInjected[kind] ?? 0) + 1;
  }

  nativeScrapeRefused(clusterId: string): void {
    this.nativeScrapesRefused[clusterId] = (this.nativeScrapesRefused[clusterId] ?? 0) + 1;
  }

  mutating(call: string): void {
    this.mutatingCalls.push(call);
  }

  /** A plain JSON copy (for GET /_sim/stats). */
  toJSON(): Omit<SimStats, "reset"> {
    return {
      requests: this.requests,
      byEndpoint: { ...this.byEndpoint },
      byEndpointCluster: Object.fromEntries(
        Object.entries(this.byEndpointCluster).map(([k, v]) => [k, { ...v }]),
      ),
      rateLimited: this.rateLimited,
      rateLimitedByEndpoint: { ...this.rateLimitedByEndpoint },
      faultsInjected: { ...this.faultsInjected },
      mutatingCalls: [...this.mutatingCalls],
      lastRequest: { ...this.lastRequest },
      byEndpointKey: Object.fromEntries(Object.entries(this.byEndpointKey).map(([k, v]) => [k, { ...v }])),
      distinctByEndpoint: { ...this.distinctByEndpoint },
      nativeScrapesRefused: { ...this.nativeScrapesRefused },
    };
  }
}
