/**
 * The time window of a metric query: ISO 8601 parsing, the PT30S minimum and the alignment of
 * buckets to granularity boundaries.
 */
import { parse as parseDuration } from "tinyduration";
import { ApiCode, SimApiError } from "./errors.js";

/** The documented minimum granularity. */
const MIN_GRANULARITY_MS = 30_000;
/** Guard against windows that would make one answer huge. */
const MAX_BUCKETS = 10_000;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Parses an ISO 8601 duration of days, hours, minutes and seconds into milliseconds. Years,
 * months, weeks and negative durations have no fixed length here and are refused (undefined).
 */
export function parseDurationMs(text: string): number | undefined {
  let d: ReturnType<typeof parseDuration>;
  try {
    d = parseDuration(text);
  } catch {
    return undefined;
  }
  if (d.negative || d.years || d.months || d.weeks) return undefined;
  const ms =
    ((d.days ?? 0) * 86_400 + (d.hours ?? 0) * 3_600 + (d.minutes ?? 0) * 60 + (d.seconds ?? 0)) * 1000;
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** Parses an ISO 8601 timestamp with an explicit zone (Z or offset); undefined otherwise. */
export function parseTimestampMs(text: string): number | undefined {
  if (!ISO_TIMESTAMP.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A validated window: buckets start at `firstBucketMs` and step by `granularityMs`. */
interface MetricWindow {
  readonly startMs: number;
  readonly endMs: number;
  readonly granularityMs: number;
  /** Bucket start times, aligned to multiples of the granularity (epoch based). */
  readonly buckets: readonly number[];
}

/**
 * Bucket start times covering [startMs, endMs): the first is `startMs` rounded down to a
 * granularity boundary, the last is the last boundary before `endMs`.
 */
export function alignBuckets(startMs: number, endMs: number, granularityMs: number): number[] {
  const out: number[] = [];
  for (let t = Math.floor(startMs / granularityMs) * granularityMs; t < endMs; t += granularityMs)
    out.push(t);
  return out;
}

function invalid(message: string): SimApiError {
  return new SimApiError(ApiCode.INVALID_PARAMETER, message);
}

/** Fields of the request body that define the window (already known to be strings or absent). */
interface WindowFields {
  readonly start?: string | undefined;
  readonly end?: string | undefined;
  readonly period?: string | undefined;
  readonly granularity?: string | undefined;
}

/**
 * Validates the window fields of a Query Cluster Metrics body: `granularity` (>= PT30S) and
 * either `start` + `end`, or `period` (ending now). Throws `SimApiError` (INVALID_PARAMETER).
 */
export function resolveWindow(fields: WindowFields, nowMs: number): MetricWindow {
  if (fields.granularity === undefined) throw invalid("granularity is required");
  const granularityMs = parseDurationMs(fields.granularity);
  if (granularityMs === undefined)
    throw invalid(`granularity is not an ISO 8601 duration: ${fields.granularity}`);
  if (granularityMs < MIN_GRANULARITY_MS) throw invalid("granularity must be at least PT30S");

  let startMs: number;
  let endMs: number;
  if (fields.start !== undefined || fields.end !== undefined) {
    if (fields.start === undefined || fields.end === undefined)
      throw invalid("start and end must be given together");
    const s = parseTimestampMs(fields.start);
    const e = parseTimestampMs(fields.end);
    if (s === undefined) throw invalid(`start is not an ISO 8601 UTC timestamp: ${fields.start}`);
    if (e === undefined) throw invalid(`end is not an ISO 8601 UTC timestamp: ${fields.end}`);
    if (s >= e) throw invalid("start must be before end");
    startMs = s;
    endMs = e;
  } else if (fields.period !== undefined) {
    const periodMs = parseDurationMs(fields.period);
    if (periodMs === undefined || periodMs <= 0)
      throw invalid(`period is not an ISO 8601 duration: ${fields.period}`);
    endMs = nowMs;
    startMs = nowMs - periodMs;
  } else {
    throw invalid("either start and end, or period, is required");
  }
  if ((endMs - startMs) / granularityMs > MAX_BUCKETS) {
    throw invalid(`the window holds more than ${MAX_BUCKETS} points at this granularity`);
  }
  return { startMs, endMs, granularityMs, buckets: alignBuckets(startMs, endMs, granularityMs) };
}
