/**
 * The one catalog of upstream Query Cluster Metrics names: for each known name, the request
 * forms it is sent in, the statistics it takes, the unit kind of its values, the family it maps
 * to (a key of metrics/families.ts `CLUSTER_FAMILIES`) with its extra labels, whether the
 * service's public API reference documents it, and whether it exists per collection. A leaf:
 * config, client, collectors and the family lookup all read it; it reads nothing.
 *
 * The two request forms: the first names a metric plus a `stat` (AVG; P99 for latency), and
 * is the one the public reference documents; the second carries no `stat` (plain names, and
 * names with the statistic built in such as REQ_SEARCH_LATENCY_P99), seen only outside the
 * reference (docs/design.md section 7). A query's "other form" asks the same thing in the other one:
 * NAME + stat <-> NAME_STAT for latency, NAME + AVG <-> NAME for the rest.
 */

/** Every statistic a first-form query may name. */
export const STATS = ["AVG", "P99"] as const;

/** Statistic of a first-form query. */
export type Stat = (typeof STATS)[number];

/** One metric query as sent upstream: `stat` present in the first form, absent in the second. */
export interface QueryLike {
  readonly name: string;
  readonly stat?: Stat;
}

/** What a value is, before conversion to base units (same union as metrics/units.ts `UnitKind`). */
export type CatalogUnitKind = "ratio" | "bytes" | "seconds" | "per_second" | "count";

/** Key of the family an upstream metric lands in (metrics/families.ts `CLUSTER_FAMILIES`). */
export type FamilyKey =
  | "cuComputation"
  | "cuCapacity"
  | "writeCapacity"
  | "storage"
  | "vcu"
  | "requests"
  | "vectorRequests"
  | "latency"
  | "failure"
  | "success"
  | "slowQueries"
  | "flushes"
  | "entities"
  | "loadedEntities"
  | "indexedEntities"
  | "entityInserts"
  | "collections"
  | "unloadedCollections";

/** One known upstream name and everything the exporter knows about it. */
interface UpstreamMetric {
  readonly name: string;
  /** Statistics it takes in the first form (`name` + `stat`); empty when it has no first form. */
  readonly stats: readonly Stat[];
  /** Whether it is asked without `stat` (second form). */
  readonly secondForm: boolean;
  /** The statistic a second-form name carries in itself (REQ_SEARCH_LATENCY_P99: P99). */
  readonly nameStat?: Stat;
  readonly family: FamilyKey;
  readonly kind: CatalogUnitKind;
  /** Extra labels of its series, in order (`stat` is added from the query for latency). */
  readonly labels: Readonly<Record<string, string>>;
  /** In the enum of the public API reference (Query Cluster Metrics v2, first form). */
  readonly documented: boolean;
  /** A cluster-level resource (CU, vCU, collection counts): no value per database or collection. */
  readonly clusterOnly: boolean;
}

/** Request types of the per-type metrics, as the reference names them. */
const REQUEST_TYPES = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"] as const;
const VECTOR_DOCUMENTED = new Set(["INSERT", "UPSERT", "SEARCH"]);
const VECTOR_TYPES = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH"] as const;
// Second-form latency names were only ever seen for these (none for bulk insert).
const LATENCY_SECOND_FORM = new Set(["INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"]);

const AVG_ONLY: readonly Stat[] = ["AVG"];
const LATENCY_STATS: readonly Stat[] = ["AVG", "P99"];
const CLUSTER_ONLY = new Set([
  "CU_COMPUTATION",
  "CU_CAPACITY",
  "CLUSTER_WRITE_CAPACITY",
  "READ_VCU",
  "WRITE_VCU",
  "COLLECTIONS_COUNT",
  "UNLOADED_COLLECTIONS_COUNT",
]);

type Spec = Omit<UpstreamMetric, "clusterOnly" | "labels" | "stats" | "secondForm"> &
  Partial<Pick<UpstreamMetric, "labels" | "stats" | "secondForm">>;

function m(spec: Spec): UpstreamMetric {
  return Object.freeze({
    stats: AVG_ONLY,
    secondForm: true,
    labels: {},
    ...spec,
    clusterOnly: CLUSTER_ONLY.has(spec.name),
  });
}

const lower = (t: string): string => t.toLowerCase();

function build(): UpstreamMetric[] {
  const doc = (name: string, family: FamilyKey, kind: CatalogUnitKind, more: Partial<Spec> = {}) =>
    m({ name, family, kind, documented: true, ...more });
  const undoc = (name: string, family: FamilyKey, kind: CatalogUnitKind, more: Partial<Spec> = {}) =>
    m({ name, family, kind, documented: false, ...more });
  const firstOnly = { secondForm: false } as const;
  return [
    doc("CU_COMPUTATION", "cuComputation", "ratio"),
    doc("CU_CAPACITY", "cuCapacity", "ratio"),
    doc("STORAGE_USE", "storage", "bytes"),
    ...REQUEST_TYPES.map((t) =>
      doc(`REQ_${t}_COUNT`, "requests", "per_second", { labels: { request_type: lower(t) } }),
    ),
    ...VECTOR_TYPES.map((t) =>
      m({
        name: `VECTOR_REQ_${t}_COUNT`,
        family: "vectorRequests",
        kind: "per_second",
        labels: { request_type: lower(t) },
        documented: VECTOR_DOCUMENTED.has(t),
      }),
    ),
    doc("REQ_SUCCESS_RATE", "success", "ratio", firstOnly),
    doc("REQ_FAIL_RATE", "failure", "ratio", { ...firstOnly, labels: { request_type: "all" } }),
    ...REQUEST_TYPES.map((t) =>
      doc(`REQ_FAIL_RATE_${t}`, "failure", "ratio", { labels: { request_type: lower(t) } }),
    ),
    doc("ENTITIES_LOADED", "loadedEntities", "count"),
    doc("ENTITIES_INSERT_RATE", "entityInserts", "per_second", firstOnly),
    doc("COLLECTIONS_COUNT", "collections", "count"),
    doc("ENTITIES_COUNT", "entities", "count"),
    ...REQUEST_TYPES.map((t) =>
      doc(`REQ_${t}_LATENCY`, "latency", "seconds", {
        ...firstOnly,
        stats: LATENCY_STATS,
        labels: { request_type: lower(t) },
      }),
    ),
    ...REQUEST_TYPES.filter((t) => LATENCY_SECOND_FORM.has(t)).flatMap((t) =>
      LATENCY_STATS.map((s) =>
        undoc(`REQ_${t}_LATENCY_${s}`, "latency", "seconds", {
          stats: [],
          nameStat: s,
          labels: { request_type: lower(t), stat: lower(s) },
        }),
      ),
    ),
    undoc("READ_VCU", "vcu", "count", { labels: { operation: "read" } }),
    undoc("WRITE_VCU", "vcu", "count", { labels: { operation: "write" } }),
    undoc("SLOW_QUERY_COUNT", "slowQueries", "per_second"),
    undoc("ENTITIES_INDEXED", "indexedEntities", "count"),
    undoc("CLUSTER_WRITE_CAPACITY", "writeCapacity", "ratio"),
    undoc("UNLOADED_COLLECTIONS_COUNT", "unloadedCollections", "count"),
    undoc("FLUSH_COUNT", "flushes", "per_second"),
  ];
}

/** Every known upstream name, the documented ones first in the reference's order. */
export const UPSTREAM_METRICS: readonly UpstreamMetric[] = Object.freeze(build());

const BY_NAME: ReadonlyMap<string, UpstreamMetric> = new Map(UPSTREAM_METRICS.map((e) => [e.name, e]));

/** The catalog entry of an upstream name (exact, upper case), or undefined. */
export function upstreamMetric(name: string): UpstreamMetric | undefined {
  return BY_NAME.get(name);
}

/**
 * A pattern over names with a request type {T} the catalog does not list (a type the service
 * adds later, such as HYBRID_SEARCH): mapped like its listed siblings. First match wins.
 */
interface TypedPattern {
  readonly pattern: RegExp;
  readonly family: FamilyKey;
  readonly kind: CatalogUnitKind;
  /** Statistic in the name (group 2 of the pattern) or from the query; undefined when neither. */
  readonly stat: "none" | "in_name" | "from_query";
}

const T = "([A-Z0-9]+(?:_[A-Z0-9]+)*)";

/** Name patterns with a request type T, in matching order. */
const TYPED_PATTERNS: readonly TypedPattern[] = [
  {
    pattern: new RegExp(`^VECTOR_REQ_${T}_COUNT$`),
    family: "vectorRequests",
    kind: "per_second",
    stat: "none",
  },
  // Before REQ_{T}_COUNT so that FAIL_RATE is never read as a request type.
  { pattern: new RegExp(`^REQ_FAIL_RATE_${T}$`), family: "failure", kind: "ratio", stat: "none" },
  {
    pattern: new RegExp(`^REQ_${T}_LATENCY_(AVG|P99)$`),
    family: "latency",
    kind: "seconds",
    stat: "in_name",
  },
  { pattern: new RegExp(`^REQ_${T}_LATENCY$`), family: "latency", kind: "seconds", stat: "from_query" },
  { pattern: new RegExp(`^REQ_${T}_COUNT$`), family: "requests", kind: "per_second", stat: "none" },
];

/** Where a result lands: family key, unit kind and extra labels; or why it has no series. */
type Placement =
  | {
      readonly ok: true;
      readonly family: FamilyKey;
      readonly kind: CatalogUnitKind;
      readonly labels: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly reason: "unknown_stat" };

/**
 * The placement of a known or pattern-matched upstream name (upper case) with the statistic of
 * its result, or undefined for a name neither lists (its family is derived from its unit).
 * A first-form latency result without a statistic has no series: defaulting to AVG would
 * label a P99 as an average.
 */
export function placeMetric(name: string, stat: Stat | undefined): Placement | undefined {
  const known = BY_NAME.get(name);
  if (known !== undefined && !isLatencyFirstForm(known)) {
    return { ok: true, family: known.family, kind: known.kind, labels: known.labels };
  }
  for (const p of TYPED_PATTERNS) {
    const match = p.pattern.exec(name);
    if (match?.[1] === undefined) continue;
    const labels: Record<string, string> = { request_type: lower(match[1]) };
    if (p.stat === "in_name") labels.stat = lower(match[2] ?? "AVG");
    if (p.stat === "from_query") {
      if (stat === undefined) return { ok: false, reason: "unknown_stat" };
      labels.stat = lower(stat);
    }
    return { ok: true, family: p.family, kind: p.kind, labels };
  }
  return undefined;
}

function isLatencyFirstForm(e: UpstreamMetric): boolean {
  return e.stats.includes("P99");
}

/** First-form latency name by its spelling (REQ_SEARCH_LATENCY): the only kind taking P99. */
export function isLatencyName(name: string): boolean {
  return name.endsWith("_LATENCY");
}

/** A second-form name with its statistic built in (…_AVG, …_P99): never takes a `stat`. */
export function hasStatInName(name: string): boolean {
  return name.endsWith("_AVG") || name.endsWith("_P99");
}

/**
 * The default query list: the reference's enum in the first form, AVG for every metric and
 * AVG and P99 for latency (docs/design.md section 7: the safe default).
 */
export const DEFAULT_QUERIES: readonly QueryLike[] = Object.freeze(
  UPSTREAM_METRICS.filter((e) => e.documented).flatMap((e) =>
    e.stats.map((stat) => Object.freeze({ name: e.name, stat })),
  ),
);

/**
 * What a configured query sends: itself when it names a `stat`; a plain name the public
 * reference documents is sent in the first form with its documented statistics (AVG; AVG and
 * P99 for latency), the form a strict server accepts on the first try; a plain name outside
 * the reference is sent as written when it has a second form, else in the first form (unknown
 * …_LATENCY names with AVG and P99). A server that wants the other form gets it at run time.
 */
export function expandQuery(query: QueryLike): QueryLike[] {
  if (query.stat !== undefined) return [query];
  const known = BY_NAME.get(query.name);
  const stats =
    known !== undefined
      ? known.secondForm && !known.documented
        ? []
        : known.stats
      : impliedStats(query.name);
  return stats.length === 0 ? [query] : stats.map((stat) => ({ name: query.name, stat }));
}

function impliedStats(name: string): readonly Stat[] {
  return isLatencyName(name) ? LATENCY_STATS : [];
}

/**
 * The same question in the other request form, or undefined when there is none:
 * REQ_T_LATENCY + stat <-> REQ_T_LATENCY_STAT, NAME + AVG <-> NAME. For catalog names the
 * other form must be one the catalog lists (REQ_SUCCESS_RATE and bulk-insert latency have no
 * second form); unknown names follow the spelling rule alone.
 */
export function otherForm(query: QueryLike): QueryLike | undefined {
  const { name, stat } = query;
  const known = BY_NAME.get(name);
  let other: QueryLike | undefined;
  if (stat !== undefined) {
    if (isLatencyName(name)) other = { name: `${name}_${stat}` };
    else if (stat === "AVG") other = { name };
  } else if (hasStatInName(name)) {
    other = { name: name.slice(0, -4), stat: name.endsWith("_P99") ? "P99" : "AVG" };
  } else {
    other = { name, stat: "AVG" };
  }
  if (other === undefined || known === undefined) return other;
  const target = BY_NAME.get(other.name);
  if (target === undefined) return undefined;
  const accepted = other.stat === undefined ? target.secondForm : target.stats.includes(other.stat);
  return accepted ? other : undefined;
}

/** The second-form query a per-collection scope sends for `query`, or undefined if none. */
export function toSecondForm(query: QueryLike): QueryLike | undefined {
  return query.stat === undefined ? query : otherForm(query);
}

/** Whether a name is cluster-level (no per-collection value); unknown names are not. */
export function isClusterOnly(name: string): boolean {
  return BY_NAME.get(name)?.clusterOnly ?? false;
}

/** The statistic `raw` names (any case, spaces around), or undefined when it is none of `STATS`. */
export function parseStat(raw: string | undefined): Stat | undefined {
  const upper = raw?.trim().toUpperCase();
  return STATS.find((s) => s === upper);
}

/** Identity of a query: the same name with the same (or no) stat. */
export function queryKey(query: QueryLike): string {
  return query.stat === undefined ? query.name : `${query.name}/${query.stat}`;
}
