/**
 * What collectors produce: plain samples of named families, with no Prometheus client
 * involved. The store renders them to the exposition formats.
 */

export type MetricType = "gauge" | "counter";

/** A metric family. `help` names the upstream source; `name` is the full family name. */
export interface FamilyDef {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
}

/**
 * One sample. Label order is the order of insertion and is kept in the output; label values
 * are raw (unescaped) strings. No timestamp is ever attached (docs/design.md section 6).
 */
export interface Sample {
  readonly family: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

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
