/**
 * Behaviours the upstream API is allowed to show (by its spec or its public documentation) that
 * a client must survive. Each is off by default so the demo stays simple; tests and the
 * conformance run switch them on, alone or all at once.
 */
import { SimulatorError } from "./errors.js";

/** The switches; every field has a default (see `resolveQuirks`). */
export interface SimQuirks {
  /** Metrics: the answer ends with the bucket that has not ended yet, holding a partial value. */
  readonly openBucket: boolean;
  /** Metrics: results come back without `stat` (the client must label them from its request). */
  readonly statlessResults: boolean;
  /** Metrics: request counts are in a bare `count` unit (per bucket), not `count/min`. */
  readonly countUnits: boolean;
  /** List Import Jobs: the server caps `pageSize` at this many, 5..100 (0: no cap beyond the documented 100). */
  readonly importPageCap: number;
  /** Describe Spark Job: unused fields of odd JSON types, empty-string timestamps, `CANCELING`, partial failure/precheck objects. */
  readonly oddSparkFields: boolean;
  /** Global clusters: answers inside `{code, data}` (the reference's samples show none). */
  readonly globalClustersEnvelope: boolean;
  /**
   * Listings (by endpoint template, e.g. "POST /v2/usage/query") whose server ignores
   * `currentPage`: every call is answered with page 1, which says it is page 1.
   */
  readonly pagesIgnored: readonly string[];
  /** Listings (by endpoint template) whose answers leave out their total (`count`, `total`). */
  readonly countless: readonly string[];
}

/** Every quirk off. */
export const NO_QUIRKS: SimQuirks = {
  openBucket: false,
  statlessResults: false,
  countUnits: false,
  importPageCap: 0,
  oddSparkFields: false,
  globalClustersEnvelope: false,
  pagesIgnored: [],
  countless: [],
};

/** Every quirk on, with a page cap small enough to force several pages. */
export const ALL_QUIRKS: SimQuirks = {
  openBucket: true,
  statlessResults: true,
  countUnits: true,
  importPageCap: 7,
  oddSparkFields: true,
  globalClustersEnvelope: true,
  // Page-1-only servers would fail every listing (as they should): not part of "every quirk".
  pagesIgnored: [],
  countless: ["GET /v2/clusters", "GET /v2/globalClusters", "GET /v2/backups"],
};

/** Applies defaults; throws `SimulatorError` (INVALID_OPTION) on a bad page cap. */
export function resolveQuirks(q: Partial<SimQuirks> | undefined): SimQuirks {
  const out = { ...NO_QUIRKS, ...q };
  // Below 5 the simulator's own List Import Jobs would refuse the page size it reports back.
  const cap = out.importPageCap;
  if (!Number.isSafeInteger(cap) || (cap !== 0 && (cap < 5 || cap > 100))) {
    throw new SimulatorError(
      "INVALID_OPTION",
      `quirks.importPageCap must be 0 (no cap) or an integer from 5 to 100, got ${String(cap)}`,
    );
  }
  return out;
}
