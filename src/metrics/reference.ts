/**
 * The family catalog as a reference: every family of families.ts, grouped by the exported
 * object that declares it (one area each), with the upstream names the metric catalog maps onto
 * each cluster family. docs/metrics.md is rendered from it (scripts/metricsDoc.ts), so a family
 * added to families.ts lands in the reference without anyone listing it by hand.
 */
import { UPSTREAM_METRICS } from "../upstream/catalog.js";
import * as declared from "./families.js";
import type { FamilyDoc, MetricType } from "./sample.js";

/** One family as the reference shows it. */
export interface ReferenceFamily {
  readonly name: string;
  readonly type: MetricType | "histogram";
  readonly help: string;
  /** Undefined only for a family declared without its entry (families.test.ts fails on it). */
  readonly doc: FamilyDoc | undefined;
  /** Query Cluster Metrics names mapped onto it (cluster families only); `*` marks names only the 2024 reference lists (the 2024 form). */
  readonly upstreamNames: readonly string[];
}

/** The families of one exported group of families.ts. */
export interface ReferenceArea {
  /** The export's name, e.g. "CLUSTER_FAMILIES". */
  readonly key: string;
  readonly title: string;
  readonly families: readonly ReferenceFamily[];
}

/**
 * Titles of the known groups, in the reference's order. A group added later is titled from its
 * export's name (BACKUP_FAMILIES: "Backup") and placed after the known upstream areas, before
 * the exporter's own (a module namespace lists its exports alphabetically, not as declared).
 */
const UPSTREAM_TITLES: Readonly<Record<string, string>> = {
  CLUSTER_FAMILIES: "Cluster metrics",
  JOB_FAMILIES: "Import and Spark jobs",
  INVENTORY_FAMILIES: "Inventory",
  ON_DEMAND_CLUSTER_FAMILIES: "On-demand clusters",
  COLLECTION_FAMILIES: "Collections",
  INDEX_FAMILIES: "Indexes",
  GROUP_FAMILIES: "Groups",
};
const SELF_TITLES: Readonly<Record<string, string>> = {
  TARGET_SELF_FAMILIES: "Exporter health per target",
  PROCESS_SELF_FAMILIES: "Exporter process",
  PROCESS_SELF_HISTOGRAMS: "Exporter process histograms",
};
/** Titles of groups placed by their export's name among the later upstream areas. */
const OTHER_TITLES: Readonly<Record<string, string>> = {
  CONSOLE_ALERT_RULE_FAMILIES: "Console alert rules",
};
const TITLES: Readonly<Record<string, string>> = { ...UPSTREAM_TITLES, ...OTHER_TITLES, ...SELF_TITLES };

function rank(key: string): number {
  const upstream = Object.keys(UPSTREAM_TITLES).indexOf(key);
  if (upstream >= 0) return upstream;
  const self = Object.keys(SELF_TITLES).indexOf(key);
  return self >= 0 ? 2000 + self : 1000;
}

/** A group of families: an exported object whose name ends in _FAMILIES or _HISTOGRAMS. */
const GROUP_EXPORT = /_(FAMILIES|HISTOGRAMS)$/;

function titleOf(key: string): string {
  const known = TITLES[key];
  if (known !== undefined) return known;
  const words = key.replace(GROUP_EXPORT, "").toLowerCase().replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

interface Declared {
  readonly name: string;
  readonly help: string;
  readonly type?: MetricType;
  readonly buckets?: readonly number[];
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
    const family = declared.CLUSTER_FAMILIES[m.family].name;
    const list = out.get(family) ?? [];
    list.push(m.references.includes("current") ? m.name : `${m.name}*`);
    out.set(family, list);
  }
  return out;
}

/**
 * Every family families.ts declares, by area in the order of its exports; within an area in
 * declaration order. Pure: the same catalog gives the same reference.
 */
export function familyReference(): ReferenceArea[] {
  const upstream = upstreamNamesByFamily();
  return Object.entries(declared)
    .filter(([key, group]) => GROUP_EXPORT.test(key) && typeof group === "object" && group !== null)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([key, group]) => ({
      key,
      title: titleOf(key),
      families: Object.values(group as Record<string, unknown>)
        .filter(isDeclared)
        .map((f) => ({
          name: f.name,
          type: f.buckets !== undefined ? "histogram" : (f.type ?? "gauge"),
          help: f.help,
          doc: f.doc,
          upstreamNames: upstream.get(f.name) ?? [],
        })),
    }));
}
