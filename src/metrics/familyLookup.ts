/**
 * The family lookup: which Prometheus family, labels and unit kind an upstream Query Cluster
 * Metrics result maps to (docs/design.md section 5). Which upstream names exist, and where each
 * lands, is the upstream catalog's (upstream/catalog.ts); this module turns its family keys into
 * families and names the rest.
 */
import type { Stat as CatalogStat, CatalogUnitKind, FamilyKey } from "../upstream/catalog.js";
import { placeMetric } from "../upstream/placement.js";
import { isFixedFamily } from "./define.js";
import { CLUSTER_FAMILIES as C } from "./families.js";
import type { FamilyDef } from "./sample.js";
import { parseUnit, type UnitKind } from "./units.js";

/** Statistic of a first-form metric query. */
export type Stat = CatalogStat;

/** Where one upstream metric lands: its family, the family's extra labels (in order), its unit kind. */
interface FamilyEntry {
  readonly family: FamilyDef;
  readonly labels: Readonly<Record<string, string>>;
  readonly kind: UnitKind;
}

/** Result of a family lookup: an entry, or why the metric cannot be exposed. */
type FamilyLookup =
  | { readonly ok: true; readonly entry: FamilyEntry }
  | { readonly ok: false; readonly reason: "unknown_unit" | "unknown_metric_name" | "unknown_stat" };

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

function entry(family: FamilyDef, kind: UnitKind, labels = NO_LABELS): FamilyEntry {
  return { family, kind, labels };
}

// The unit kinds of the upstream catalog are this module's own: a change to either fails here.
const KINDS_AGREE: CatalogUnitKind extends UnitKind
  ? UnitKind extends CatalogUnitKind
    ? true
    : never
  : never = true;
void KINDS_AGREE;

/** The family of a catalog key: every key of the upstream catalog is a cluster family. */
const FAMILY: Readonly<Record<FamilyKey, FamilyDef>> = C;

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
 * The family name of an upstream metric the catalog does not know (see `derivedEntry`), or
 * undefined when none can be made: an empty name, or one equal to a fixed family, which would
 * mix two meanings in one family.
 */
function derivedName(name: string, stat: Stat | undefined, kind: UnitKind): string | undefined {
  let base = snake(name);
  for (let prev = ""; prev !== base; ) {
    prev = base;
    base = base.replace(/(^|_)(total|count)$/, "");
  }
  if (base === "") return undefined;
  if (stat === "P99") base += "_p99";
  if (!base.endsWith(SUFFIX[kind])) base += SUFFIX[kind];
  const familyName = `vdbcloud_${base}`;
  return isFixedFamily(familyName) ? undefined : familyName;
}

/**
 * Family of an upstream metric the catalog does not know: vdbcloud_<snake name> + the suffix of
 * the unit's kind. A trailing _total or _count is dropped: _total is reserved for counters and
 * _count for histograms and summaries, and these are gauges (the known ENTITIES_COUNT ->
 * vdbcloud_entities follows the same rule). P99 adds _p99 so it never collides with the AVG
 * series; AVG is the only statistic of non-latency metrics, so it adds nothing.
 */
function derivedEntry(name: string, stat: Stat | undefined, unit: string): FamilyLookup {
  const unitScale = parseUnit(unit);
  if (unitScale === undefined) return { ok: false, reason: "unknown_unit" };
  const kind = unitScale.kind;
  const familyName = derivedName(name, stat, kind);
  if (familyName === undefined) return { ok: false, reason: "unknown_metric_name" };
  const statNote = stat === "P99" ? " stat P99" : "";
  const help =
    `Upstream metric ${name}${statNote} over the newest closed bucket (metrics.granularity), ` +
    `${KIND_HELP[kind]} (not in the catalog; named from its unit).`;
  return { ok: true, entry: entry({ name: familyName, help, type: "gauge" }, kind) };
}

function resolve(name: string, stat: Stat | undefined, unit: string): FamilyLookup {
  const placed = placeMetric(name, stat);
  if (placed === undefined) return derivedEntry(name, stat, unit);
  if (!placed.ok) return placed;
  return { ok: true, entry: entry(FAMILY[placed.family], placed.kind, placed.labels) };
}

// Names and units come from upstream responses: bound the memo so that a misbehaving upstream
// cannot grow it without limit. Clearing is enough; a full cache is never the normal case.
const MEMO_LIMIT = 4096;
const memo = new Map<string, FamilyLookup>();

/**
 * Looks up where an upstream metric lands. `name` is matched case-insensitively; `stat` is the
 * first-form statistic of the result; `unit` only matters for names missing from the catalog,
 * whose family is named after the unit's kind. Memoized; the returned objects are shared and
 * must not be mutated. Never throws.
 */
export function lookupFamily(name: string, stat?: Stat, unit = ""): FamilyLookup {
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
export function familyFor(name: string, stat?: Stat, unit = ""): FamilyEntry | undefined {
  const found = lookupFamily(name, stat, unit);
  return found.ok ? found.entry : undefined;
}

const UNIT_KINDS = Object.keys(SUFFIX) as UnitKind[];

/**
 * Every family answers to `names` (configured metric names) can land in: each cluster family,
 * since an answer names its own metrics and the catalog places them, plus, for each name outside
 * the catalog (sent only with metrics.allow_unknown_names), the family it would be given for
 * each unit kind and statistic an answer may carry. A finite list, so that the family lists can
 * tell whether every family of the cluster metrics is denied.
 */
export function metricQueryFamilies(names: Iterable<string>): string[] {
  const out = new Set(Object.values(C).map((f) => f.name));
  for (const raw of names) {
    const name = raw.trim().toUpperCase();
    if (placeMetric(name, undefined) !== undefined) continue;
    for (const kind of UNIT_KINDS) {
      for (const stat of [undefined, "P99"] as const) {
        const derived = derivedName(name, stat, kind);
        if (derived !== undefined) out.add(derived);
      }
    }
  }
  return [...out];
}
