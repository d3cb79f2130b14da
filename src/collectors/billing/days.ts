/** UTC days as the billing endpoints name them: YYYY-MM-DD. */
import { DAY } from "../../shared/duration.js";

/** The UTC day of epoch milliseconds `ms`. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Epoch milliseconds of the start (00:00 UTC) of `day`. */
export function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** The day `n` days after `day` (before, for a negative `n`). */
export function addDays(day: string, n: number): string {
  return dayOf(dayStartMs(day) + n * DAY);
}

/** The first day of `day`'s month. */
export function monthStart(day: string): string {
  return `${day.slice(0, 8)}01`;
}

/** Days from `from` to `to`, both included, in order (none when `to` is before `from`). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
