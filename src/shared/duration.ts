/**
 * ISO 8601 durations (PT30S, PT1M30S, P1D, PT0.5S) to and from milliseconds. The upstream API
 * speaks these for metric granularity, and the config file uses the same notation so that a
 * value can be copied between the two without conversion.
 */
import { parse, serialize } from "tinyduration";
import { ExporterError } from "./errors.js";

/** Thrown for text that is not a usable duration; the message says why, never with a stack. */
export class DurationError extends ExporterError {
  readonly code = "duration_invalid";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DurationError";
  }
}

// tinyduration's own pattern is unanchored and allows a sign on each component ("xPT-5Sy"
// parses), so the whole text is checked first. Components are unsigned decimals with `.` or
// `,`, and a `T` must be followed by at least one time component.
const NUM = String.raw`\d+(?:[.,]\d+)?`;
const STRICT = new RegExp(
  `^-?P(?=[\\dT])(?:${NUM}Y)?(?:${NUM}M)?(?:${NUM}W)?(?:${NUM}D)?(?:T(?=\\d)(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`,
);

const NOT_A_DURATION = "is not an ISO 8601 duration (examples: PT30S, PT1M30S, PT1H, P1D)";

/** Time units in milliseconds: every duration the exporter holds is in milliseconds. */
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const MS = { weeks: 7 * DAY, days: DAY, hours: HOUR, minutes: MINUTE, seconds: SECOND } as const;

/**
 * Parses an ISO 8601 duration into milliseconds. Years and months are rejected (their length
 * depends on the calendar), and so are negative durations and sub-millisecond precision.
 * Zero (PT0S) is returned as 0: whether zero is allowed is the caller's decision.
 * @throws DurationError with a message fit for a config problem.
 */
export function parseDuration(text: string): number {
  // Text that is not a duration is not quoted back: it could be anything, a secret pasted
  // into the wrong field included.
  if (!STRICT.test(text)) throw new DurationError(NOT_A_DURATION);
  let parts: ReturnType<typeof parse>;
  try {
    parts = parse(text);
  } catch (err) {
    throw new DurationError(NOT_A_DURATION, { cause: err });
  }
  if (parts.negative) throw new DurationError(`"${text}" is negative; durations must be positive`);
  if (parts.years !== undefined || parts.months !== undefined) {
    throw new DurationError(`"${text}" uses years or months, whose length varies; use days (P30D) instead`);
  }
  let ms = 0;
  for (const unit of ["weeks", "days", "hours", "minutes", "seconds"] as const) {
    ms += (parts[unit] ?? 0) * MS[unit];
  }
  const rounded = Math.round(ms);
  // Binary fractions make 1.1 * 1000 = 1100.0000000000002; anything beyond that noise is a
  // real sub-millisecond part, which no interval here can honour.
  if (Math.abs(ms - rounded) > 1e-6) {
    throw new DurationError(`"${text}" is more precise than a millisecond`);
  }
  if (!Number.isSafeInteger(rounded)) throw new DurationError(`"${text}" is too long`);
  return rounded;
}

/**
 * Formats milliseconds as the canonical ISO 8601 duration: days, hours, minutes and seconds
 * (with a decimal fraction for milliseconds), zero components omitted, e.g. 90000 -> PT1M30S,
 * 86400000 -> P1D, 500 -> PT0.5S, 0 -> PT0S. `parseDuration(formatDuration(ms)) === ms`.
 * @throws RangeError for negative, fractional or unsafe values.
 */
export function formatDuration(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) {
    throw new RangeError(`cannot format ${ms} ms as a duration: expected a non-negative integer`);
  }
  const days = Math.floor(ms / MS.days);
  const hours = Math.floor((ms % MS.days) / MS.hours);
  const minutes = Math.floor((ms % MS.hours) / MS.minutes);
  const millis = ms % MS.minutes;
  // Integer arithmetic on milliseconds first, so 1100 ms gives 1.1 and not 1.0999999.
  const seconds = Number(`${Math.floor(millis / 1000)}.${String(millis % 1000).padStart(3, "0")}`);
  return serialize({ days, hours, minutes, seconds });
}
