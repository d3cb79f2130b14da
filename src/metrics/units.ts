/**
 * Conversion of upstream metric values to Prometheus base units, from the `unit` string of a
 * Query Cluster Metrics result. The upstream spelling is not enumerated anywhere, so the parser
 * is tolerant of case, plurals, spacing and common abbreviations.
 */

/** The base unit a family is expressed in. */
export type UnitKind = "ratio" | "bytes" | "seconds" | "per_second" | "count";

/** How to reach the base unit of `kind`: value x multiplier / divisor. */
interface UnitScale {
  readonly kind: UnitKind;
  readonly multiplier: number;
  readonly divisor: number;
}

// Multiplier and divisor are kept apart, as whole numbers, so that scaleDecimal can divide
// exactly instead of multiplying by an inexact 0.001 or 0.01.
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

// A value whose order of magnitude is beyond this is 0 or infinite after any scale used here
// (doubles reach about 1.8e308 and 5e-324; scales stay within 1e12 either way), and is not
// expanded into a bigint of that many digits.
const MAX_MAGNITUDE = 345;

/** The bits of a positive bigint. */
function bitLength(n: bigint): number {
  return n.toString(2).length;
}

/** The double nearest to n / d (ties to even), for integers n >= 0 and d > 0. */
function nearestQuotient(n: bigint, d: bigint): number {
  if (n === 0n) return 0;
  // Scale so that the quotient has 54 or 55 bits: 53 kept, the rest and the remainder round.
  const shift = 55 - (bitLength(n) - bitLength(d));
  const num = shift >= 0 ? n << BigInt(shift) : n;
  const den = shift >= 0 ? d : d << BigInt(-shift);
  let q = num / den;
  const rest = num % den;
  const extra = bitLength(q) - 53;
  const low = q & ((1n << BigInt(extra)) - 1n);
  const half = 1n << BigInt(extra - 1);
  q >>= BigInt(extra);
  if (low > half || (low === half && (rest > 0n || (q & 1n) === 1n))) q += 1n;
  // Two steps: 2 ** (extra - shift) alone may overflow where the product does not.
  const exp = extra - shift;
  const halfExp = Math.trunc(exp / 2);
  return Number(q) * 2 ** halfExp * 2 ** (exp - halfExp);
}

/**
 * `value` x multiplier / divisor, correctly rounded: the double nearest to the exact product of
 * the decimal the service sent (a string as sent, or a number's shortest round-trip digits,
 * which are the digits it was parsed from) and the scale. So "0.304" percent is exactly the
 * number 0.00304, not 0.304 / 100 = 0.0030399999999999997, and two spellings of one rate
 * ("7.87" per minute, "3.935" per 30 s bucket) give the same double. A scale that is not a
 * whole multiplier and divisor falls back to plain arithmetic. A value that is not a decimal
 * gives NaN.
 */
export function scaleDecimal(value: number | string, multiplier: number, divisor: number): number {
  const text = typeof value === "number" ? String(value) : value.trim();
  const m = DECIMAL_PARTS.exec(text);
  if (m === null || (m[2] === "" && (m[3] ?? "") === "")) return Number.NaN;
  if (!(Number.isSafeInteger(multiplier) && Number.isSafeInteger(divisor) && multiplier > 0 && divisor > 0)) {
    return (Number(text) * multiplier) / divisor;
  }
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = m;
  const digits = BigInt(`${whole}${fraction}` || "0");
  const exp = Number(exponent) - fraction.length;
  const negative = sign === "-";
  if (digits === 0n) return negative ? -0 : 0;
  const magnitude = `${whole}${fraction}`.replace(/^0+/, "").length + exp;
  if (magnitude > MAX_MAGNITUDE) return negative ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (magnitude < -MAX_MAGNITUDE) return negative ? -0 : 0;
  const n = digits * BigInt(multiplier) * (exp > 0 ? 10n ** BigInt(exp) : 1n);
  const d = BigInt(divisor) * (exp < 0 ? 10n ** BigInt(-exp) : 1n);
  const out = nearestQuotient(n, d);
  return negative ? -out : out;
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
