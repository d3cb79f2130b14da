/**
 * Accumulates the output of one pure mapping: samples, the families they use and drop counts.
 * It guarantees what the exposition needs: every sample's family is defined once, and no two
 * samples form the same series; and it keeps the numeric rule: finite values only, never
 * negative unless the family is `signed`.
 */
import type { DropReason, FamilyDef, HistogramSuffix, MappingResult, Sample } from "./sample.js";

/** A histogram's observations so far: a count per bucket of its family (not cumulated), sum and count. */
export interface HistogramValue {
  /** Observations per bucket of `FamilyDef.buckets`, in order; observations above the last are only in `count`. */
  readonly counts: readonly number[];
  readonly sum: number;
  readonly count: number;
}

/**
 * Identity of a series: the family name and the label set. Label order does not matter, as in
 * Prometheus, so the key is built from sorted label names.
 */
export function seriesKey(family: string, labels: Readonly<Record<string, string>>): string {
  const names = Object.keys(labels);
  // In place: Array.prototype.sort copies into a work array on every call, and this runs for
  // every sample of every poll (a third of the steady state's allocations at 1,000 clusters).
  for (let i = 1; i < names.length; i++) {
    const name = names[i] as string;
    let j = i - 1;
    for (; j >= 0 && (names[j] as string) > name; j--) names[j + 1] = names[j] as string;
    names[j + 1] = name;
  }
  const parts = [family];
  for (const name of names) parts.push(name, labels[name] ?? "");
  return JSON.stringify(parts);
}

/** Builds a MappingResult. Single use: call `result()` once at the end. */
export class MappingBuilder {
  readonly #samples: Sample[] = [];
  readonly #families = new Map<string, FamilyDef>();
  readonly #series = new Set<string>();
  readonly #dropped: Partial<Record<DropReason, number>> = {};

  /**
   * Adds one sample of `family`. A sample of a series already added is ignored: the first one
   * wins, because an upstream listing that repeats an item (e.g. a page shifting under
   * pagination) must not produce a duplicate series, which would make the exposition invalid.
   *
   * The one numeric rule of every family is kept here: a value that is not finite ("1e309"
   * read as +Inf) is dropped as "non_finite_value", and a negative value of a family that is not
   * `signed` as "negative_value"; both are counted like any dropped sample.
   */
  add(family: FamilyDef, labels: Readonly<Record<string, string>>, value: number): void {
    this.addSeries(family, undefined, labels, value);
  }

  private addSeries(
    family: FamilyDef,
    suffix: HistogramSuffix | undefined,
    labels: Readonly<Record<string, string>>,
    value: number,
  ): void {
    if (!Number.isFinite(value)) {
      this.drop("non_finite_value");
      return;
    }
    if (value < 0 && family.signed !== true) {
      this.drop("negative_value");
      return;
    }
    const key = seriesKey(suffix === undefined ? family.name : `${family.name}${suffix}`, labels);
    if (this.#series.has(key)) return;
    this.#series.add(key);
    if (!this.#families.has(family.name)) this.#families.set(family.name, family);
    this.#samples.push(
      suffix === undefined
        ? { family: family.name, labels, value }
        : { family: family.name, labels, value, suffix },
    );
  }

  /**
   * Adds the series of one label set of histogram `family`: a cumulative `_bucket` per bound
   * (`le`, then "+Inf" holding the count), `_sum` and `_count`, with the rule of `add` (a value
   * that is not finite or is negative drops that series). `labels` must not hold `le`.
   */
  addHistogram(family: FamilyDef, labels: Readonly<Record<string, string>>, value: HistogramValue): void {
    let cumulative = 0;
    (family.buckets ?? []).forEach((bound, i) => {
      cumulative += value.counts[i] ?? 0;
      this.addSeries(family, "_bucket", { ...labels, le: String(bound) }, cumulative);
    });
    this.addSeries(family, "_bucket", { ...labels, le: "+Inf" }, value.count);
    this.addSeries(family, "_sum", labels, value.sum);
    this.addSeries(family, "_count", labels, value.count);
  }

  /** Adds samples already built for `family` (e.g. a state set), with the rule of `add`. */
  addSamples(family: FamilyDef, samples: readonly Sample[]): void {
    for (const s of samples) this.add(family, s.labels, s.value);
  }

  /** Counts `count` samples (or items) not emitted for `reason`. */
  drop(reason: DropReason, count = 1): void {
    if (count <= 0) return;
    this.#dropped[reason] = (this.#dropped[reason] ?? 0) + count;
  }

  /** The accumulated result, families in order of first use. */
  result(): MappingResult {
    return { samples: this.#samples, families: [...this.#families.values()], dropped: this.#dropped };
  }
}
