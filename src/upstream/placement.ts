/**
 * Where a Query Cluster Metrics result lands: the catalog's entry for a known name, or, for a
 * name with a request type the catalog does not list, the entry of its listed siblings. A leaf
 * beside the catalog (upstream/catalog.ts), which the family lookup (metrics/familyLookup.ts) reads.
 */
import { type CatalogUnitKind, type FamilyKey, type Stat, upstreamMetric } from "./catalog.js";

const lower = (t: string): string => t.toLowerCase();

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
 * A 2024-form latency result without a statistic has no series: defaulting to AVG would
 * label a P99 as an average.
 */
export function placeMetric(name: string, stat: Stat | undefined): Placement | undefined {
  const known = upstreamMetric(name);
  if (known !== undefined && !isLatency2024Form(known)) {
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

function isLatency2024Form(e: { readonly stats: readonly Stat[] }): boolean {
  return e.stats.includes("P99");
}
