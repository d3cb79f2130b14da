/**
 * Runtime-settable faults. Each request asks `pick` once; faults are tried in the order of
 * FAULT_KINDS and the first that fires wins. A rate of 1 always fires and 0 never does; other
 * rates draw from a PRNG seeded from the simulator's seed, so a run is reproducible.
 */
import { SimulatorError } from "./errors.js";
import { createRng, type Rng } from "./random.js";

/** Every fault kind, in the order `pick` tries them. */
export const FAULT_KINDS = [
  "hang",
  "slow_body",
  "truncated",
  "non_json",
  "wrong_shape",
  "http_500",
  "http_502",
  "http_503",
  "rate_limit_429",
  "rate_limit_code",
  "invalid_key",
  "http_401",
  "catalogue_refusal",
  "illegal_token_code0",
  "unknown_cluster",
] as const;
/** One of FAULT_KINDS. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How often and where a fault fires, plus kind-specific options. */
export interface FaultSpec {
  /** Probability per matching request, 0..1. */
  readonly rate: number;
  /** Endpoint templates (e.g. "GET /v2/clusters/{id}"); all endpoints when absent. */
  readonly endpoints?: readonly string[];
  /** Cluster IDs (from the path or the clusterId query); all requests when absent. */
  readonly clusters?: readonly string[];
  /** rate_limit_429: the Retry-After header in seconds (default 1). */
  readonly retryAfterSeconds?: number;
  /** slow_body: time over which the body trickles (default 2000 ms). */
  readonly durationMs?: number;
  /** slow_body: number of pieces the body is cut into (default 10). */
  readonly chunks?: number;
  /** non_json: HTTP status of the HTML page (default 200, the case clients mishandle most). */
  readonly status?: number;
  /**
   * rate_limit_code: the envelope code (default ApiCode.RATE_LIMITED); catalogue_refusal: the
   * reference's error code to answer (default 96027), with the catalogue's message for it.
   */
  readonly code?: number;
  /**
   * truncated: when true, Content-Length announces the whole body and the connection drops
   * after half of it (a transport error); otherwise a complete HTTP answer with a cut body.
   */
  readonly abort?: boolean;
}

/** The runtime fault switchboard. */
export interface FaultController {
  /** Activates (or replaces) a fault. Throws `SimulatorError` (INVALID_FAULT) on a bad spec. */
  set(kind: FaultKind, spec: FaultSpec): void;
  /** Removes one fault, or all of them. */
  clear(kind?: FaultKind): void;
  /** The active faults. */
  active(): Partial<Record<FaultKind, FaultSpec>>;
}

/** A fault chosen for one request. */
export interface FaultHit {
  readonly kind: FaultKind;
  readonly spec: FaultSpec;
}

function isFaultKind(kind: string): kind is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(kind);
}

/** Checks an untrusted fault setting (HTTP or JavaScript) and returns it typed. */
export function validateFault(kind: unknown, spec: unknown): FaultHit {
  if (typeof kind !== "string" || !isFaultKind(kind)) {
    throw new SimulatorError(
      "INVALID_FAULT",
      `unknown fault kind: ${String(kind)} (expected one of ${FAULT_KINDS.join(", ")})`,
    );
  }
  if (typeof spec !== "object" || spec === null)
    throw new SimulatorError("INVALID_FAULT", "fault spec must be an object");
  const s = spec as Record<string, unknown>;
  const rate = s.rate;
  if (typeof rate !== "number" || !(rate >= 0 && rate <= 1)) {
    throw new SimulatorError("INVALID_FAULT", "rate must be a number from 0 to 1");
  }
  for (const key of ["endpoints", "clusters"] as const) {
    const v = s[key];
    if (v !== undefined && !(Array.isArray(v) && v.every((x) => typeof x === "string"))) {
      throw new SimulatorError("INVALID_FAULT", `${key} must be a list of strings`);
    }
  }
  for (const key of ["retryAfterSeconds", "durationMs", "chunks", "status", "code"] as const) {
    const v = s[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0)) {
      throw new SimulatorError("INVALID_FAULT", `${key} must be a non-negative number`);
    }
  }
  if (s.abort !== undefined && typeof s.abort !== "boolean") {
    throw new SimulatorError("INVALID_FAULT", "abort must be a boolean");
  }
  return { kind, spec: { ...(s as unknown as FaultSpec) } };
}

/** The simulator's fault controller. */
export class Faults implements FaultController {
  readonly #active = new Map<FaultKind, FaultSpec>();
  readonly #rng: Rng;

  constructor(seed: number) {
    this.#rng = createRng(seed ^ 0x5eed_fa17);
  }

  set(kind: FaultKind, spec: FaultSpec): void {
    const hit = validateFault(kind, spec);
    this.#active.set(hit.kind, hit.spec);
  }

  clear(kind?: FaultKind): void {
    if (kind === undefined) this.#active.clear();
    else this.#active.delete(kind);
  }

  active(): Partial<Record<FaultKind, FaultSpec>> {
    return Object.fromEntries(this.#active) as Partial<Record<FaultKind, FaultSpec>>;
  }

  /** The fault to inject into a request to `endpoint` about `clusterId`, if any. */
  pick(endpoint: string, clusterId: string | undefined): FaultHit | undefined {
    if (this.#active.size === 0) return undefined;
    for (const kind of FAULT_KINDS) {
      const spec = this.#active.get(kind);
      if (!spec || spec.rate <= 0) continue;
      if (spec.endpoints && !spec.endpoints.includes(endpoint)) continue;
      if (spec.clusters && (clusterId === undefined || !spec.clusters.includes(clusterId))) continue;
      if (spec.rate >= 1 || this.#rng() < spec.rate) return { kind, spec };
    }
    return undefined;
  }
}
