/**
 * The service's own Prometheus endpoint in the exporter's terms (docs/design.md section 7): for
 * each family the exporter derives from Query Cluster Metrics, the recording rules that derive
 * the same value from the native series (`zilliz_*`), and the one way a query reads "the
 * exporter's family, or its native recording". The dashboards (grafana/boards/index.ts) and the
 * rules renderer (scripts/rules.ts) both import it: config/prometheus/rules/native.yml is
 * rendered from {@link NATIVE_SOURCES}, and every dashboard query, alert and recording rule over
 * cluster metrics goes through {@link withNativeSources}, so a polled cluster and a natively
 * scraped one look the same. No I/O; the exporter's process does not use it, so it lives with the
 * generators, not in src/.
 *
 * The recorded series carry the exporter family's own labels and nothing else (`by`, not
 * `without`: the native series also carry org_id, project_id, the discovery's cluster_name and
 * region_id, job and instance), so `or on (<the family's labels but db_name>)` matches them
 * label for label: where both sources have a series, the exporter's wins. db_name is left out
 * of every join ({@link JOIN_WITHOUT}).
 */
import { CLUSTER_FAMILIES } from "../src/metrics/clusterFamilies.js";
import type { FamilyDef } from "../src/metrics/sample.js";
import { TARGET_SELF_FAMILIES } from "../src/metrics/selfFamilies.js";

/**
 * The range of every rate(): four samples at the native endpoint's 60 s minimum scrape interval,
 * so one failed scrape still leaves a rate (Prometheus' rule of thumb: at least 4 intervals).
 */
export const NATIVE_RATE_WINDOW = "5m";

/**
 * The levels of the recorded names (level:metric:operations), each a rule group of native.yml:
 * per cluster, and per collection (the costly one: up to 10,000 collections a cluster).
 */
export const NATIVE_LEVELS = {
  cluster: "vdbcloud_cluster",
  collection: "vdbcloud_collection",
} as const;

/** One recording rule of native.yml. */
export interface NativeRule {
  /** level:metric:operations; the level is one of {@link NATIVE_LEVELS}. */
  readonly record: string;
  readonly expr: string;
  /** Fixed labels the rule adds (`stat`, `request_type="all"`). */
  readonly labels?: Readonly<Record<string, string>>;
}

/** An exporter family and the recording rules that give its value for a natively scraped cluster. */
export interface NativeSource {
  /** The exporter's family: its name and its labels (`doc.labels`), which the `or` matches on. */
  readonly family: FamilyDef;
  /** The native series it is derived from, and how, for the docs and native.yml's comments. */
  readonly from: string;
  readonly rules: readonly NativeRule[];
}

/** A query that cannot read either source as written. */
export class NativeSourceError extends Error {
  readonly code = "native_source";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NativeSourceError";
  }
}

const W = NATIVE_RATE_WINDOW;
const OWN = 'collection_name=""';
const COLLECTIONS = 'collection_name!=""';
const PER_COLLECTION = ["cluster_id", "db_name", "collection_name"] as const;

const REQUESTS = "zilliz_requests_total";
const VECTORS = "zilliz_request_vectors_total";
const DURATION = "zilliz_request_duration_seconds";

/** A PromQL expression over the native series of one scope, given as a label matcher. */
type Scoped = (scope: string) => string;

function selector(series: string, matchers: readonly string[]): string {
  return `${series}{${matchers.join(", ")}}`;
}

function rate(series: string, ...matchers: string[]): Scoped {
  return (scope) => `rate(${selector(series, [scope, ...matchers])}[${W}])`;
}

function gauge(series: string): Scoped {
  return (scope) => selector(series, [scope]);
}

/**
 * Per cluster: the cluster's own series (no collection_name) where it has them, else the sum of
 * its collections' series. The reference's table shows requests per cluster, the product's
 * contract per collection too (docs/design.md section 7): summing both would count twice.
 */
function perCluster(labels: readonly string[], inner: Scoped): string {
  const by = ["cluster_id", ...labels].join(", ");
  return `sum by (${by}) (${inner(OWN)}) or sum by (${by}) (${inner(COLLECTIONS)})`;
}

/**
 * Per collection: db_name and collection_name as the native series carry them. The reference
 * names no database on its per-collection series, so theirs have collection_name only.
 */
function perCollection(labels: readonly string[], inner: Scoped, aggregation = "sum"): string {
  return `${aggregation} by (${[...PER_COLLECTION, ...labels].join(", ")}) (${inner(COLLECTIONS)})`;
}

/**
 * Both levels, for the values the dashboards show per collection too (requests, P99 latency,
 * entities): the per-collection rules are the costly ones, and nothing else asks for them.
 */
const BOTH = [
  { level: NATIVE_LEVELS.cluster, of: perCluster },
  {
    level: NATIVE_LEVELS.collection,
    of: (labels: readonly string[], inner: Scoped) => perCollection(labels, inner),
  },
] as const;

/** Requests of one status, 0 (not absent) for a request type none of whose requests had it yet. */
function requestsWith(status: string): Scoped {
  return (scope) =>
    `${rate(REQUESTS, `status="${status}"`)(scope)} or 0 * ${rate(REQUESTS, `status!="${status}"`)(scope)}`;
}

/** The share of requests with a status, per cluster. */
function ratio(labels: readonly string[], part: Scoped): string {
  return `(${perCluster(labels, part)}) / (${perCluster(labels, rate(REQUESTS))})`;
}

const QUANTILES = [
  [0.5, "p50"],
  [0.9, "p90"],
  [0.99, "p99"],
] as const;

/** A value of the whole cluster only: one recording, `metricAndOperations` after the level. */
function clusterOnly(
  family: FamilyDef,
  from: string,
  metricAndOperations: string,
  expr: string,
): NativeSource {
  return { family, from, rules: [{ record: `${NATIVE_LEVELS.cluster}:${metricAndOperations}`, expr }] };
}

/** Gauges of the whole cluster: the one series, without the labels the exporter's series lack. */
function clusterGauge(family: FamilyDef, series: string, note: string): NativeSource {
  return clusterOnly(family, `${series}, ${note}`, `${series}:max`, `max by (cluster_id) (${series})`);
}

/** Entity counts: per collection as served, per cluster the cluster's own series or the collections' sum. */
function entityGauge(family: FamilyDef, series: string): NativeSource {
  return {
    family,
    from: `${series}: per collection as served; per cluster the cluster's own series, else the sum over its collections`,
    rules: [
      { record: `${NATIVE_LEVELS.cluster}:${series}:sum`, expr: perCluster([], gauge(series)) },
      { record: `${NATIVE_LEVELS.collection}:${series}:max`, expr: perCollection([], gauge(series), "max") },
    ],
  };
}

const F = CLUSTER_FAMILIES;

/** Every exporter family a natively scraped cluster can show, and how. */
export const NATIVE_SOURCES: readonly NativeSource[] = [
  clusterGauge(F.cuComputation, "zilliz_cluster_computation", "a ratio 0..1 as the reference's sample shows"),
  clusterGauge(F.cuCapacity, "zilliz_cluster_capacity", "a ratio 0..1 as the reference's sample shows"),
  clusterOnly(
    TARGET_SELF_FAMILIES.newestBucket,
    "the time of the newest zilliz_cluster_capacity sample (every plan has CU capacity): how old the native data is",
    "zilliz_cluster_capacity:timestamp",
    "max by (cluster_id) (timestamp(zilliz_cluster_capacity))",
  ),
  clusterGauge(F.writeCapacity, "zilliz_cluster_write_capacity", "a ratio 0..1 like the other two"),
  clusterOnly(
    F.storage,
    "zilliz_storage_bytes (the reference's table) or zilliz_cluster_storage_bytes (its sample)",
    "zilliz_storage_bytes:max",
    "max by (cluster_id) (zilliz_storage_bytes) or max by (cluster_id) (zilliz_cluster_storage_bytes)",
  ),
  {
    family: F.requests,
    from: `rate() of ${REQUESTS}, every status, per request_type (flush included)`,
    rules: BOTH.map(({ level, of }) => ({
      record: `${level}:zilliz_requests:rate${W}`,
      expr: of(["request_type"], rate(REQUESTS)),
    })),
  },
  clusterOnly(
    F.vectorRequests,
    `rate() of ${VECTORS} per request_type`,
    `zilliz_request_vectors:rate${W}`,
    perCluster(["request_type"], rate(VECTORS)),
  ),
  {
    family: F.failure,
    from: `rate() of ${REQUESTS}{status="fail"} over every status, per request_type and over all (request_type="all")`,
    rules: [
      {
        record: `${NATIVE_LEVELS.cluster}:zilliz_request_failures_per_requests:ratio_rate${W}`,
        expr: ratio(["request_type"], requestsWith("fail")),
      },
      {
        record: `${NATIVE_LEVELS.cluster}:zilliz_request_failures_per_requests:ratio_rate${W}`,
        expr: ratio([], requestsWith("fail")),
        labels: { request_type: "all" },
      },
    ],
  },
  clusterOnly(
    F.success,
    `rate() of ${REQUESTS}{status="success"} over every status`,
    `zilliz_request_successes_per_requests:ratio_rate${W}`,
    ratio([], requestsWith("success")),
  ),
  {
    family: F.latency,
    from: `histogram_quantile over ${DURATION}_bucket (stat p50, p90, p99; per collection p99); stat avg from _sum / _count, only where the service serves them (its sample shows none)`,
    rules: [
      ...BOTH.flatMap(({ level, of }) =>
        QUANTILES.filter(([, stat]) => level === NATIVE_LEVELS.cluster || stat === "p99").map(
          ([q, stat]) => ({
            record: `${level}:${DURATION}:quantile_rate${W}`,
            expr: `histogram_quantile(${q}, ${of(["request_type", "le"], rate(`${DURATION}_bucket`))})`,
            labels: { stat },
          }),
        ),
      ),
      {
        record: `${NATIVE_LEVELS.cluster}:${DURATION}:mean${W}`,
        expr: `(${perCluster(["request_type"], rate(`${DURATION}_sum`))}) / (${perCluster(["request_type"], rate(`${DURATION}_count`))})`,
        labels: { stat: "avg" },
      },
    ],
  },
  clusterOnly(
    F.slowQueries,
    "rate() of zilliz_slow_queries_total",
    `zilliz_slow_queries:rate${W}`,
    perCluster([], rate("zilliz_slow_queries_total")),
  ),
  clusterOnly(
    F.flushes,
    `rate() of ${REQUESTS}{request_type="flush"}, every status`,
    `zilliz_flushes:rate${W}`,
    perCluster([], rate(REQUESTS, 'request_type="flush"')),
  ),
  entityGauge(F.entities, "zilliz_entities"),
  entityGauge(F.loadedEntities, "zilliz_loaded_entities"),
  entityGauge(F.indexedEntities, "zilliz_indexed_entities"),
  clusterGauge(F.collections, "zilliz_collections", "the cluster's collections"),
  clusterGauge(F.unloadedCollections, "zilliz_unloaded_collections", "the cluster's collections not loaded"),
];

/** The distinct recorded names of a source, in table order. */
export function recordsOf(source: NativeSource): string[] {
  return [...new Set(source.rules.map((r) => r.record))];
}

/**
 * Labels no `or` matches on. The native endpoint names no database on any family (its
 * per-collection series carry collection_name only), while the exporter's scoped series carry
 * the configured db_name: joined on db_name, a collection both polled and scraped would show
 * twice, once from each source. A collection is then one series per cluster and name, the
 * exporter's wherever it has one.
 */
export const JOIN_WITHOUT: readonly string[] = ["db_name"];

/** The labels a family's `or` matches on: its series' labels but {@link JOIN_WITHOUT}. */
export function joinLabelsOf(family: FamilyDef): readonly string[] {
  return (family.doc?.labels ?? ["cluster_id"]).filter((l) => !JOIN_WITHOUT.includes(l));
}

const MATCHER = /([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g;

/**
 * Whether a recorded name can have a series the selector selects, from what the rules fix:
 * collection_name (empty per cluster, set per collection) and the labels they add (`stat`).
 * Unknown label values, and regexes with Grafana variables, may always match.
 */
function mayMatch(source: NativeSource, record: string, selector: string): boolean {
  const perCollection = record.startsWith(`${NATIVE_LEVELS.collection}:`);
  const fixed = new Map<string, Set<string>>();
  for (const rule of source.rules.filter((r) => r.record === record)) {
    for (const [label, value] of Object.entries(rule.labels ?? {})) {
      fixed.set(label, (fixed.get(label) ?? new Set()).add(value));
    }
  }
  for (const [, label = "", op = "=", value = ""] of selector.matchAll(MATCHER)) {
    if (label === "collection_name" && perCollection) {
      // Some collection's name: never empty, otherwise unknown.
      if (op === "=" && value === "") return false;
      continue;
    }
    const values = label === "collection_name" ? new Set([""]) : fixed.get(label);
    // A label the rules do not fix, or a regex with a Grafana variable: it may match.
    if (values === undefined || (op.endsWith("~") && value.includes("$"))) continue;
    const positive = op === "=" || op === "=~";
    const equal = (v: string) => (op.endsWith("~") ? new RegExp(`^(?:${value})$`).test(v) : v === value);
    if (![...values].some((v) => equal(v) === positive)) return false;
  }
  return true;
}

/**
 * `family{selector}` as "the exporter's family, or its native recording": the recorded names of
 * the source that the selector can select, with the same selector, the exporter's series winning
 * where both exist. `selector` is "" or the braces as written (`{cluster_id=~"$cluster"}`).
 */
export function eitherSource(source: NativeSource, selector = ""): string {
  const records = recordsOf(source)
    .filter((r) => mayMatch(source, r, selector))
    .map((r) => `${r}${selector}`);
  if (records.length === 0) return `${source.family.name}${selector}`;
  const native = records.length === 1 ? records[0] : `(${records.join(" or ")})`;
  return `(${source.family.name}${selector} or on (${joinLabelsOf(source.family).join(", ")}) ${native})`;
}

const NAME_CHAR = "[A-Za-z0-9_:]";
const SELECTOR = "(\\{[^{}]*\\})?";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * An expansion by {@link eitherSource}, of this table or an older one (any recorded names of
 * the native levels), so rendering an already rendered expression gives the same text.
 */
function expansionOf(family: string): RegExp {
  const record = `(?:${Object.values(NATIVE_LEVELS).join("|")}):${NAME_CHAR}+\\1`;
  return new RegExp(
    `\\(${escapeRegExp(family)}${SELECTOR} or on \\([^()]*\\) (?:${record}|\\(${record}(?: or ${record})*\\))\\)`,
    "g",
  );
}

function selectorOf(family: string): RegExp {
  return new RegExp(`(?<!${NAME_CHAR})${escapeRegExp(family)}(?!${NAME_CHAR})${SELECTOR}`, "g");
}

/**
 * `expr` with every instant selector of a family in {@link NATIVE_SOURCES} replaced by
 * {@link eitherSource}. Idempotent. A range selector, `offset` or `@` of such a family cannot be
 * wrapped (PromQL has no range of an `or`): {@link NativeSourceError}.
 */
export function withNativeSources(expr: string): string {
  let out = expr;
  for (const source of NATIVE_SOURCES) {
    const name = source.family.name;
    out = out.replace(expansionOf(name), (_whole, braces?: string) => `${name}${braces ?? ""}`);
    out = out.replace(
      selectorOf(name),
      (whole: string, braces: string | undefined, at: number, text: string) => {
        if (/^\s*(?:\[|offset\b|@)/.test(text.slice(at + whole.length))) {
          throw new NativeSourceError(
            `${expr}: ${name} is read as a range or with offset/@; aggregate it in a recording rule first`,
          );
        }
        return eitherSource(source, braces ?? "");
      },
    );
  }
  return out;
}

/** The rule groups of native.yml, in order: per cluster, then per collection. */
export function nativeRuleGroups(): Array<{ name: string; rules: NativeRule[] }> {
  const rules = NATIVE_SOURCES.flatMap((s) => s.rules);
  return [
    { name: "vdbcloud-native", rules: rules.filter((r) => r.record.startsWith(`${NATIVE_LEVELS.cluster}:`)) },
    {
      name: "vdbcloud-native-collections",
      rules: rules.filter((r) => r.record.startsWith(`${NATIVE_LEVELS.collection}:`)),
    },
  ];
}
