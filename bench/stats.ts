/** Summary of a list of measurements (milliseconds, bytes, ...). */
export interface Summary {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

/**
 * The nearest-rank percentile `p` (0 < p <= 100) of `values`: the smallest value with at least
 * p% of the values at or below it. NaN for an empty list. Does not modify `values`.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** p50, p99, max and mean of `values` (NaN everywhere for an empty list). */
export function summarize(values: readonly number[]): Summary {
  let max = Number.NaN;
  let sum = 0;
  for (const v of values) {
    if (!(v <= max)) max = v;
    sum += v;
  }
  return {
    count: values.length,
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max,
    mean: values.length === 0 ? Number.NaN : sum / values.length,
  };
}

/**
 * The least-squares slope of `points` (y per unit of x), over those with x at or after
 * `fromX`. NaN with fewer than two such points or when they all share one x.
 */
export function slope(points: readonly { x: number; y: number }[], fromX = Number.NEGATIVE_INFINITY): number {
  const pts = points.filter((p) => p.x >= fromX);
  if (pts.length < 2) return Number.NaN;
  const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const my = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  let num = 0;
  let den = 0;
  for (const p of pts) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}

/**
 * The median of `y` in each of `parts` equal slices of [0, spanX) by `x` (NaN for an empty
 * slice): the shape of a series over a run (rising, levelling off, falling), which a single
 * slope does not show.
 */
export function medianByPart(
  points: readonly { x: number; y: number }[],
  spanX: number,
  parts: number,
): number[] {
  const slices: number[][] = Array.from({ length: parts }, () => []);
  for (const p of points) {
    const i = Math.min(parts - 1, Math.floor((p.x / spanX) * parts));
    if (i >= 0) slices[i]?.push(p.y);
  }
  return slices.map((s) => (s.length === 0 ? Number.NaN : percentile(s, 50)));
}
