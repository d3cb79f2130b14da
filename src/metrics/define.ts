/**
 * How a fixed family is declared (metrics/families.ts and the modules it re-exports): name, HELP
 * and its reference entry, from which docs/metrics.md is generated.
 */
import type { FamilyDef, FamilyDoc } from "./sample.js";

/** A gauge family. Every family of families.ts carries `doc` (metricsDoc.test.ts fails without one). */
export function gauge(name: string, help: string, doc?: FamilyDoc): FamilyDef {
  return doc === undefined ? { name, help, type: "gauge" } : { name, help, type: "gauge", doc };
}

/** A counter family; `doc` as for {@link gauge}. */
export function counter(name: string, help: string, doc?: FamilyDoc): FamilyDef {
  return doc === undefined ? { name, help, type: "counter" } : { name, help, type: "counter", doc };
}

/**
 * A gauge whose values may be negative (amounts with credits, thresholds); `doc` as for
 * {@link gauge}. Any other family's negative values are dropped (MappingBuilder).
 */
export function signedGauge(name: string, help: string, doc?: FamilyDoc): FamilyDef {
  return { ...gauge(name, help, doc), signed: true };
}
