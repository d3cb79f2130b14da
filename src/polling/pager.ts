/**
 * The one pager: every paged listing of the service is read through `listEveryPage`, so every
 * listing ends, fails and de-duplicates by the same rules (docs/design.md section 6):
 * - with a total, pages are read until that many items were listed; without one (or with one
 *   the listing already went past), until a short or empty page;
 * - a page the server repeats is a paging error, never data: an answer that reports another
 *   `currentPage` than the one asked, or that lists exactly the items of the page before;
 * - an empty page, or a short one, before the total is reached is a paging error;
 * - MAX_PAGES pages without an end is a paging error, and so is a total that more than MAX_PAGES
 *   pages of the size asked cannot hold, found at the first page (a server that reports 1e12
 *   items must not cost a thousand requests a cycle);
 * - a total smaller than one an earlier page reported is a paging error (the listing changed
 *   under the reader: what was read may hold rows of both versions);
 * - a listing whose total moved while it was read (items added or removed between its pages,
 *   as backups are all day) is read once more from page 1 before a paging error fails it: its
 *   pages did not add up because the listing changed, not because the server pages wrongly;
 * - a page longer than the size asked is a paging error, found by the client before any of its
 *   items is read (upstream/caller.ts).
 * A paging error fails the listing for the cycle (the poll's target goes down and keeps its last
 * good values until the staleness bound): partial data is never shown as complete, and an item
 * listed twice is kept once.
 */

import { PagingError } from "../upstream/pagingError.js";
import type { EndpointTemplate } from "../upstream/types.js";
import { PAGE_SIZE_MAX, type PageInfo, type PagingErrorReason } from "../upstream/types.js";

export { PagingError } from "../upstream/pagingError.js";
export type { PagingErrorReason } from "../upstream/types.js";

/**
 * The one page cap of every listing. The largest listing the reference implies is Query Daily
 * Usage over a whole month: 31 days of every cluster's cost types, 20,000 rows at 640 items a
 * day, 200 pages of the documented maximum of 100; 1,000 pages (100,000 items) leave room for
 * five times that, or for an organisation's backups at 1,000 clusters, and still stop a server
 * that invents items forever.
 */
export const MAX_PAGES = 1000;

/** The page a listing asks for; page numbers start at 1. */
export interface PageRequest {
  readonly pageSize: number;
  readonly currentPage: number;
}

/** How to read one listing. */
export interface Listing<P extends PageInfo, T> {
  /** The endpoint, for the paging error and its counter. */
  readonly endpoint: EndpointTemplate;
  /** The page size asked first (at most the documented 100); later pages follow the server's. */
  readonly pageSize: number;
  readonly fetch: (asked: PageRequest, signal?: AbortSignal) => Promise<P>;
  /** The items of a page that are kept (the page's `listed` counts the ones skipped too). */
  readonly items: (page: P) => readonly T[];
  /** An item's identity: an item listed again (a listing that moved between pages) is kept once. */
  readonly key: (item: T) => string;
}

/**
 * The page size to ask for after `page`: the size the server says it used (it may cap the one
 * asked for), so that page N+1 starts right after page N. A reported size that is not an
 * integer from 1 to the one asked for is ignored.
 */
export function nextPageSize(asked: number, page: Pick<PageInfo, "pageSize">): number {
  const reported = page.pageSize;
  return reported !== null && Number.isSafeInteger(reported) && reported >= 1 && reported <= asked
    ? reported
    : asked;
}

/**
 * The items of an answer that is not paged, each once by `key` (the first kept), in the order
 * listed: the rule `listEveryPage` holds for every listing, for the listings that have one page.
 */
export function eachOnce<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    if (!seen.has(k)) seen.set(k, item);
  }
  return [...seen.values()];
}

/**
 * Every item of a listing, each once (the first seen kept), in the order listed; rejects with a
 * PagingError when the pages do not add up (see the module comment), or with whatever a page's
 * call rejected with.
 */
export async function listEveryPage<P extends PageInfo, T>(
  listing: Listing<P, T>,
  signal?: AbortSignal,
): Promise<T[]> {
  for (let read = 0; ; read++) {
    const watch = { moved: false };
    try {
      return await readEveryPage(listing, watch, signal);
    } catch (error) {
      if (!(error instanceof PagingError && watch.moved) || read >= REREADS) throw error;
    }
  }
}

/** How many times a listing whose total moved while it was read is read again from page 1. */
const REREADS = 1;

/** One read of every page; `watch.moved` says whether a page reported another total than the first. */
async function readEveryPage<P extends PageInfo, T>(
  listing: Listing<P, T>,
  watch: { moved: boolean },
  signal: AbortSignal | undefined,
): Promise<T[]> {
  const { endpoint } = listing;
  const fail = (reason: PagingErrorReason, detail: string): never => {
    throw new PagingError(endpoint, reason, detail);
  };
  const seen = new Map<string, T>();
  let size = Math.min(listing.pageSize, PAGE_SIZE_MAX);
  // Items the reader could not use still count towards the total; an item listed twice, once.
  let skipped = 0;
  let previous: string | undefined;
  let firstTotal: number | null = null;
  for (let currentPage = 1; currentPage <= MAX_PAGES; currentPage++) {
    const page = await listing.fetch({ pageSize: size, currentPage }, signal);
    if (page.currentPage !== null && page.currentPage !== currentPage) {
      fail("repeated_page", `page ${currentPage} was answered as page ${page.currentPage}`);
    }
    const items = listing.items(page);
    const keys = items.map(listing.key);
    const fingerprint = keys.length > 0 ? `${page.listed}\u0000${keys.join("\u0000")}` : undefined;
    if (fingerprint !== undefined && fingerprint === previous) {
      fail("repeated_page", `page ${currentPage} listed the same items as page ${currentPage - 1}`);
    }
    previous = fingerprint;
    for (let i = 0; i < items.length; i++) {
      const key = keys[i] as string;
      if (!seen.has(key)) seen.set(key, items[i] as T);
    }
    skipped += Math.max(0, page.listed - items.length);
    const listed = seen.size + skipped;
    size = nextPageSize(size, page);
    if (page.total !== null) {
      if (firstTotal !== null && page.total !== firstTotal) watch.moved = true;
      if (firstTotal !== null && page.total < firstTotal) {
        fail(
          "shrinking_total",
          `page ${currentPage} reported ${page.total} items, an earlier page ${firstTotal}`,
        );
      }
      firstTotal ??= page.total;
      if (page.total > listed && Math.ceil((page.total - listed) / size) > MAX_PAGES - currentPage) {
        fail("page_cap", `${page.total} items reported: more than ${MAX_PAGES} pages of ${size} can hold`);
      }
    }
    // A total the listing already went past was not the listing's: short pages decide instead.
    const total = page.total !== null && page.total >= listed ? page.total : null;
    if (total !== null) {
      if (listed >= total) return [...seen.values()];
      if (page.listed === 0)
        fail("empty_page", `page ${currentPage} was empty at ${listed} of ${total} items`);
      if (page.listed < size) {
        fail("short_of_total", `page ${currentPage} was short at ${listed} of ${total} items`);
      }
    } else if (page.listed < size) {
      return [...seen.values()];
    }
  }
  return fail("page_cap", `still more items after ${MAX_PAGES} pages (${seen.size + skipped} listed)`);
}
