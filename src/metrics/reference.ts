/**
 * The families as a reference: the areas it is handed (the registry's: the cluster metrics, each
 * collector's areas, the exporter's own), each with the upstream names the metric catalog maps
 * onto each cluster family. docs/metrics.md is rendered from it (scripts/metricsDoc.ts), so a
 * family a collector declares lands in the reference without anyone listing it by hand.
 */
import { UPSTREAM_METRICS } from "../upstream/catalog.js";
import { CLUSTER_FAMILIES } from "./families.js";
import type { FamilyDoc, MetricType } from "./sample.js";

/** One family as the reference shows it. */
export interface ReferenceFamily {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  /** Undefined only for a family declared without its entry (families.test.ts fails on it). */
  readonly doc: FamilyDoc | undefined;
  /** Query Cluster Metrics names mapped onto it (cluster families only); `*` marks names only the 2024 reference lists (the 2024 form). */
  readonly upstreamNames: readonly string[];
}

/** One area of the reference: its title and its families in declaration order. */
export interface ReferenceArea {
  readonly title: string;
  readonly families: readonly ReferenceFamily[];
}

/** An area as it is declared: a title and an object of families (gauges, counters, histograms). */
export interface DeclaredArea {
  readonly title: string;
  readonly families: object;
}

interface Declared {
  readonly name: string;
  readonly help: string;
  readonly type?: MetricType;
  readonly doc?: FamilyDoc;
}

function isDeclared(value: unknown): value is Declared {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.name === "string" && typeof v.help === "string";
}

/** The upstream names of each cluster family, by family name, in the catalog's order. */
function upstreamNamesByFamily(): ReadonlyMap<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of UPSTREAM_METRICS) {
    const family = CLUSTER_FAMILIES[m.family].name;
    const list = out.get(family) ?? [];
    list.push(m.references.includes("current") ? m.name : `${m.name}*`);
    out.set(family, list);
  }
  return out;
}

/**
 * The reference of `areas`, in their order; within an area in declaration order. Pure: the same
 * areas and catalog give the same reference.
 */
export function familyReference(areas: readonly DeclaredArea[]): ReferenceArea[] {
  const upstream = upstreamNamesByFamily();
  return areas.map(({ title, families }) => ({
    title,
    families: Object.values(families)
      .filter(isDeclared)
      .map((f) => ({
        name: f.name,
        type: f.type ?? "gauge",
        help: f.help,
        doc: f.doc,
        upstreamNames: upstream.get(f.name) ?? [],
      })),
  }));
}
