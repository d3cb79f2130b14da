/**
 * How a fixed family is declared (metrics/families.ts and each collector's families.ts): its
 * name, then one object with its HELP and reference entry, from which docs/metrics.md is
 * generated. Every name declared here is remembered, so that a family named at run time after
 * an upstream metric the catalog does not know never takes a fixed family's name, whichever
 * folder declares it.
 */
import { ExporterError } from "../shared/errors.js";
import type { FamilyDef, FamilyDoc, MetricType } from "./sample.js";

/**
 * A fixed family's HELP and reference entry. `unit` may be left out where the name's suffix
 * says it (see {@link unitOfName}); the reference then shows that unit, so a name and its
 * documented unit never disagree.
 */
export interface FamilySpec extends Omit<FamilyDoc, "unit"> {
  readonly help: string;
  readonly unit?: string;
}

/** A histogram's spec: a family's, plus its bucket upper bounds, ascending (+Inf implied). */
export interface HistogramSpec extends FamilySpec {
  readonly buckets: readonly number[];
}

/** Thrown while a module declares a family that breaks a naming rule: a bug, caught by any test. */
export class FamilyDeclarationError extends ExporterError {
  readonly code = "family_declaration_invalid";
  constructor(message: string) {
    super(message);
    this.name = "FamilyDeclarationError";
  }
}

// Prometheus' naming conventions put the unit in the suffix; the most specific suffix first.
const UNIT_BY_SUFFIX: readonly (readonly [suffix: string, unit: string, type?: MetricType])[] = [
  ["_info", "1 (info)"],
  ["_timestamp_seconds", "Unix seconds"],
  ["_total", "count", "counter"],
  ["_seconds", "seconds"],
  ["_bytes", "bytes"],
  ["_ratio", "ratio (0..1)"],
  ["_status", "1 (state set)"],
];

/** The unit a family's name implies by its suffix, or undefined where the name implies none. */
export function unitOfName(name: string, type: MetricType): string | undefined {
  for (const [suffix, unit, onlyFor] of UNIT_BY_SUFFIX) {
    if (name.endsWith(suffix) && (onlyFor === undefined || onlyFor === type)) return unit;
  }
  return undefined;
}

const declared = new Set<string>();

function declare(name: string, type: MetricType, spec: FamilySpec): FamilyDef {
  const { help, unit = unitOfName(name, type), labels, source, absent } = spec;
  if (unit === undefined) {
    throw new FamilyDeclarationError(`family ${name}: its name implies no unit, so its spec must give one`);
  }
  declared.add(name);
  return { name, help, type, doc: { labels, unit, source, absent } };
}

/**
 * Whether a module loaded in this process declared a fixed family of this name. Every collector
 * is loaded with the registry, before the first poll names a family at run time.
 */
export function isFixedFamily(name: string): boolean {
  return declared.has(name);
}

/** A gauge family. */
export function gauge(name: string, spec: FamilySpec): FamilyDef {
  return declare(name, "gauge", spec);
}

/** A counter family. */
export function counter(name: string, spec: FamilySpec): FamilyDef {
  return declare(name, "counter", spec);
}

/**
 * A gauge whose values may be negative (amounts with credits, thresholds). Any other family's
 * negative values are dropped (MappingBuilder).
 */
export function signedGauge(name: string, spec: FamilySpec): FamilyDef {
  return { ...declare(name, "gauge", spec), signed: true };
}

/**
 * A histogram family: its samples are a series per bucket (`le`, ascending, then "+Inf"), a sum
 * and a count per label set (MappingBuilder.addHistogram); its labels are given without `le`.
 */
export function histogram(name: string, spec: HistogramSpec): HistogramFamily {
  return { ...declare(name, "histogram", spec), buckets: spec.buckets };
}

/** A histogram family as `histogram` declares it: its buckets always given. */
export type HistogramFamily = FamilyDef & { readonly buckets: readonly number[] };
