/**
 * What an endpoint of the simulator is: its method, path, template and a handler that returns
 * the `data` of a success envelope or throws `SimApiError`. The request path (requestPath.ts) adds
 * everything shared: stats, faults, authentication, rate limiting and the envelope.
 */
import { ApiCode, SimApiError } from "./errors.js";

/** A request as handlers see it (already authenticated and within the rate limit). */
export interface RouteRequest {
  readonly params: Readonly<Record<string, string | undefined>>;
  /** Query parameters; a repeated parameter keeps its first value. */
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  /** The {region} of a version 1 call made through the controller URL, else undefined. */
  readonly region: string | undefined;
  readonly nowMs: number;
  /** The request's Bearer key, already accepted (absent in requests built by tests). */
  readonly key?: string;
}

/** One endpoint of the simulated API. */
export interface RouteDef {
  readonly method: "GET" | "POST" | "DELETE" | "PUT" | "PATCH";
  /** Express path; version 1 routes are also served under /ctl/:region. */
  readonly path: string;
  /** Endpoint template used by stats, faults and the rate limiter, e.g. "GET /v2/clusters/{id}". */
  readonly template: string;
  readonly version: 1 | 2;
  readonly mutating: boolean;
  /** Shape of a success `data`, so that the wrong_shape fault can send the other one. */
  readonly dataShape: "object" | "array";
  /** The cluster a request is about, for per-cluster stats and fault filters. */
  readonly clusterId?: (req: RouteRequest) => string | undefined;
  /**
   * A cluster's data plane: authenticated per cluster (data-plane.ts), refused with the
   * engine's code, and rate limited per cluster endpoint.
   */
  readonly dataPlane?: boolean;
  /**
   * A permission beyond a valid key the endpoint needs: a key the simulator was told lacks it
   * (`backupDeniedKeys`) is refused with HTTP 403.
   */
  readonly permission?: "backup";
  /** True: the success answer is the bare payload, without `{code, data}` (as some reference samples show). */
  readonly bare?: () => boolean;
  /**
   * A billing endpoint: when the simulator has billing keys, only they are let in here, and
   * they are let in nowhere else (a key with the billing role is not the monitoring key).
   */
  readonly billing?: boolean;
  /**
   * The success answer is Prometheus text exposition (the handler returns the text), not a JSON
   * envelope: the service's own Prometheus endpoint. Failures keep the envelope.
   */
  readonly exposition?: boolean;
  /**
   * How long the answer takes, in ms, drawn per request (a data plane's latency); null: it never
   * comes (the client times out). Absent: at once.
   */
  readonly latency?: (req: RouteRequest) => number | null;
  /** Returns the success `data`; throws SimApiError for an upstream-style failure. */
  readonly handle: (req: RouteRequest) => unknown;
}

/** The success code of an API version: 0 for version 2, 200 for version 1. */
export function successCode(version: 1 | 2): number {
  return version === 1 ? ApiCode.OK_V1 : ApiCode.OK_V2;
}

/**
 * Parses an integer query parameter within [min, max]; `fallback` when absent. Throws
 * SimApiError INVALID_PARAMETER otherwise.
 */
export function intParam(
  query: RouteRequest["query"],
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = query[name];
  if (raw === undefined || raw === "") return fallback;
  const n = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new SimApiError(ApiCode.INVALID_PARAMETER, `${name} must be an integer ${range}, got ${raw}`);
  }
  return n;
}

/**
 * The page a per-project listing asks for: `projectId` (required), `pageSize` (1 to 100, 10 by
 * default, as the service falls back) and `currentPage` (from 1), and the slice of `all` it
 * shows. Throws SimApiError INVALID_PARAMETER for a missing project or a bad number.
 */
export function projectPageParams(query: RouteRequest["query"]): PageParams & { readonly projectId: string } {
  const projectId = query.projectId;
  if (!projectId) throw new SimApiError(ApiCode.INVALID_PARAMETER, "projectId is required");
  return { projectId, ...pageParams(query) };
}

/** The page a listing asks for, and the slice of a listing it shows. */
interface PageParams {
  readonly pageSize: number;
  readonly currentPage: number;
  readonly slice: <T>(all: readonly T[]) => T[];
}

/**
 * The page an account-wide listing asks for: `pageSize` (1 to 100, 10 by default, as the
 * service falls back) and `currentPage` (from 1), and the slice of `all` it shows. Throws
 * SimApiError INVALID_PARAMETER for a bad number.
 */
export function pageParams(query: RouteRequest["query"]): PageParams {
  const pageSize = intParam(query, "pageSize", 10, 1, 100);
  const currentPage = intParam(query, "currentPage", 1, 1, Number.MAX_SAFE_INTEGER);
  const slice = <T>(all: readonly T[]) => all.slice((currentPage - 1) * pageSize, currentPage * pageSize);
  return { pageSize, currentPage, slice };
}

/** The project and region a per-region call names; throws SimApiError INVALID_PARAMETER when either is missing. */
export function projectRegionParams(query: RouteRequest["query"]): {
  readonly projectId: string;
  readonly regionId: string;
} {
  const { projectId, regionId } = query;
  if (!projectId || !regionId) {
    throw new SimApiError(ApiCode.INVALID_PARAMETER, "projectId and regionId are required");
  }
  return { projectId, regionId };
}
