/**
 * ISO 8601 timestamps on the wire: UTC without milliseconds going out; ISO strings or epoch
 * numbers coming in. (Durations: src/shared/duration.ts, shared with the config.)
 */

/** `2024-05-01T12:00:00Z`: UTC, whole seconds (milliseconds are truncated). */
export function formatIsoUtcSeconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

// Epoch values below this are seconds: 1e11 s is the year 5138, 1e11 ms is 1973.
const SECONDS_THRESHOLD = 1e11;
const ISO_WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * Epoch milliseconds from an ISO 8601 string (a zone-less one is read as UTC, as the service
 * states all times are UTC), an epoch number (seconds or milliseconds, told apart by size), or
 * a string of digits. `undefined` when the value is none of those.
 */
export function parseTimestamp(value: string | number): number | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    return Math.abs(value) < SECONDS_THRESHOLD ? value * 1000 : value;
  }
  const text = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return parseTimestamp(Number(text));
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const ms = Date.parse(ISO_WITHOUT_ZONE.test(text) ? `${text}Z` : text);
  return Number.isNaN(ms) ? undefined : ms;
}
