/**
 * Reading Query Daily Usage: every page of one window, merged by day. The answer groups each
 * page's items by interval, so a day cut by a page boundary comes back as two partial intervals
 * with the same start; they are one day here.
 */
import type { CloudApi, UsageItem } from "../../upstream/types.js";
import { dayOf } from "./days.js";

/** The largest page the reference allows (pageSize 1..100): fewest calls. */
export const USAGE_PAGE_SIZE = 100;
/**
 * Hard stop: a server that ignores `currentPage` would otherwise keep a poll going forever.
 * 200 pages of 100 rows is 20,000 rows: 31 days of 640 items.
 */
const MAX_USAGE_PAGES = 200;

/** One day as read: its currency and every item of it, from every page it appeared on. */
export interface DayUsage {
  readonly currency: string;
  readonly items: readonly UsageItem[];
}

/** The answer's pages did not add up to its `total` (the data would be incomplete). */
export class UsagePagingError extends Error {
  readonly code = "usage_paging";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UsagePagingError";
  }
}

/**
 * Every item of the UTC days `start`..`end` (YYYY-MM-DD, as sent), by day: pages of
 * USAGE_PAGE_SIZE until `total` rows are read (without `total`: until a short page).
 */
export async function readUsage(
  client: CloudApi,
  start: string,
  end: string,
  signal?: AbortSignal,
): Promise<Map<string, DayUsage>> {
  const days = new Map<string, { currency: string; items: UsageItem[] }>();
  let read = 0;
  for (let currentPage = 1; currentPage <= MAX_USAGE_PAGES; currentPage++) {
    const page = await client.queryDailyUsage({ start, end, pageSize: USAGE_PAGE_SIZE, currentPage }, signal);
    for (const interval of page.days) {
      const day = dayOf(interval.intervalStartMs);
      let entry = days.get(day);
      if (!entry) {
        entry = { currency: interval.currency ?? "", items: [] };
        days.set(day, entry);
      }
      if (entry.currency === "" && interval.currency !== null) entry.currency = interval.currency;
      entry.items.push(...interval.items);
    }
    read += page.rows;
    if (page.total === null) {
      if (page.rows < Math.min(page.pageSize, USAGE_PAGE_SIZE)) return days;
      continue;
    }
    if (read >= page.total) return days;
    if (page.rows === 0) {
      throw new UsagePagingError(
        `usage ${start}..${end}: page ${currentPage} was empty after ${read} of ${page.total} rows`,
      );
    }
  }
  throw new UsagePagingError(`usage ${start}..${end}: still rows to read after ${MAX_USAGE_PAGES} pages`);
}
