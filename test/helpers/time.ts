/**
 * Spans of time in milliseconds, for tests that count in minutes and hours instead of writing
 * 60_000 and 3_600_000 again in every file.
 */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
