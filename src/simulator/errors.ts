/**
 * Error codes and error classes of the simulator.
 *
 * Upstream codes come from the API reference and the facts of docs/design.md section 7 where
 * they are known; the service documents no code for the other conditions, so the simulator
 * names its own and keeps them stable, so that tests can assert on them.
 */

/** Numeric `code` values the simulator puts in failure envelopes. */
export const ApiCode = {
  /** Success code of version 2 endpoints. */
  OK_V2: 0,
  /** Success code of version 1 endpoints. */
  OK_V1: 200,
  /** Missing or unknown API key (documented). */
  INVALID_TOKEN: 80001,
  /** A parameter is missing or out of range (documented for List Import Jobs pageSize). */
  INVALID_PARAMETER: 80003,
  /** Version 2: cluster not found or no permission (documented). */
  CLUSTER_NOT_FOUND_V2: 80020,
  /** Version 1: cluster not found (documented). */
  CLUSTER_NOT_FOUND_V1: 96018,
  /** Not documented: the metric name is not known for the request form used. */
  UNKNOWN_METRIC: 80050,
  /**
   * The strict catalog's refusal of a metric query (an unknown name, a missing stat): the code
   * of the service's own "invalid metric name" answer, which refuses the whole request.
   */
  INVALID_METRIC: 96000,
  /** Not documented: Spark job (or its project) not found. */
  JOB_NOT_FOUND: 80060,
  /** Not documented: the database or collection of a scoped metric query does not exist. */
  COLLECTION_NOT_FOUND: 100,
  /**
   * Not documented: the body code sent with an HTTP 429 (and by the `rate_limit_code` fault).
   * Clients must recognise rate limiting by the status or the message, not by this number.
   */
  RATE_LIMITED: 90429,
  /**
   * The key is valid but lacks the role the endpoint needs (sent with HTTP 403): the monitoring
   * key on a billing endpoint, or the billing key on any other. The catalogue's 96013 ("Org owner
   * or project owner is needed"); the status says it too.
   */
  PERMISSION_DENIED: 96013,
  /** No route matches (sent with HTTP 404). */
  NOT_FOUND: 404,
} as const;

/** Message of every rate-limit answer of the simulator's own limiter. */
export const RATE_LIMIT_MESSAGE = "rate limit exceeded, too many requests";

/**
 * An upstream-style failure: the request path turns it into `{code, message}` with HTTP
 * `httpStatus` (200 unless stated, as the service answers API errors).
 */
export class SimApiError extends Error {
  override readonly name = "SimApiError";
  readonly code: number;
  readonly httpStatus: number;

  constructor(code: number, message: string, options?: { httpStatus?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.httpStatus = options?.httpStatus ?? 200;
  }
}

/** Stable codes of `SimulatorError` (misuse of the simulator's own API, not upstream errors). */
type SimulatorErrorCode =
  | "UNKNOWN_CLUSTER"
  | "UNKNOWN_PROJECT"
  | "UNKNOWN_JOB"
  | "UNKNOWN_METRIC"
  | "UNKNOWN_PRIVATE_ENDPOINT"
  | "UNKNOWN_STORAGE_INTEGRATION"
  | "INVALID_OPTION"
  | "INVALID_FAULT"
  | "DUPLICATE_JOB";

/** Thrown by the simulator's JavaScript API (state hooks, options, fault settings). */
export class SimulatorError extends Error {
  override readonly name = "SimulatorError";
  readonly code: SimulatorErrorCode;

  constructor(code: SimulatorErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}
