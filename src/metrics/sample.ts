/**
 * What collectors produce: plain samples of named families, with no Prometheus client
 * involved. The store renders them to the exposition formats.
 */

export type MetricType = "gauge" | "counter" | "histogram";

/**
 * The reference entry of a family: docs/metrics.md is generated from it, so a family cannot be
 * exposed without being documented. It never reaches /metrics.
 */
export interface FamilyDoc {
  /** Label names, in the order samples carry them. */
  readonly labels: readonly string[];
  /** Unit of the value, e.g. "ratio (0..1)", "seconds", "bytes", "Unix seconds", "count", "1 (info)". */
  readonly unit: string;
  /** Upstream endpoint template and field the value comes from, or "exporter" for self-metrics. */
  readonly source: string;
  /** When the family has no series at all, or a given series disappears. */
  readonly absent: string;
}

/** A metric family. `help` names the upstream source; `name` is the full family name. */
export interface FamilyDef {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  /** Reference entry (docs/metrics.md); every family of families.ts carries one. */
  readonly doc?: FamilyDoc;
  /**
   * Whether a value may be negative (an amount, a threshold). Every other family holds counts,
   * sizes, rates, latencies, ratios or timestamps: a negative value there is the upstream's
   * error, and MappingBuilder drops it as "negative_value".
   */
  readonly signed?: boolean;
  /** A histogram's bucket upper bounds, ascending (the +Inf bucket is implied). */
  readonly buckets?: readonly number[];
}

/**
 * One sample. Label order is the order of insertion and is kept in the output; label values
 * are raw (unescaped) strings. No timestamp is ever attached (docs/design.md section 6).
 */
export interface Sample {
  readonly family: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  /** A histogram's series: what its name adds to the family's (its `le` bucket, sum or count). */
  readonly suffix?: HistogramSuffix;
}

/** The series of a histogram family besides its name: its buckets, its sum and its count. */
export type HistogramSuffix = "_bucket" | "_sum" | "_count";

/** Why a sample was not emitted. Stable: the `reason` label values of samples_dropped_total. */
export const DROP_REASONS = [
  "unparsable_value",
  "unknown_unit",
  "non_finite_value",
  "job_cap",
  "unknown_metric_name",
  // A point whose bucket had not ended when asked: a partial count or average.
  "open_bucket",
  // A point with a missing or unreadable timestamp.
  "bad_timestamp",
  // A first-form latency result whose statistic neither the answer nor the request tells.
  "unknown_stat",
  // A value below zero for a family that cannot hold one (FamilyDef.signed).
  "negative_value",
] as const;

/** One reason of `DROP_REASONS`. */
export type DropReason = (typeof DROP_REASONS)[number];

/**
 * Output of one pure mapping: the samples, the definitions of every family they use, and
 * counts of what was dropped and why.
 */
export interface MappingResult {
  readonly samples: Sample[];
  readonly families: FamilyDef[];
  readonly dropped: Partial<Record<DropReason, number>>;
}
