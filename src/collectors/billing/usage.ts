/**
 * Reading Query Daily Usage: every page of one window, merged by day. The answer groups each
 * page's items by interval, so a day cut by a page boundary comes back as two partial intervals
 * with the same start; they are one day here.
 */
import { listEveryPage } from "../../polling/pager.js";
import { type CloudApi, ENDPOINT, type UsageItem, type UsagePage } from "../../upstream/types.js";
import { dayOf } from "./days.js";

/** The largest page the reference allows (pageSize 1..100): fewest calls. */
export const USAGE_PAGE_SIZE = 100;

/** One day as read: its currency and every item of it, from every page it appeared on. */
export interface DayUsage {
  readonly currency: string;
  readonly items: readonly UsageItem[];
}

/** One row of an answer: an item with the interval it was listed under. */
interface UsageRow {
  readonly intervalStartMs: number;
  readonly currency: string | null;
  readonly item: UsageItem;
  /** The row's identity: its content, and how many rows alike came before it on its page. */
  readonly key: string;
}

/**
 * A page's rows. A row has no ID of its own, so its content is its identity; two rows alike on
 * one page (an item's fields the exporter does not keep, such as cuType, may tell them apart)
 * are told apart by their order, so both count.
 */
function rowsOf(page: UsagePage): UsageRow[] {
  const alike = new Map<string, number>();
  return page.days.flatMap((d) =>
    d.items.map((item) => {
      const content = JSON.stringify([d.intervalStartMs, d.currency, item]);
      const n = alike.get(content) ?? 0;
      alike.set(content, n + 1);
      return { intervalStartMs: d.intervalStartMs, currency: d.currency, item, key: `${content}#${n}` };
    }),
  );
}

/**
 * Every item of the UTC days `start`..`end` (YYYY-MM-DD, as sent), by day, read through the one
 * pager: a repeated page is a paging error, so no row is ever added twice to a cost.
 */
export async function readUsage(
  client: CloudApi,
  start: string,
  end: string,
  signal?: AbortSignal,
): Promise<Map<string, DayUsage>> {
  const rows = await listEveryPage(
    {
      endpoint: ENDPOINT.queryDailyUsage,
      pageSize: USAGE_PAGE_SIZE,
      fetch: (page, s) => client.queryDailyUsage({ start, end, ...page }, s),
      items: rowsOf,
      key: (row) => row.key,
    },
    signal,
  );
  const days = new Map<string, { currency: string; items: UsageItem[] }>();
  for (const row of rows) {
    const day = dayOf(row.intervalStartMs);
    let entry = days.get(day);
    if (!entry) {
      entry = { currency: row.currency ?? "", items: [] };
      days.set(day, entry);
    }
    if (entry.currency === "" && row.currency !== null) entry.currency = row.currency;
    entry.items.push(row.item);
  }
  return days;
}
