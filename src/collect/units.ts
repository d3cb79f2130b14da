/**
 * Conversion of upstream metric values to Prometheus base units, from the `unit` string of a
 * Query Cluster Metrics result. The upstream spelling is not enumerated anywhere, so the parser
 * is tolerant of case, plurals, spacing and common abbreviations.
 */

/** The base unit a family is expressed in. */
export type UnitKind = "ratio" | "bytes" | "seconds" | "per_second" | "count";

/** How to reach the base unit of `kind`: value x multiplier / divisor. */
export interface UnitScale {
  readonly kind: UnitKind;
  readonly multiplier: number;
  readonly divisor: number;
}

// Multiplier and divisor are kept apart so that their powers of ten can move the decimal
// point (scaleDecimal) instead of multiplying by an inexact 0.001 or 0.01.
function scale(kind: UnitKind, multiplier: number, divisor = 1): UnitScale {
  return { kind, multiplier, divisor };
}

const RATIO = scale("ratio", 1, 100);
const COUNT = scale("count", 1);
const PER_MINUTE = scale("per_second", 1, 60);
const PER_SECOND = scale("per_second", 1);

const WHOLE_UNITS: ReadonlyMap<string, UnitScale> = new Map([
  ...entries(["percent", "percents", "percentage", "pct", "%"], RATIO),
  ...entries(["ratio", "fraction"], scale("ratio", 1)),
  ...entries(["b", "byte", "bytes"], scale("bytes", 1)),
  ...entries(["kb", "kilobyte", "kilobytes"], scale("bytes", 1e3)),
  ...entries(["mb", "megabyte", "megabytes"], scale("bytes", 1e6)),
  ...entries(["gb", "gigabyte", "gigabytes"], scale("bytes", 1e9)),
  ...entries(["tb", "terabyte", "terabytes"], scale("bytes", 1e12)),
  ...entries(["kib", "kibibyte", "kibibytes"], scale("bytes", 2 ** 10)),
  ...entries(["mib", "mebibyte", "mebibytes"], scale("bytes", 2 ** 20)),
  ...entries(["gib", "gibibyte", "gibibytes"], scale("bytes", 2 ** 30)),
  ...entries(["tib", "tebibyte", "tebibytes"], scale("bytes", 2 ** 40)),
  ...entries(["ns", "nanosecond", "nanoseconds"], scale("seconds", 1, 1e9)),
  ...entries(["us", "usec", "microsecond", "microseconds"], scale("seconds", 1, 1e6)),
  ...entries(["ms", "msec", "msecs", "millisecond", "milliseconds"], scale("seconds", 1, 1e3)),
  ...entries(["s", "sec", "secs", "second", "seconds"], scale("seconds", 1)),
  ...entries(["rpm", "cpm", "qpm", "opm"], PER_MINUTE),
  // QPS and VPS (queries / vectors per second) are how the service's console labels its rates.
  ...entries(["qps", "vps", "rps", "tps", "cps"], PER_SECOND),
  ...entries(["", "count", "counts", "number", "num", "unit", "units", "vcu"], COUNT),
]);

// Numerators accepted in "<thing>/<time>" rates: the thing counted does not change the unit.
const COUNTED_THINGS: ReadonlySet<string> = new Set([
  "",
  "count",
  "counts",
  "req",
  "reqs",
  "request",
  "requests",
  "query",
  "queries",
  "op",
  "ops",
  "operation",
  "operations",
  "call",
  "calls",
  "time",
  "times",
  "event",
  "events",
  "entity",
  "entities",
  "row",
  "rows",
  "item",
  "items",
]);

const TIME_DENOMINATORS: ReadonlyMap<string, UnitScale> = new Map([
  ...entries(["s", "sec", "secs", "second", "seconds"], PER_SECOND),
  ...entries(["m", "min", "mins", "minute", "minutes"], PER_MINUTE),
  ...entries(["h", "hr", "hrs", "hour", "hours"], scale("per_second", 1, 3600)),
]);

function entries(keys: readonly string[], value: UnitScale): [string, UnitScale][] {
  return keys.map((k) => [k, value]);
}

function normalizeUnit(unit: string): string {
  return (
    unit
      .trim()
      .toLowerCase()
      // Both the micro sign (U+00B5) and the Greek mu (U+03BC) are used for "micro".
      .replace(/[\u00b5\u03bc]/g, "u")
      .replace(/\s+/g, " ")
      .replace(/^per /, "/")
      .replace(/ per /g, "/")
      .replace(/ ?\/ ?/g, "/")
  );
}

/**
 * Parses an upstream unit string. Returns the kind of base unit it measures and the scale to
 * reach it, or undefined when the unit is not recognised.
 */
export function parseUnit(unit: string): UnitScale | undefined {
  const u = normalizeUnit(unit);
  const whole = WHOLE_UNITS.get(u);
  if (whole !== undefined) return whole;
  const parts = u.split("/");
  if (parts.length !== 2) return undefined;
  const [numerator = "", denominator = ""] = parts;
  return COUNTED_THINGS.has(numerator) ? TIME_DENOMINATORS.get(denominator) : undefined;
}

// A decimal in plain or exponent notation: sign, integer digits, fraction digits, exponent.
const DECIMAL_PARTS = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** `n` as rest x 10^exp with the largest whole power of ten taken out (n itself if none). */
function splitPowerOfTen(n: number): { rest: number; exp: number } {
  let rest = n;
  let exp = 0;
  while (Number.isInteger(rest) && rest !== 0 && rest % 10 === 0) {
    rest /= 10;
    exp += 1;
  }
  return { rest, exp };
}

/** The parts of a decimal text: its digits as a whole number, and the power of ten they carry. */
function decimalParts(text: string): { mantissa: string; exp: number } | undefined {
  const m = DECIMAL_PARTS.exec(text);
  if (m === null || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = m;
  return { mantissa: `${sign}${whole}${fraction}`, exp: Number(exponent) - fraction.length };
}

/**
 * `value` x multiplier / divisor without binary noise from the decimal part of the scale: the
 * powers of ten in `multiplier` and `divisor` move the decimal point of the value's decimal
 * digits (a string as sent, or a number's shortest round-trip digits, which are the digits it
 * was parsed from), and the result is parsed once, so "0.304" percent is exactly the number
 * 0.00304, not 0.304 / 100 = 0.0030399999999999997. What is left of the scale (2^30 for GiB,
 * the 6 of a minute's 60 s) is applied to the digits as a whole number, exact while they fit
 * a double's 53 bits, before the point moves ("1.5"/min is 15 / 6 = 2.5, moved: 0.025). A
 * value that is not a decimal gives NaN.
 */
export function scaleDecimal(value: number | string, multiplier: number, divisor: number): number {
  const parts = decimalParts(typeof value === "number" ? String(value) : value.trim());
  if (parts === undefined) return Number.NaN;
  const up = splitPowerOfTen(multiplier);
  const down = splitPowerOfTen(divisor);
  const exp = parts.exp + up.exp - down.exp;
  if (up.rest === 1 && down.rest === 1) return Number(`${parts.mantissa}e${exp}`);
  const scaled = (Number(parts.mantissa) * up.rest) / down.rest;
  const again = decimalParts(String(scaled));
  return again === undefined ? scaled : Number(`${again.mantissa}e${again.exp + exp}`);
}

/**
 * Converts `value`, measured in `unit`, to the base unit of `kind`, exactly where the scale is
 * a power of ten (see `scaleDecimal`). A bare count on a rate family is the number of events
 * in one bucket, so it is divided by `bucketSeconds` (the query's granularity); without a
 * bucket length it cannot be read and is refused. Returns undefined when the unit is not
 * recognised or measures another kind (e.g. "ms" for a ratio).
 */
export function toBaseUnit(
  value: number | string,
  unit: string,
  kind: UnitKind,
  bucketSeconds?: number,
): number | undefined {
  const s = parseUnit(unit);
  if (s === undefined) return undefined;
  if (s.kind === kind) return scaleDecimal(value, s.multiplier, s.divisor);
  if (kind === "per_second" && s.kind === "count" && bucketSeconds !== undefined && bucketSeconds > 0) {
    return scaleDecimal(value, s.multiplier, s.divisor * bucketSeconds);
  }
  return undefined;
}
