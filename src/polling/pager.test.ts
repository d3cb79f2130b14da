import { describe, expect, it } from "vitest";
import type { PageInfo } from "../upstream/types.js";
import {
  eachOnce,
  type Listing,
  listEveryPage,
  MAX_PAGES,
  nextPageSize,
  type PageRequest,
  PagingError,
} from "./pager.js";

interface FakePage extends PageInfo {
  readonly ids: readonly string[];
}

/** How the fake server answers: an honest server unless a field says otherwise. */
interface Server {
  /** How many items the listing really holds (Infinity: it invents them forever). */
  readonly items: number;
  /** The total it reports: "truth", "none", or a number (above or below the truth). */
  readonly total?: "truth" | "none" | number;
  /** The page size it really uses (it may cap the one asked for), and reports. */
  readonly capsPageSizeAt?: number;
  /** From this page on, it answers with page 1's items. */
  readonly repeatsPage1From?: number;
  /** With `repeatsPage1From`: the currentPage it reports, the one asked ("asked") or 1 ("echo"). */
  readonly reports?: "asked" | "echo" | "nothing";
  /** This page comes back empty, whatever it should hold. */
  readonly emptyPage?: number;
  /** Each page repeats the last item of the page before (a listing that moved between pages). */
  readonly overlapsByOne?: boolean;
  /** Items the reader skips as unusable: every 10th one is listed but not kept. */
  readonly skipsEveryTenth?: boolean;
}

function fakeListing(server: Server, calls: PageRequest[]): Listing<FakePage, string> {
  return {
    endpoint: "GET /v2/backups",
    pageSize: 100,
    fetch: async (asked) => {
      calls.push(asked);
      const size = Math.min(asked.pageSize, server.capsPageSizeAt ?? asked.pageSize);
      const repeats = server.repeatsPage1From !== undefined && asked.currentPage >= server.repeatsPage1From;
      const page = repeats ? 1 : asked.currentPage;
      let start = (page - 1) * size;
      if (server.overlapsByOne === true && page > 1) start -= 1;
      const end = Math.min(server.items, start + size);
      const all: string[] = [];
      if (server.emptyPage !== asked.currentPage) for (let i = start; i < end; i++) all.push(`item-${i}`);
      const ids = server.skipsEveryTenth === true ? all.filter((id) => !id.endsWith("9")) : all;
      const reported = server.reports ?? "asked";
      return {
        ids,
        listed: all.length,
        total:
          server.total === undefined || server.total === "truth"
            ? Number.isFinite(server.items)
              ? server.items
              : null
            : server.total === "none"
              ? null
              : server.total,
        currentPage: reported === "nothing" ? null : repeats && reported === "echo" ? 1 : asked.currentPage,
        pageSize: size,
      };
    },
    items: (page) => page.ids,
    key: (id) => id,
  };
}

describe("listEveryPage", () => {
  it.each<{ name: string; server: Server; items: number; calls: number }>([
    { name: "no total, 0 items", server: { items: 0, total: "none" }, items: 0, calls: 1 },
    { name: "no total, 1 item", server: { items: 1, total: "none" }, items: 1, calls: 1 },
    { name: "no total, 99 items", server: { items: 99, total: "none" }, items: 99, calls: 1 },
    {
      name: "no total, 100 items (an empty page ends it)",
      server: { items: 100, total: "none" },
      items: 100,
      calls: 2,
    },
    { name: "no total, 101 items", server: { items: 101, total: "none" }, items: 101, calls: 2 },
    { name: "no total, 250 items", server: { items: 250, total: "none" }, items: 250, calls: 3 },
    {
      name: "no total and no position, 150 items",
      server: { items: 150, total: "none", reports: "nothing" },
      items: 150,
      calls: 2,
    },
    { name: "an honest total, 250 items", server: { items: 250 }, items: 250, calls: 3 },
    {
      name: "an honest total, 200 items: no call past the total",
      server: { items: 200 },
      items: 200,
      calls: 2,
    },
    { name: "an honest total of 0", server: { items: 0 }, items: 0, calls: 1 },
    {
      name: "a total below the truth (150 of 250): short pages decide",
      server: { items: 250, total: 150 },
      items: 250,
      calls: 3,
    },
    { name: "a total of 0 with items listed", server: { items: 30, total: 0 }, items: 30, calls: 1 },
    {
      name: "a server capping the page size at 50",
      server: { items: 250, capsPageSizeAt: 50 },
      items: 250,
      calls: 5,
    },
    {
      name: "a server capping at 50 without a total",
      server: { items: 120, total: "none", capsPageSizeAt: 50 },
      items: 120,
      calls: 3,
    },
    {
      name: "a listing that moved: an item listed twice is kept once",
      server: { items: 250, total: "none", overlapsByOne: true },
      items: 250,
      calls: 3,
    },
    {
      name: "unusable items still count as listed",
      server: { items: 250, skipsEveryTenth: true },
      items: 225,
      calls: 3,
    },
  ])("$name: $items items in $calls calls", async ({ server, items, calls }) => {
    const asked: PageRequest[] = [];
    const got = await listEveryPage(fakeListing(server, asked));
    expect(got).toHaveLength(items);
    expect(new Set(got).size).toBe(items);
    expect(asked).toHaveLength(calls);
    expect(asked.map((a) => a.currentPage)).toEqual(Array.from({ length: calls }, (_, i) => i + 1));
  });

  it.each<{ name: string; server: Server; reason: string; calls: number }>([
    {
      name: "a server that ignores currentPage and says page 1",
      server: { items: 250, repeatsPage1From: 2, reports: "echo" },
      reason: "repeated_page",
      calls: 2,
    },
    {
      name: "a server that repeats page 1 under the page number asked",
      server: { items: 250, repeatsPage1From: 2, reports: "asked" },
      reason: "repeated_page",
      calls: 2,
    },
    {
      name: "a repeated page without a total or a position",
      server: { items: 250, total: "none", repeatsPage1From: 2, reports: "nothing" },
      reason: "repeated_page",
      calls: 2,
    },
    {
      name: "a server that answers page 1 again from page 3 on (page 2 honest)",
      server: { items: 450, repeatsPage1From: 3, reports: "asked" },
      reason: "repeated_page",
      calls: 4,
    },
    {
      name: "a total above the truth (300 of 250)",
      server: { items: 250, total: 300 },
      reason: "short_of_total",
      calls: 3,
    },
    {
      name: "an empty page before the total",
      server: { items: 250, emptyPage: 2 },
      reason: "empty_page",
      calls: 2,
    },
    {
      name: "an empty first page with a total",
      server: { items: 250, emptyPage: 1 },
      reason: "empty_page",
      calls: 1,
    },
    {
      name: "a server that invents items forever",
      server: { items: Number.POSITIVE_INFINITY, total: "none" },
      reason: "page_cap",
      calls: MAX_PAGES,
    },
  ])(
    "$name: a paging error ($reason) after $calls calls, never partial data",
    async ({ server, reason, calls }) => {
      const asked: PageRequest[] = [];
      const err = await listEveryPage(fakeListing(server, asked)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PagingError);
      expect((err as PagingError).reason).toBe(reason);
      expect((err as PagingError).code).toBe("paging_error");
      expect((err as PagingError).endpoint).toBe("GET /v2/backups");
      expect((err as PagingError).message).toMatch(
        new RegExp(`^GET /v2/backups: paging error \\(${reason}\\)`),
      );
      expect(asked).toHaveLength(calls);
    },
  );

  it("a page that repeats the page before it (not page 1) is a repeated page", async () => {
    const asked: PageRequest[] = [];
    const listing = fakeListing({ items: 500 }, asked);
    const err = await listEveryPage({
      ...listing,
      fetch: (page, s) =>
        listing
          .fetch(page.currentPage === 3 ? { ...page, currentPage: 2 } : page, s)
          .then((p) => ({ ...p, currentPage: page.currentPage })),
    }).catch((e: unknown) => e);
    expect((err as PagingError).reason).toBe("repeated_page");
    expect(asked).toHaveLength(3);
  });

  it("an item listed again keeps its first listing, by the listing's key, in listed order", async () => {
    // A listing that moved between pages: page 2 repeats "b" (changed since page 1) by its key.
    interface Row extends PageInfo {
      readonly rows: readonly { readonly id: string; readonly v: number }[];
    }
    const pages: Row["rows"][] = [
      [
        { id: "a", v: 1 },
        { id: "b", v: 1 },
      ],
      [
        { id: "b", v: 2 },
        { id: "c", v: 1 },
      ],
    ];
    const got = await listEveryPage<Row, Row["rows"][number]>({
      endpoint: "GET /v2/backups",
      pageSize: 2,
      fetch: async ({ currentPage }) => {
        const rows = pages[currentPage - 1] ?? [];
        return { rows, listed: rows.length, total: 3, currentPage, pageSize: 2 };
      },
      items: (page) => page.rows,
      key: (row) => row.id,
    });
    expect(got).toEqual([
      { id: "a", v: 1 },
      { id: "b", v: 1 },
      { id: "c", v: 1 },
    ]);
  });

  it("passes on the failure of a page's call as it is", async () => {
    const boom = new Error("503");
    const listing = fakeListing({ items: 250 }, []);
    await expect(
      listEveryPage({
        ...listing,
        fetch: (p, s) => (p.currentPage === 2 ? Promise.reject(boom) : listing.fetch(p, s)),
      }),
    ).rejects.toBe(boom);
  });

  it("asks at most the documented page size of 100", async () => {
    const asked: PageRequest[] = [];
    await listEveryPage({ ...fakeListing({ items: 10 }, asked), pageSize: 500 });
    expect(asked[0]?.pageSize).toBe(100);
  });
});

/**
 * A listing of `n` items, newest first, that changes while it is read: after each call whose
 * number is in `after`, one item is added at its front (a backup just taken) or its front item
 * is removed (one that expired).
 */
function movingListing(
  n: number,
  change: "add" | "remove",
  after: readonly number[],
  calls: PageRequest[],
): Listing<FakePage, string> {
  let items = Array.from({ length: n }, (_, i) => `item-${i}`);
  let added = 0;
  return {
    endpoint: "GET /v2/backups",
    pageSize: 100,
    fetch: async (asked) => {
      calls.push(asked);
      const start = (asked.currentPage - 1) * asked.pageSize;
      const ids = items.slice(start, start + asked.pageSize);
      const page = {
        ids,
        listed: ids.length,
        total: items.length,
        currentPage: asked.currentPage,
        pageSize: 100,
      };
      if (after.includes(calls.length))
        items = change === "add" ? [`new-${added++}`, ...items] : items.slice(1);
      return page;
    },
    items: (page) => page.ids,
    key: (id) => id,
  };
}

describe("listEveryPage: a listing that changes while it is read", () => {
  it.each<{
    name: string;
    n: number;
    change: "add" | "remove";
    after: number[];
    items: number;
    pages: number[];
  }>([
    {
      name: "an item added at the front after page 1 (page 3 then falls short of the grown total)",
      n: 250,
      change: "add",
      after: [1],
      items: 251,
      pages: [1, 2, 3, 1, 2, 3],
    },
    {
      name: "an item removed from the front after page 1 (the total shrinks)",
      n: 250,
      change: "remove",
      after: [1],
      items: 249,
      pages: [1, 2, 1, 2, 3],
    },
    {
      name: "an item added at the front after the last page: nothing to read again",
      n: 250,
      change: "add",
      after: [3],
      items: 250,
      pages: [1, 2, 3],
    },
  ])("$name: read once more from page 1, $items items", async ({ n, change, after, items, pages }) => {
    const asked: PageRequest[] = [];
    const got = await listEveryPage(movingListing(n, change, after, asked));
    expect(got).toHaveLength(items);
    expect(new Set(got).size).toBe(items);
    expect(asked.map((a) => a.currentPage)).toEqual(pages);
  });

  it("fails with the second read's paging error when the listing changes again while read again", async () => {
    const asked: PageRequest[] = [];
    const err = await listEveryPage(movingListing(250, "add", [1, 4], asked)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PagingError);
    expect((err as PagingError).reason).toBe("short_of_total");
    expect(asked.map((a) => a.currentPage)).toEqual([1, 2, 3, 1, 2, 3]);
  });
});

describe("eachOnce", () => {
  it.each([
    { name: "no repeat", items: ["a", "b"], want: ["a", "b"] },
    { name: "a repeat keeps the first, in listed order", items: ["a:1", "b:1", "a:2"], want: ["a:1", "b:1"] },
    { name: "nothing", items: [], want: [] },
  ])("$name", ({ items, want }) => {
    expect(eachOnce(items, (i) => i.split(":")[0] ?? i)).toEqual(want);
  });
});

describe("nextPageSize", () => {
  const asked = 100;
  it.each<[reported: number | null, want: number]>([
    [50, 50],
    [100, 100],
    [500, 100],
    [0, 100],
    [2.5, 100],
    [null, 100],
  ])(`asked ${asked}, reported $0 -> $1`, (reported, want) => {
    expect(nextPageSize(asked, { pageSize: reported })).toBe(want);
  });
});

describe("listEveryPage: totals that cannot be read", () => {
  /** A listing whose answer for page N is `pages[N - 1]`. */
  function scripted(pages: readonly { total: number | null; listed: number }[], calls: PageRequest[]) {
    return {
      endpoint: "GET /v2/clusters" as const,
      pageSize: 100,
      fetch: async (asked: PageRequest) => {
        calls.push(asked);
        const p = pages[asked.currentPage - 1] ?? { total: null, listed: 0 };
        const ids = Array.from({ length: p.listed }, (_, i) => `p${asked.currentPage}-${i}`);
        return { ids, listed: p.listed, total: p.total, currentPage: asked.currentPage, pageSize: 100 };
      },
      items: (page: FakePage) => page.ids,
      key: (id: string) => id,
    };
  }

  it.each([
    {
      name: "a total reported as 1e12: page_cap at page 1, one request",
      pages: [{ total: 1e12, listed: 100 }],
      reason: "page_cap",
      requests: 1,
    },
    {
      name: "a total just past what MAX_PAGES pages hold: page_cap at page 1",
      pages: [{ total: MAX_PAGES * 100 + 1, listed: 100 }],
      reason: "page_cap",
      requests: 1,
    },
    {
      name: "a total that shrinks from page 1 to page 2, again when read again: shrinking_total",
      pages: [
        { total: 300, listed: 100 },
        { total: 250, listed: 100 },
      ],
      reason: "shrinking_total",
      requests: 4,
    },
  ])("$name", async ({ pages, reason, requests }) => {
    const calls: PageRequest[] = [];
    const err = await listEveryPage(scripted(pages, calls)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PagingError);
    expect((err as PagingError).reason).toBe(reason);
    expect(calls).toHaveLength(requests);
  });

  it.each([
    ["a total MAX_PAGES pages hold exactly", MAX_PAGES * 100],
    ["a total that grows from page 1 to page 2 (read on, as before)", 150],
  ])("%s: not refused at page 1", async (_name, first) => {
    const calls: PageRequest[] = [];
    const listing = scripted(
      [
        { total: first, listed: 100 },
        { total: 200, listed: 100 },
      ],
      calls,
    );
    const err = await listEveryPage(listing).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Past page 2 the script answers empty pages: whatever fails, it is not at page 1.
    expect(calls.length).toBeGreaterThan(1);
    if (err !== undefined) expect((err as PagingError).reason).not.toBe("page_cap");
  });
});
