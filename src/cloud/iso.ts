/**
 * ISO 8601 on the wire: UTC timestamps without milliseconds and durations such as PT1M30S
 * going out; timestamps as ISO strings or epoch numbers coming in.
 */

/** `2024-05-01T12:00:00Z`: UTC, whole seconds (milliseconds are truncated). */
export function formatIsoUtcSeconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * An ISO 8601 duration in hours, minutes and seconds (`PT30S`, `PT1M`, `PT1H30M`, `PT24H`),
 * rounded to whole seconds because the upstream's granularities are whole seconds.
 */
export function formatIsoDuration(ms: number): string {
  let seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds === 0) return "PT0S";
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  return `PT${hours > 0 ? `${hours}H` : ""}${minutes > 0 ? `${minutes}M` : ""}${seconds > 0 ? `${seconds}S` : ""}`;
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
