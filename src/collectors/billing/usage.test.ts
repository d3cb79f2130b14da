import { describe, expect, it } from "vitest";
import { PagingError } from "../../polling/pager.js";
import type { CloudApi, UsageItem, UsagePage } from "../../upstream/types.js";
import { readUsage } from "./usage.js";

const item = (n: number): UsageItem => ({
  costType: "compute",
  clusterId: `c${n}`,
  projectId: "p",
  regionId: "r",
  quantity: "1",
  unit: "h",
  amount: String(n),
});
const DAY1 = Date.parse("2026-03-01T00:00:00Z");
const DAY2 = Date.parse("2026-03-02T00:00:00Z");

/** A usage API answering the given pages in turn; records the pages asked for. */
function api(pages: UsagePage[]) {
  const asked: number[] = [];
  const client = {
    queryDailyUsage: async (args: { currentPage: number; pageSize: number }) => {
      asked.push(args.currentPage);
      expect(args.pageSize).toBe(100);
      const page = pages[args.currentPage - 1];
      if (!page) throw new Error("no such page");
      return page;
    },
  } as unknown as CloudApi;
  return { client, asked };
}

const page = (total: number | null, days: UsagePage["days"], currentPage = 1): UsagePage => ({
  total,
  currentPage,
  pageSize: 100,
  listed: days.reduce((n, d) => n + d.items.length, 0),
  days,
});

describe("readUsage", () => {
  it("follows pages until total rows are read, merging a day cut by a page boundary", async () => {
    const first = Array.from({ length: 100 }, (_, i) => item(i));
    const { client, asked } = api([
      page(103, [{ intervalStartMs: DAY1, currency: "USD", items: first }]),
      page(
        103,
        [
          { intervalStartMs: DAY1, currency: null, items: [item(100)] },
          { intervalStartMs: DAY2, currency: "USD", items: [item(101), item(102)] },
        ],
        2,
      ),
    ]);
    const days = await readUsage(client, "2026-03-01", "2026-03-03");
    expect(asked).toEqual([1, 2]);
    expect(days.get("2026-03-01")?.items).toHaveLength(101);
    expect(days.get("2026-03-01")?.currency).toBe("USD");
    expect(days.get("2026-03-02")?.items.map((i) => i.clusterId)).toEqual(["c101", "c102"]);
  });

  it("without total, stops at a short page", async () => {
    const { client, asked } = api([
      page(null, [{ intervalStartMs: DAY1, currency: "USD", items: [item(1)] }]),
    ]);
    expect((await readUsage(client, "2026-03-01", "2026-03-02")).size).toBe(1);
    expect(asked).toEqual([1]);
  });

  it("fails rather than expose an incomplete day when pages end before total", async () => {
    const { client } = api([
      page(5, [{ intervalStartMs: DAY1, currency: "USD", items: [item(1)] }]),
      page(5, [], 2),
    ]);
    const err = await readUsage(client, "2026-03-01", "2026-03-02").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PagingError);
    expect((err as PagingError).reason).toBe("short_of_total");
  });

  it("fails rather than count a row twice when the server answers page 1 again", async () => {
    const rows = Array.from({ length: 100 }, (_, i) => item(i));
    const again = page(250, [{ intervalStartMs: DAY1, currency: "USD", items: rows }]);
    const { client, asked } = api([again, again, again]);
    const err = await readUsage(client, "2026-03-01", "2026-03-02").catch((e: unknown) => e);
    expect((err as PagingError).reason).toBe("repeated_page");
    expect((err as PagingError).endpoint).toBe("POST /v2/usage/query");
    expect(asked).toEqual([1, 2]);
  });

  it("keeps two rows alike on one page: both are the day's cost", async () => {
    const { client } = api([
      page(2, [{ intervalStartMs: DAY1, currency: "USD", items: [item(1), item(1)] }]),
    ]);
    expect((await readUsage(client, "2026-03-01", "2026-03-02")).get("2026-03-01")?.items).toHaveLength(2);
  });
});
