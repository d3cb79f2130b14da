/**
 * Exact decimal amounts. Money arrives as decimal text or as a JSON number (cents, or currency
 * units); dividing or summing binary floats would expose noise such as 0.30000000000000004 where
 * the service meant 0.3. An amount is kept as an integer of units of 10^-scale and becomes a
 * float only at the end, by parsing its exact decimal text (the nearest double, as Prometheus
 * would read the text).
 */

/** An exact decimal: `units` x 10^-`scale` (scale >= 0). */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** The decimal zero. */
export const ZERO: Decimal = { units: 0n, scale: 0 };

const DECIMAL_TEXT = /^\s*([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?\s*$/;
/** Past this, an exponent is not an amount but a mistake (or an attempt at a huge BigInt). */
const MAX_EXPONENT = 400;

/**
 * Reads decimal text ("1234", "-0.5", "12.340", "1.5e3") or a finite number (read through its
 * shortest round-trip text, the digits JSON carried). Undefined for anything else.
 */
export function parseDecimal(value: string | number): Decimal | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return undefined;
  const m = DECIMAL_TEXT.exec(typeof value === "number" ? String(value) : value);
  if (!m) return undefined;
  const [, sign = "", whole = "", fraction = "", exponentText] = m;
  if (whole === "" && fraction === "") return undefined;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  let units = BigInt(`${whole}${fraction}` || "0");
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === "-" ? -units : units, scale };
}

/** `d` divided by 10^`places` (exact: only the scale moves). */
export function shift(d: Decimal, places: number): Decimal {
  if (places >= 0) return { units: d.units, scale: d.scale + places };
  const up = Math.min(-places, d.scale);
  const rest = -places - up;
  return { units: d.units * 10n ** BigInt(rest), scale: d.scale - up };
}

/** a + b, exactly. */
export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return {
    units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale),
    scale,
  };
}

/** The exact decimal text of `d`, without trailing zeros ("123.45", "-0.5", "0"). */
export function formatDecimal(d: Decimal): string {
  const negative = d.units < 0n;
  const digits = (negative ? -d.units : d.units).toString().padStart(d.scale + 1, "0");
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale).replace(/0+$/, "");
  const text = fraction === "" ? whole : `${whole}.${fraction}`;
  return negative && text !== "0" ? `-${text}` : text;
}

/** The double nearest to `d`: the one its exact text parses to. */
export function toNumber(d: Decimal): number {
  return Number(formatDecimal(d));
}
