/**
 * The metric catalog: which family, labels and unit kind an upstream Query Cluster Metrics
 * result maps to (design.md section 5), plus the list of every fixed family of the exporter.
 */
import type { MetricQuery } from "../cloud/types.js";
import {
  CLUSTER_FAMILIES as C,
  COLLECTION_FAMILIES,
  INVENTORY_FAMILIES,
  JOB_FAMILIES,
  PROCESS_SELF_FAMILIES,
  TARGET_SELF_FAMILIES,
} from "./families.js";
import type { FamilyDef } from "./sample.js";
import { parseUnit, type UnitKind } from "./units.js";

/** Statistic of a first-form metric query. */
export type Stat = NonNullable<MetricQuery["stat"]>;

/** Where one upstream metric lands: its family, the family's extra labels (in order), its unit kind. */
export interface CatalogEntry {
  readonly family: FamilyDef;
  readonly labels: Readonly<Record<string, string>>;
  readonly kind: UnitKind;
}

/** Result of a catalog lookup: an entry, or why the metric cannot be exposed. */
export type CatalogLookup =
  | { readonly ok: true; readonly entry: CatalogEntry }
  | { readonly ok: false; readonly reason: "unknown_unit" | "unknown_metric_name" | "unknown_stat" };

/**
 * Every fixed family of the exporter: cluster metrics, jobs, inventory and self-metrics (the
 * duration histograms excepted, see families.ts). Families of upstream metrics missing from the
 * catalog are derived at run time and are not listed.
 */
export const STATIC_FAMILIES: readonly FamilyDef[] = [
  C,
  JOB_FAMILIES,
  INVENTORY_FAMILIES,
  COLLECTION_FAMILIES,
  TARGET_SELF_FAMILIES,
  PROCESS_SELF_FAMILIES,
].flatMap((group) => Object.values(group));

const STATIC_NAMES: ReadonlySet<string> = new Set(STATIC_FAMILIES.map((f) => f.name));

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

function entry(family: FamilyDef, kind: UnitKind, labels = NO_LABELS): CatalogEntry {
  return { family, kind, labels };
}

const EXACT: ReadonlyMap<string, CatalogEntry> = new Map([
  ["CU_COMPUTATION", entry(C.cuComputation, "ratio")],
  ["CU_CAPACITY", entry(C.cuCapacity, "ratio")],
  ["CLUSTER_WRITE_CAPACITY", entry(C.writeCapacity, "ratio")],
  ["STORAGE_USE", entry(C.storage, "bytes")],
  ["READ_VCU", entry(C.vcu, "count", { operation: "read" })],
  ["WRITE_VCU", entry(C.vcu, "count", { operation: "write" })],
  ["REQ_FAIL_RATE", entry(C.failure, "ratio", { request_type: "all" })],
  ["REQ_SUCCESS_RATE", entry(C.success, "ratio")],
  ["SLOW_QUERY_COUNT", entry(C.slowQueries, "per_second")],
  ["FLUSH_COUNT", entry(C.flushes, "per_second")],
  ["ENTITIES_COUNT", entry(C.entities, "count")],
  ["ENTITIES_LOADED", entry(C.loadedEntities, "count")],
  ["ENTITIES_INDEXED", entry(C.indexedEntities, "count")],
  ["ENTITIES_INSERT_RATE", entry(C.entityInserts, "per_second")],
  ["COLLECTIONS_COUNT", entry(C.collections, "count")],
  ["UNLOADED_COLLECTIONS_COUNT", entry(C.unloadedCollections, "count")],
]);

/** A pattern over upstream names with a request type {T}; the first match wins, so order matters. */
interface TypedRule {
  readonly pattern: RegExp;
  readonly map: (requestType: string, match: RegExpExecArray, stat: Stat | undefined) => CatalogLookup;
}

function found(e: CatalogEntry): CatalogLookup {
  return { ok: true, entry: e };
}

const T = "([A-Z0-9]+(?:_[A-Z0-9]+)*)";

const TYPED_RULES: readonly TypedRule[] = [
  {
    pattern: new RegExp(`^VECTOR_REQ_${T}_COUNT$`),
    map: (t) => found(entry(C.vectorRequests, "per_second", { request_type: t })),
  },
  // Before REQ_{T}_COUNT so that FAIL_RATE is never read as a request type.
  {
    pattern: new RegExp(`^REQ_FAIL_RATE_${T}$`),
    map: (t) => found(entry(C.failure, "ratio", { request_type: t })),
  },
  {
    pattern: new RegExp(`^REQ_${T}_LATENCY_(AVG|P99)$`),
    map: (t, m) =>
      found(entry(C.latency, "seconds", { request_type: t, stat: (m[2] ?? "AVG").toLowerCase() })),
  },
  // First form: the statistic comes with the result or from the request that asked for it.
  // Without one there is no series to put it in: defaulting to AVG would label a P99 as an
  // average, so such a result is dropped.
  {
    pattern: new RegExp(`^REQ_${T}_LATENCY$`),
    map: (t, _m, stat) =>
      stat === undefined
        ? { ok: false, reason: "unknown_stat" }
        : found(entry(C.latency, "seconds", { request_type: t, stat: stat.toLowerCase() })),
  },
  {
    pattern: new RegExp(`^REQ_${T}_COUNT$`),
    map: (t) => found(entry(C.requests, "per_second", { request_type: t })),
  },
];

const SUFFIX: Readonly<Record<UnitKind, string>> = {
  ratio: "_ratio",
  bytes: "_bytes",
  seconds: "_seconds",
  per_second: "_per_second",
  count: "",
};

const KIND_HELP: Readonly<Record<UnitKind, string>> = {
  ratio: "converted to a ratio",
  bytes: "converted to bytes",
  seconds: "converted to seconds",
  per_second: "converted to a per-second rate",
  count: "as is",
};

function snake(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * Family of an upstream metric the catalog does not know: vdbcloud_<snake name> + the suffix of
 * the unit's kind. A trailing _total or _count is dropped: _total is reserved for counters and
 * _count for histograms and summaries, and these are gauges (the known ENTITIES_COUNT ->
 * vdbcloud_entities follows the same rule). P99 adds _p99 so it never collides with the AVG
 * series; AVG is the only statistic of non-latency metrics, so it adds nothing.
 */
function derivedEntry(name: string, stat: Stat | undefined, unit: string): CatalogLookup {
  const unitScale = parseUnit(unit);
  if (unitScale === undefined) return { ok: false, reason: "unknown_unit" };
  const kind = unitScale.kind;
  let base = snake(name);
  for (let prev = ""; prev !== base; ) {
    prev = base;
    base = base.replace(/(^|_)(total|count)$/, "");
  }
  if (base === "") return { ok: false, reason: "unknown_metric_name" };
  if (stat === "P99") base += "_p99";
  if (!base.endsWith(SUFFIX[kind])) base += SUFFIX[kind];
  const familyName = `vdbcloud_${base}`;
  // A derived name equal to a fixed family would mix two meanings in one family.
  if (STATIC_NAMES.has(familyName)) return { ok: false, reason: "unknown_metric_name" };
  const statNote = stat === "P99" ? " stat P99" : "";
  const help = `Upstream metric ${name}${statNote}, ${KIND_HELP[kind]} (not in the catalog; named from its unit).`;
  return { ok: true, entry: entry({ name: familyName, help, type: "gauge" }, kind) };
}

function resolve(name: string, stat: Stat | undefined, unit: string): CatalogLookup {
  const exact = EXACT.get(name);
  if (exact !== undefined) return { ok: true, entry: exact };
  for (const rule of TYPED_RULES) {
    const m = rule.pattern.exec(name);
    if (m?.[1] !== undefined) return rule.map(m[1].toLowerCase(), m, stat);
  }
  return derivedEntry(name, stat, unit);
}

// Names and units come from upstream responses: bound the memo so that a misbehaving upstream
// cannot grow it without limit. Clearing is enough; a full cache is never the normal case.
const MEMO_LIMIT = 4096;
const memo = new Map<string, CatalogLookup>();

/**
 * Looks up where an upstream metric lands. `name` is matched case-insensitively; `stat` is the
 * first-form statistic of the result; `unit` only matters for names missing from the catalog,
 * whose family is named after the unit's kind. Memoized; the returned objects are shared and
 * must not be mutated. Never throws.
 */
export function lookupFamily(name: string, stat?: Stat, unit = ""): CatalogLookup {
  const upper = name.trim().toUpperCase();
  const key = `${upper}\u0000${stat ?? ""}\u0000${unit}`;
  let found = memo.get(key);
  if (found === undefined) {
    found = resolve(upper, stat, unit);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, found);
  }
  return found;
}

/**
 * The catalog entry of an upstream metric, or undefined when it cannot be exposed (see
 * `lookupFamily` for the reason).
 */
export function familyFor(name: string, stat?: Stat, unit = ""): CatalogEntry | undefined {
  const found = lookupFamily(name, stat, unit);
  return found.ok ? found.entry : undefined;
}
