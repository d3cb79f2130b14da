/**
 * Parses an HTTP Retry-After value: delay-seconds or an HTTP date (RFC 9110 section 10.2.3).
 */

/**
 * Milliseconds to wait, or `undefined` when the header is absent or unreadable. A date in the
 * past yields 0. Fractional seconds are tolerated and rounded up.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // Only dates with a letter (weekday/month name) count: bare numbers with signs etc. are junk.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
