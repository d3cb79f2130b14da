/**
 * How a backfill window is cut into calls. The service's largest answer is not documented, so
 * a chunk starts at a safe number of points (buckets x queries) and a call refused as too
 * large is halved, and every later call of the run stays at the smaller size.
 */
import { CloudError } from "../upstream/errors.js";

/** Points (buckets x queries) one call asks for at most, until the service refuses less. */
const DEFAULT_POINTS_PER_CALL = 10_000;

/** A time span [startMs, endMs) on granularity boundaries. */
export interface Span {
  readonly startMs: number;
  readonly endMs: number;
}

/** Buckets per chunk for a call of `queries` queries: at least one. */
export function bucketsPerCall(queries: number, pointsPerCall = DEFAULT_POINTS_PER_CALL): number {
  return Math.max(1, Math.floor(pointsPerCall / Math.max(1, queries)));
}

/**
 * Cuts [fromMs, toMs) into consecutive spans of at most `buckets` buckets each, from `fromMs`
 * on; the last one may be shorter. Both ends must be on granularity boundaries.
 */
export function splitSpan(span: Span, granularityMs: number, buckets: number): Span[] {
  const step = Math.max(1, Math.floor(buckets)) * granularityMs;
  const out: Span[] = [];
  for (let t = span.startMs; t < span.endMs; t += step)
    out.push({ startMs: t, endMs: Math.min(span.endMs, t + step) });
  return out;
}

/** Number of buckets in `span`. */
export function bucketsIn(span: Span, granularityMs: number): number {
  return Math.round((span.endMs - span.startMs) / granularityMs);
}

// The refusal is not documented either: words about the size of the answer, never the rate
// limit's "too many requests" (which the client retries on its own).
const TOO_MANY_POINTS =
  /too many (?:data ?)?points|more than [\d,]+ (?:data )?points|points? (?:exceed|limit|over)|exceeds? (?:the )?(?:max(?:imum)?|limit)[\w ]* points?|(?:window|range|time span|period)[\w ]* too (?:large|long|wide)|result (?:is )?too large/i;

/** Whether `err` is the service refusing a window as holding too many points. */
export function isTooManyPoints(err: unknown): boolean {
  if (!(err instanceof CloudError)) return false;
  if (err.code !== "invalid_request" && err.code !== "api_error" && err.code !== "http_error") return false;
  return TOO_MANY_POINTS.test(err.message);
}

/**
 * The largest call, in points (buckets x queries), shared by every target of a run: the limit
 * is the service's, not a target's. It only shrinks.
 */
export class CallSize {
  #points: number;

  constructor(points = DEFAULT_POINTS_PER_CALL) {
    this.#points = Math.max(1, Math.floor(points));
  }

  get points(): number {
    return this.#points;
  }

  /** Buckets a call of `queries` queries may ask for now. */
  bucketsFor(queries: number): number {
    return bucketsPerCall(queries, this.#points);
  }

  /**
   * A call of `buckets` buckets and `queries` queries was refused as too large: later calls
   * ask at most half of it. Returns false when it asked a single bucket, which no split fixes.
   */
  refused(buckets: number, queries: number): boolean {
    if (buckets <= 1) return false;
    this.#points = Math.min(this.#points, Math.max(1, Math.floor((buckets * Math.max(1, queries)) / 2)));
    return true;
  }
}
