/**
 * The one catalog of upstream Query Cluster Metrics names: for each known name, the request
 * forms it is sent in, the statistics it takes, the unit kind of its values, the family it maps
 * to (a key of metrics/families.ts `CLUSTER_FAMILIES`) with its extra labels, which public
 * reference documents it, which plans offer it, and whether it exists per collection. A leaf:
 * config, client, collectors and the family lookup all read it; it reads nothing.
 *
 * The two request forms (docs/design.md section 7):
 * - current: a MetricQuery is `name` only, and latency names carry their statistic
 *   (REQ_SEARCH_LATENCY_P99). The reference as it reads today documents 40 names in this form;
 *   it is the default.
 * - 2024: every query names a `stat` (AVG; P99 for latency only), latency names carry none
 *   (REQ_SEARCH_LATENCY + P99). The reference of 2024 documented this form, with a few names the
 *   current one dropped (REQ_SUCCESS_RATE, REQ_FAIL_RATE, ENTITIES_INSERT_RATE). It is the
 *   fallback: asked when a user lists a name only it has, or when a key's server refuses the
 *   current form (collectors/cluster-metrics/forms.ts).
 * A query's "other form" asks the same thing in the other one:
 * NAME_STAT <-> NAME + stat for latency, NAME <-> NAME + AVG for the rest.
 */

/** Every statistic a 2024-form query may name. */
export const STATS = ["AVG", "P99"] as const;

/** Statistic of a 2024-form query. */
export type Stat = (typeof STATS)[number];

/** The two request forms of Query Cluster Metrics, the current reference's first. */
export const QUERY_FORMS = ["current", "2024"] as const;

/** A request form: `current` (name only) or `2024` (name + stat). */
export type QueryForm = (typeof QUERY_FORMS)[number];

/** One metric query as sent upstream: `stat` present in the 2024 form, absent in the current. */
export interface QueryLike {
  readonly name: string;
  readonly stat?: Stat;
}

/** The request form a query is written in. */
export function formOfQuery(query: QueryLike): QueryForm {
  return query.stat === undefined ? "current" : "2024";
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

/**
 * A public reference that documents a name: `current` is Query Cluster Metrics (V2) as it reads
 * today (zdoc content/en/reference/api/restful/restful/v2/control-plane/metrics-and-alerts-v2/
 * query-cluster-metrics-v2.mdx), `2024` its older layout (reference/api/restful/restful/
 * control-plane/v2/cluster-operations-v2/query-cluster-metrics-v2.md).
 */
export type Reference = QueryForm;

/** The plans of a cluster as Describe Cluster names them, lower case. */
export const PLANS = ["free", "serverless", "standard", "enterprise"] as const;

/** One of `PLANS`. */
export type Plan = (typeof PLANS)[number];

/** One known upstream name and everything the exporter knows about it. */
interface UpstreamMetric {
  readonly name: string;
  /** Statistics it takes in the 2024 form (`name` + `stat`); empty when it has no 2024 form. */
  readonly stats: readonly Stat[];
  /** Whether it is asked without `stat` (the current form). */
  readonly currentForm: boolean;
  /** The statistic a current-form name carries in itself (REQ_SEARCH_LATENCY_P99: P99). */
  readonly nameStat?: Stat;
  readonly family: FamilyKey;
  readonly kind: CatalogUnitKind;
  /** Extra labels of its series, in order (`stat` is added from the query for latency). */
  readonly labels: Readonly<Record<string, string>>;
  /** The public references that list it (empty: seen only outside them). */
  readonly references: readonly Reference[];
  /**
   * The plans whose clusters offer it (the service's Metrics & Alerts Reference, docs/design.md
   * section 7); a plan outside `PLANS` (BYOC, a new one) is asked everything.
   */
  readonly plans: ReadonlySet<Plan>;
  /** A cluster-level resource (CU, vCU, collection counts): no value per database or collection. */
  readonly clusterOnly: boolean;
}

/** Request types of the per-type metrics, as the reference names them. */
const REQUEST_TYPES = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"] as const;
// The 2024 reference listed vector request counts for these three only.
const VECTOR_2024 = new Set(["INSERT", "UPSERT", "SEARCH"]);
const VECTOR_TYPES = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH"] as const;
// Current-form latency names exist for these (none for bulk insert, in either reference).
const LATENCY_CURRENT = ["INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"] as const;

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

/**
 * Which plans offer a name, where that is narrower than "every plan but Free" (the Metrics &
 * Alerts Reference: free clusters offer CU Capacity and the vCU counts only; CU Computation and
 * Loaded Entities are Dedicated's; vCUs Free's and Serverless'; slow queries, write capacity,
 * flushes and unloaded collections Dedicated Enterprise's and BYOC's).
 */
const PLANS_BY_NAME: ReadonlyMap<string, readonly Plan[]> = new Map<string, readonly Plan[]>([
  ["CU_CAPACITY", PLANS],
  ["READ_VCU", ["free", "serverless"]],
  ["WRITE_VCU", ["free", "serverless"]],
  ["CU_COMPUTATION", ["standard", "enterprise"]],
  ["ENTITIES_LOADED", ["standard", "enterprise"]],
  ["SLOW_QUERY_COUNT", ["enterprise"]],
  ["CLUSTER_WRITE_CAPACITY", ["enterprise"]],
  ["FLUSH_COUNT", ["enterprise"]],
  ["UNLOADED_COLLECTIONS_COUNT", ["enterprise"]],
]);
const NOT_FREE: readonly Plan[] = ["serverless", "standard", "enterprise"];

type Spec = Omit<UpstreamMetric, "clusterOnly" | "labels" | "stats" | "currentForm" | "plans"> &
  Partial<Pick<UpstreamMetric, "labels" | "stats" | "currentForm">>;

function m(spec: Spec): UpstreamMetric {
  return Object.freeze({
    stats: AVG_ONLY,
    currentForm: true,
    labels: {},
    ...spec,
    plans: new Set(PLANS_BY_NAME.get(spec.name) ?? NOT_FREE),
    clusterOnly: CLUSTER_ONLY.has(spec.name),
  });
}

const lower = (t: string): string => t.toLowerCase();
const BOTH: readonly Reference[] = ["current", "2024"];
const CURRENT: readonly Reference[] = ["current"];
const Y2024: readonly Reference[] = ["2024"];

/** The current reference's names in its order, then the names only the 2024 reference has. */
function build(): UpstreamMetric[] {
  const named = (name: string, family: FamilyKey, kind: CatalogUnitKind, more: Partial<Spec> = {}) =>
    m({ name, family, kind, references: BOTH, ...more });
  const only2024 = { currentForm: false, references: Y2024 } as const;
  const onlyCurrent = { references: CURRENT } as const;
  return [
    named("CU_COMPUTATION", "cuComputation", "ratio"),
    named("CU_CAPACITY", "cuCapacity", "ratio"),
    named("STORAGE_USE", "storage", "bytes"),
    named("READ_VCU", "vcu", "count", { ...onlyCurrent, labels: { operation: "read" } }),
    named("WRITE_VCU", "vcu", "count", { ...onlyCurrent, labels: { operation: "write" } }),
    ...REQUEST_TYPES.map((t) =>
      named(`REQ_${t}_COUNT`, "requests", "per_second", { labels: { request_type: lower(t) } }),
    ),
    ...VECTOR_TYPES.map((t) =>
      named(`VECTOR_REQ_${t}_COUNT`, "vectorRequests", "per_second", {
        labels: { request_type: lower(t) },
        references: VECTOR_2024.has(t) ? BOTH : CURRENT,
      }),
    ),
    ...LATENCY_CURRENT.flatMap((t) =>
      LATENCY_STATS.map((s) =>
        named(`REQ_${t}_LATENCY_${s}`, "latency", "seconds", {
          ...onlyCurrent,
          stats: [],
          nameStat: s,
          labels: { request_type: lower(t), stat: lower(s) },
        }),
      ),
    ),
    named("SLOW_QUERY_COUNT", "slowQueries", "per_second", onlyCurrent),
    ...REQUEST_TYPES.map((t) =>
      named(`REQ_FAIL_RATE_${t}`, "failure", "ratio", { labels: { request_type: lower(t) } }),
    ),
    named("ENTITIES_LOADED", "loadedEntities", "count"),
    named("ENTITIES_INDEXED", "indexedEntities", "count", onlyCurrent),
    named("ENTITIES_COUNT", "entities", "count"),
    named("COLLECTIONS_COUNT", "collections", "count"),
    named("CLUSTER_WRITE_CAPACITY", "writeCapacity", "ratio", onlyCurrent),
    named("UNLOADED_COLLECTIONS_COUNT", "unloadedCollections", "count", onlyCurrent),
    named("FLUSH_COUNT", "flushes", "per_second", onlyCurrent),
    ...REQUEST_TYPES.map((t) =>
      named(`REQ_${t}_LATENCY`, "latency", "seconds", {
        ...only2024,
        stats: LATENCY_STATS,
        labels: { request_type: lower(t) },
      }),
    ),
    named("REQ_SUCCESS_RATE", "success", "ratio", only2024),
    named("REQ_FAIL_RATE", "failure", "ratio", { ...only2024, labels: { request_type: "all" } }),
    named("ENTITIES_INSERT_RATE", "entityInserts", "per_second", only2024),
  ];
}

/** Every known upstream name: the current reference's first, in its order. */
export const UPSTREAM_METRICS: readonly UpstreamMetric[] = Object.freeze(build());

/** The names of the current reference's enum, in its order (a conformance test compares them). */
export const CURRENT_METRIC_NAMES: readonly string[] = Object.freeze(
  UPSTREAM_METRICS.filter((e) => e.references.includes("current")).map((e) => e.name),
);

const BY_NAME: ReadonlyMap<string, UpstreamMetric> = new Map(UPSTREAM_METRICS.map((e) => [e.name, e]));

/** The catalog entry of an upstream name (exact, upper case), or undefined. */
export function upstreamMetric(name: string): UpstreamMetric | undefined {
  return BY_NAME.get(name);
}

/**
 * Whether the reference of `form` lists `name` (names outside the catalog: assumed so). A key
 * whose server follows the 2024 reference is not asked the names only the current one has.
 */
export function listedIn(name: string, form: QueryForm): boolean {
  return BY_NAME.get(name)?.references.includes(form) ?? true;
}

/**
 * Whether a cluster of `plan` (as Describe Cluster names it, any case; undefined while unknown)
 * offers `name`. Unknown plans and names outside the catalog are asked: the table only saves
 * calls the service is documented to answer with nothing.
 */
export function offeredOnPlan(name: string, plan: string | undefined): boolean {
  const known = BY_NAME.get(name);
  if (known === undefined || plan === undefined) return true;
  const p = plan.trim().toLowerCase();
  return !(PLANS as readonly string[]).includes(p) || known.plans.has(p as Plan);
}

/** 2024-form latency name by its spelling (REQ_SEARCH_LATENCY): the only kind taking P99. */
export function isLatencyName(name: string): boolean {
  return name.endsWith("_LATENCY");
}

/** A current-form name with its statistic built in (…_AVG, …_P99): never takes a `stat`. */
export function hasStatInName(name: string): boolean {
  return name.endsWith("_AVG") || name.endsWith("_P99");
}

/**
 * The default query list: the current reference's enum in the current form, name only
 * (docs/design.md section 7). A key whose server refuses that form gets the same questions in
 * the 2024 form (collectors/cluster-metrics/forms.ts).
 */
export const DEFAULT_QUERIES: readonly QueryLike[] = Object.freeze(
  CURRENT_METRIC_NAMES.map((name) => Object.freeze({ name })),
);

/**
 * What a configured query asks: itself when it names a `stat` (2024 form) or is a current-form
 * name; a name only the 2024 form has (REQ_SUCCESS_RATE, REQ_SEARCH_LATENCY) with its
 * statistics (AVG; AVG and P99 for latency); an unknown …_LATENCY name with AVG and P99, any
 * other unknown name as written. The form it is sent in is the key's (`inForm`).
 */
export function expandQuery(query: QueryLike): QueryLike[] {
  if (query.stat !== undefined) return [query];
  const known = BY_NAME.get(query.name);
  const stats = known !== undefined ? (known.currentForm ? [] : known.stats) : impliedStats(query.name);
  return stats.length === 0 ? [query] : stats.map((stat) => ({ name: query.name, stat }));
}

function impliedStats(name: string): readonly Stat[] {
  return isLatencyName(name) ? LATENCY_STATS : [];
}

/**
 * The same question in the other request form, or undefined when there is none:
 * REQ_T_LATENCY + stat <-> REQ_T_LATENCY_STAT, NAME + AVG <-> NAME. For catalog names the
 * other form must be one the catalog lists (REQ_SUCCESS_RATE and bulk-insert latency have no
 * current form); unknown names follow the spelling rule alone.
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
  const accepted = other.stat === undefined ? target.currentForm : target.stats.includes(other.stat);
  return accepted ? other : undefined;
}

/** The current-form query that asks what `query` asks, or undefined if there is none. */
export function toCurrentForm(query: QueryLike): QueryLike | undefined {
  return query.stat === undefined ? query : otherForm(query);
}

/**
 * `query` as a key that speaks `form` sends it: itself when it is in that form already or has
 * no equivalent in it (a name only the other reference has is asked as written), else its
 * other form.
 */
export function inForm(query: QueryLike, form: QueryForm): QueryLike {
  if (formOfQuery(query) === form) return query;
  return otherForm(query) ?? query;
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
