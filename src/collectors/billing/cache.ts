/**
 * The usage cache: complete days are read once and kept, so each interval re-reads only the
 * newest days (late corrections and today's partial day), and the whole month once a day.
 * The cache lives in a state slot: it survives reloads, and a new billing key (perhaps
 * another organization) empties it.
 */
import { stateSlot } from "../../polling/model.js";
import { addDays, dayOf, daysBetween, monthStart } from "./days.js";
import type { DayUsage } from "./usage.js";

/**
 * Complete days re-read at every poll besides today: the service corrects usage late, and
 * three days cover what its daily updates move.
 */
const RECENT_DAYS = 3;

/** What the billing collector keeps across polls and reloads. */
export interface BillingState {
  /** Read days by YYYY-MM-DD; a day read without items is kept as an empty day. */
  readonly days: Map<string, DayUsage>;
  /** The day the whole month was last read on (undefined: never). */
  fullReadDay: string | undefined;
  /** Fingerprint of the billing key the cache was filled with (never the key itself). */
  keyFingerprint: number | undefined;
}

export const BILLING_STATE = stateSlot<BillingState>("billing", () => ({
  days: new Map(),
  fullReadDay: undefined,
  keyFingerprint: undefined,
}));

/** One Query Daily Usage window: days `start`..`last` are read (`end` is what is sent). */
interface UsageWindow {
  readonly start: string;
  /** The newest day wanted: today. */
  readonly last: string;
  /**
   * Sent as `end`: the day after `last`. Whether the service's `end` is inclusive is not
   * documented; asking one day more and keeping days up to `last` is right either way.
   */
  readonly end: string;
  /** The whole month (and the recent days before it): the once-a-day read. */
  readonly full: boolean;
}

/** The oldest day the collector needs at `today`: the month's first, or the oldest recent day. */
export function oldestNeeded(today: string): string {
  const recent = addDays(today, -RECENT_DAYS);
  const first = monthStart(today);
  // Day strings sort as dates (Math.min would read them as numbers).
  const [oldest = first] = [recent, first].sort();
  return oldest;
}

/**
 * The window to read at `nowMs`: the whole month once a day (first poll of a UTC day, or an
 * empty cache), else today and the RECENT_DAYS before it.
 */
export function usageWindow(state: Pick<BillingState, "fullReadDay" | "days">, nowMs: number): UsageWindow {
  const today = dayOf(nowMs);
  const full =
    state.fullReadDay !== today || daysBetween(oldestNeeded(today), today).some((d) => !state.days.has(d));
  const start = full ? oldestNeeded(today) : addDays(today, -RECENT_DAYS);
  return { start, last: today, end: addDays(today, 1), full };
}

/**
 * Stores what a window's read found: every day of the window is replaced (a day without items
 * is kept empty: the service reported nothing for it), days the collector no longer needs are
 * dropped, and a full read is remembered for the day.
 */
export function storeWindow(
  state: BillingState,
  window: UsageWindow,
  read: ReadonlyMap<string, DayUsage>,
): void {
  for (const day of daysBetween(window.start, window.last)) {
    state.days.set(day, read.get(day) ?? { currency: "", items: [] });
  }
  const oldest = oldestNeeded(window.last);
  for (const day of state.days.keys()) if (day < oldest || day > window.last) state.days.delete(day);
  if (window.full) state.fullReadDay = window.last;
}
