/**
 * The metric names the simulator knows, per request form, with their units (docs/design.md
 * section 7). Query Cluster Metrics validates every item against these tables.
 */

export type RequestType = "INSERT" | "BULK_INSERT" | "UPSERT" | "DELETE" | "SEARCH" | "QUERY";
/** Statistic of a metric query (first form) or of a suffixed second-form name. */
export type Stat = "AVG" | "P99";

/** How a metric's values are generated (see metric-values.ts). */
export type MetricKind =
  | "cu_computation"
  | "cu_capacity"
  | "write_capacity"
  | "storage"
  | "read_vcu"
  | "write_vcu"
  | "req_count"
  | "vector_req_count"
  | "latency"
  | "fail_rate"
  | "fail_rate_all"
  | "success_rate"
  | "slow_query"
  | "flush"
  | "entities"
  | "entities_loaded"
  | "entities_indexed"
  | "insert_rate"
  | "collections"
  | "unloaded_collections";

/** One known metric name: how its values are made and which rules apply to it. */
export interface MetricDef {
  readonly name: string;
  readonly kind: MetricKind;
  readonly unit: string;
  readonly requestType?: RequestType;
  /** Second-form latency names carry their statistic in the name (…_AVG, …_P99). */
  readonly fixedStat?: Stat;
  /** First form: P99 is accepted only for latency metrics. */
  readonly latency: boolean;
  /** Cluster-wide metrics have no data at a database/collection scope (all buckets null). */
  readonly clusterOnly: boolean;
  /** Bulk-insert metrics are all-null on clusters that never bulk insert. */
  readonly bulkInsert: boolean;
  /** A small, stable number identifying the metric in value hashing. */
  readonly hash: number;
}

const ALL_TYPES: readonly RequestType[] = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"];
const VECTOR_TYPES: readonly RequestType[] = ["INSERT", "BULK_INSERT", "UPSERT", "DELETE", "SEARCH"];
const LATENCY_SECOND_FORM: readonly RequestType[] = ["INSERT", "UPSERT", "DELETE", "SEARCH", "QUERY"];

const UNIT_BY_KIND: Record<MetricKind, string> = {
  cu_computation: "percent",
  cu_capacity: "percent",
  write_capacity: "percent",
  storage: "GB",
  read_vcu: "count",
  write_vcu: "count",
  req_count: "count/min",
  vector_req_count: "count/min",
  latency: "ms",
  fail_rate: "percent",
  fail_rate_all: "percent",
  success_rate: "percent",
  slow_query: "count/min",
  flush: "count/min",
  entities: "count",
  entities_loaded: "count",
  entities_indexed: "count",
  insert_rate: "count/s",
  collections: "count",
  unloaded_collections: "count",
};

const CLUSTER_ONLY_KINDS = new Set<MetricKind>([
  "cu_computation",
  "cu_capacity",
  "write_capacity",
  "read_vcu",
  "write_vcu",
  "collections",
  "unloaded_collections",
]);

let nextHash = 1;
function def(
  name: string,
  kind: MetricKind,
  extra: { requestType?: RequestType; fixedStat?: Stat } = {},
): MetricDef {
  return {
    name,
    kind,
    unit: UNIT_BY_KIND[kind],
    ...(extra.requestType === undefined ? {} : { requestType: extra.requestType }),
    ...(extra.fixedStat === undefined ? {} : { fixedStat: extra.fixedStat }),
    latency: kind === "latency",
    clusterOnly: CLUSTER_ONLY_KINDS.has(kind),
    bulkInsert: extra.requestType === "BULK_INSERT",
    hash: nextHash++,
  };
}

function secondForm(): MetricDef[] {
  const out: MetricDef[] = [
    def("CU_COMPUTATION", "cu_computation"),
    def("CU_CAPACITY", "cu_capacity"),
    def("STORAGE_USE", "storage"),
    def("READ_VCU", "read_vcu"),
    def("WRITE_VCU", "write_vcu"),
  ];
  for (const t of ALL_TYPES) out.push(def(`REQ_${t}_COUNT`, "req_count", { requestType: t }));
  for (const t of VECTOR_TYPES)
    out.push(def(`VECTOR_REQ_${t}_COUNT`, "vector_req_count", { requestType: t }));
  for (const t of LATENCY_SECOND_FORM) {
    for (const s of ["AVG", "P99"] as const) {
      out.push(def(`REQ_${t}_LATENCY_${s}`, "latency", { requestType: t, fixedStat: s }));
    }
  }
  out.push(def("SLOW_QUERY_COUNT", "slow_query"));
  for (const t of ALL_TYPES) out.push(def(`REQ_FAIL_RATE_${t}`, "fail_rate", { requestType: t }));
  out.push(
    def("ENTITIES_LOADED", "entities_loaded"),
    def("ENTITIES_INDEXED", "entities_indexed"),
    def("ENTITIES_COUNT", "entities"),
    def("COLLECTIONS_COUNT", "collections"),
    def("CLUSTER_WRITE_CAPACITY", "write_capacity"),
    def("UNLOADED_COLLECTIONS_COUNT", "unloaded_collections"),
    def("FLUSH_COUNT", "flush"),
  );
  return out;
}

const SECOND = secondForm();
const FIRST_ONLY: MetricDef[] = [
  ...ALL_TYPES.map((t) => def(`REQ_${t}_LATENCY`, "latency", { requestType: t })),
  def("REQ_SUCCESS_RATE", "success_rate"),
  def("REQ_FAIL_RATE", "fail_rate_all"),
  def("ENTITIES_INSERT_RATE", "insert_rate"),
];

const SECOND_BY_NAME = new Map(SECOND.map((d) => [d.name, d]));
// The first form takes every second-form name that does not carry its statistic, plus its own.
const FIRST_BY_NAME = new Map(
  [...SECOND.filter((d) => d.fixedStat === undefined), ...FIRST_ONLY].map((d) => [d.name, d]),
);

/** Names accepted without `stat` (the second, current form). */
export const SECOND_FORM_NAMES: readonly string[] = SECOND.map((d) => d.name);
/** Names accepted with `stat` (the first form). */
export const FIRST_FORM_NAMES: readonly string[] = [...FIRST_BY_NAME.keys()];

/**
 * The metric enum of the service's public API reference of 2024 (Query Cluster Metrics v2, the
 * 2024 form: a name and a `stat`), written out here rather than taken from the exporter's
 * catalog so that the two are checked against each other. The 2024 catalog accepts only these,
 * with `stat`.
 */
const REFERENCE_2024_NAMES: ReadonlySet<string> = new Set([
  "CU_COMPUTATION",
  "CU_CAPACITY",
  "STORAGE_USE",
  ...ALL_TYPES.map((t) => `REQ_${t}_COUNT`),
  "VECTOR_REQ_INSERT_COUNT",
  "VECTOR_REQ_UPSERT_COUNT",
  "VECTOR_REQ_SEARCH_COUNT",
  ...ALL_TYPES.map((t) => `REQ_${t}_LATENCY`),
  "REQ_SUCCESS_RATE",
  "REQ_FAIL_RATE",
  ...ALL_TYPES.map((t) => `REQ_FAIL_RATE_${t}`),
  "ENTITIES_LOADED",
  "ENTITIES_INSERT_RATE",
  "COLLECTIONS_COUNT",
  "ENTITIES_COUNT",
]);

/**
 * Which metric names a server accepts:
 * - "current": the reference as it reads today, name only (the 40 names accepted without
 *   `stat`); one unknown name refuses the whole request, and a stray `stat` is ignored (or
 *   refused, with `metricStat: "refused"`); names the cluster's plan does not offer answer
 *   all-null. The default.
 * - "2024": the reference of 2024 only, `stat` required (what "strict" meant before).
 * - "permissive": every name the exporter knows, in either request form.
 */
export type MetricCatalogMode = "current" | "2024" | "permissive";
export const METRIC_CATALOG_MODES: readonly MetricCatalogMode[] = ["current", "2024", "permissive"];

/** What a current-reference server does with a `stat` it no longer documents. */
export type MetricStatPolicy = "ignored" | "refused";
export const METRIC_STAT_POLICIES: readonly MetricStatPolicy[] = ["ignored", "refused"];

/**
 * The 2024 catalog: a name of the 2024 reference's enum, with a `stat` (P99 for latency only),
 * at cluster level and per collection alike; anything else is refused with the message a
 * server of that reference gives.
 */
export function resolve2024MetricQuery(name: string, stat: string | undefined): ResolvedQuery | string {
  if (!REFERENCE_2024_NAMES.has(name)) return `invalid metric name: ${name}`;
  if (stat === undefined) return `stat is required for metric ${name}`;
  return resolveMetricQuery(name, stat);
}

/**
 * The current catalog: a name the current reference lists, name only; a `stat` is ignored, or
 * refused under `refused`.
 */
export function resolveCurrentMetricQuery(
  name: string,
  stat: string | undefined,
  policy: MetricStatPolicy,
): ResolvedQuery | string {
  const d = SECOND_BY_NAME.get(name);
  if (d === undefined) return `invalid metric name: ${name}`;
  if (stat !== undefined && policy === "refused")
    return `invalid field stat in metric query ${name}: a MetricQuery has a name only`;
  return { def: d, stat: d.fixedStat ?? "AVG", firstForm: false };
}

/**
 * The plans whose clusters have a metric, where narrower than "every plan but Free" (the
 * service's Metrics & Alerts Reference); written out apart from the exporter's table.
 */
const PLAN_ONLY: ReadonlyMap<MetricKind, readonly string[]> = new Map<MetricKind, readonly string[]>([
  ["cu_capacity", ["Free", "Serverless", "Standard", "Enterprise"]],
  ["read_vcu", ["Free", "Serverless"]],
  ["write_vcu", ["Free", "Serverless"]],
  ["cu_computation", ["Standard", "Enterprise"]],
  ["entities_loaded", ["Standard", "Enterprise"]],
  ["slow_query", ["Enterprise"]],
  ["write_capacity", ["Enterprise"]],
  ["flush", ["Enterprise"]],
  ["unloaded_collections", ["Enterprise"]],
]);

/** Whether a cluster of `plan` has data for metric `def` (a current-reference server). */
export function planOffers(def: MetricDef, plan: string): boolean {
  const plans = PLAN_ONLY.get(def.kind);
  return plans === undefined ? plan !== "Free" : plans.includes(plan);
}

/** A validated query item: the definition and the statistic that applies. */
export interface ResolvedQuery {
  readonly def: MetricDef;
  /** The statistic of the values: the requested one (first form) or the name's own. */
  readonly stat: Stat;
  /** True when the request used the first form (the result then echoes `stat`). */
  readonly firstForm: boolean;
}

/**
 * Validates one metric query item. Returns the resolved query, or a message explaining why
 * the item is not accepted (unknown name, missing or misplaced statistic).
 */
export function resolveMetricQuery(name: string, stat: string | undefined): ResolvedQuery | string {
  if (stat === undefined) {
    const d = SECOND_BY_NAME.get(name);
    if (d) return { def: d, stat: d.fixedStat ?? "AVG", firstForm: false };
    if (FIRST_BY_NAME.has(name)) return `metric ${name} requires stat (AVG or P99)`;
    return `unknown metric name: ${name}`;
  }
  if (stat !== "AVG" && stat !== "P99") return `invalid stat ${stat} for ${name}: expected AVG or P99`;
  const d = FIRST_BY_NAME.get(name);
  if (!d) {
    if (SECOND_BY_NAME.has(name)) return `metric ${name} does not take a stat`;
    return `unknown metric name: ${name}`;
  }
  if (stat === "P99" && !d.latency) return `stat P99 is only supported for latency metrics, not ${name}`;
  return { def: d, stat, firstForm: true };
}
