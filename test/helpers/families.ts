import { STATIC_FAMILIES } from "../../src/collectors/registry.js";
import { HISTOGRAM_FAMILIES } from "../../src/exposition/selfMetrics.js";

/**
 * The metric families the exporter exposes, from the exporter's own catalog (the one source of
 * truth) plus its self-metric histograms. Dashboards, rules and the end-to-end test check
 * against it.
 */
export const EXPOSED_FAMILIES: readonly string[] = [
  ...STATIC_FAMILIES.map((f) => f.name),
  ...HISTOGRAM_FAMILIES,
];

/** Series Prometheus synthesises or evaluates itself, which queries may also use. */
export const PROMETHEUS_SERIES: readonly string[] = ["up", "ALERTS", "ALERTS_FOR_STATE"];

/**
 * The series names a family can appear under: itself, and the suffixes of counters and
 * histograms (so the list works whether a catalog names counters with or without `_total`).
 */
export function seriesNamesOf(family: string): string[] {
  const base = family.endsWith("_total") ? family.slice(0, -"_total".length) : family;
  return [family, `${base}_total`, `${family}_bucket`, `${family}_sum`, `${family}_count`];
}
