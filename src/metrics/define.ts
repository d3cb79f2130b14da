/**
 * How a fixed family is declared (metrics/families.ts and each collector's families.ts): name,
 * HELP and its reference entry, from which docs/metrics.md is generated. Every name declared
 * here is remembered, so that a family named at run time after an upstream metric the catalog
 * does not know never takes a fixed family's name, whichever folder declares it.
 */
import type { FamilyDef, FamilyDoc } from "./sample.js";

const declared = new Set<string>();

function declare(def: FamilyDef): FamilyDef {
  declared.add(def.name);
  return def;
}

/**
 * Whether a module loaded in this process declared a fixed family of this name. Every collector
 * is loaded with the registry, before the first poll names a family at run time.
 */
export function isFixedFamily(name: string): boolean {
  return declared.has(name);
}

/** A gauge family. Every fixed family carries `doc` (metricsDoc.test.ts fails without one). */
export function gauge(name: string, help: string, doc?: FamilyDoc): FamilyDef {
  return declare(doc === undefined ? { name, help, type: "gauge" } : { name, help, type: "gauge", doc });
}

/** A counter family; `doc` as for {@link gauge}. */
export function counter(name: string, help: string, doc?: FamilyDoc): FamilyDef {
  return declare(doc === undefined ? { name, help, type: "counter" } : { name, help, type: "counter", doc });
}

/**
 * A gauge whose values may be negative (amounts with credits, thresholds); `doc` as for
 * {@link gauge}. Any other family's negative values are dropped (MappingBuilder).
 */
export function signedGauge(name: string, help: string, doc?: FamilyDoc): FamilyDef {
  return { ...gauge(name, help, doc), signed: true };
}

/**
 * A histogram family: its samples are a series per bucket (`le`, ascending, then "+Inf"), a sum
 * and a count per label set (MappingBuilder.addHistogram); `doc` as for {@link gauge}, its
 * labels without `le`.
 */
export function histogram(
  name: string,
  help: string,
  buckets: readonly number[],
  doc?: FamilyDoc,
): FamilyDef {
  const def: FamilyDef = { name, help, type: "histogram", buckets };
  return declare(doc === undefined ? def : { ...def, doc });
}
