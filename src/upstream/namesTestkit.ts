/**
 * The metric names of docs/design.md section 7, written out by hand rather than derived from
 * upstream/catalog.ts, so that the tests of both catalogs (the exporter's and the simulator's)
 * compare them with one statement of the design. Used by tests only.
 */

/** Request types of the per-type metrics, as the reference names them. */
export const DESIGN_REQUEST_TYPES = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"] as const;

const ALL = DESIGN_REQUEST_TYPES;
const VECTOR = ALL.filter((t) => t !== "QUERY");
// Current-form latency names exist for these (none for bulk insert).
const LATENCY = ALL.filter((t) => t !== "BULK_INSERT");

/** The current reference's 40 names, in its order: what the current form sends (without `stat`). */
export const DESIGN_SECOND_FORM_NAMES: readonly string[] = [
  "CU_COMPUTATION",
  "CU_CAPACITY",
  "STORAGE_USE",
  "READ_VCU",
  "WRITE_VCU",
  ...ALL.map((t) => `REQ_${t}_COUNT`),
  ...VECTOR.map((t) => `VECTOR_REQ_${t}_COUNT`),
  ...LATENCY.flatMap((t) => [`REQ_${t}_LATENCY_AVG`, `REQ_${t}_LATENCY_P99`]),
  "SLOW_QUERY_COUNT",
  ...ALL.map((t) => `REQ_FAIL_RATE_${t}`),
  "ENTITIES_LOADED",
  "ENTITIES_INDEXED",
  "ENTITIES_COUNT",
  "COLLECTIONS_COUNT",
  "CLUSTER_WRITE_CAPACITY",
  "UNLOADED_COLLECTIONS_COUNT",
  "FLUSH_COUNT",
];
