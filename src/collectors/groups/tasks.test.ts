import { describe, expect, it } from "vitest";
import { MAX_PAGES, PagingError } from "../../polling/pager.js";
import type { CloudApi, GroupMemberPage } from "../../upstream/types.js";
import { COUNT_PAGE_SIZE, countGroupMembers, WALK_PAGE_SIZE } from "./tasks.js";

type Mode = "count" | "no-count" | "ignores-page";

/**
 * A fake server holding `total` members that caps the page size at `cap`, reports the size it
 * used, and gives `count` only in mode "count"; "ignores-page" always answers a full page 1.
 */
function server(total: number, cap: number, mode: Mode) {
  const asked: Array<{ page: number; size: number }> = [];
  const api = {
    listGroupMembers: async (args: { groupId: string; currentPage: number; pageSize: number }) => {
      asked.push({ page: args.currentPage, size: args.pageSize });
      const used = Math.min(args.pageSize, cap);
      const page = mode === "ignores-page" ? 1 : args.currentPage;
      const listed = mode === "ignores-page" ? used : Math.max(0, Math.min(used, total - (page - 1) * used));
      const answer: GroupMemberPage = {
        total: mode === "count" ? total : null,
        currentPage: args.currentPage,
        pageSize: used,
        listed,
        memberKeys: Array.from({ length: listed }, (_, i) => `m${(page - 1) * used + i}`),
      };
      return answer;
    },
  } as unknown as CloudApi;
  return { api, asked };
}

describe("countGroupMembers", () => {
  it.each([
    // The documented count: one small page, whatever the group's size.
    { total: 0, cap: 1000, mode: "count", want: 0, calls: 1 },
    { total: 5_000, cap: 1000, mode: "count", want: 5_000, calls: 1 },
    // No count, and page 1 is short: it lists the whole group.
    { total: 3, cap: 1000, mode: "no-count", want: 3, calls: 1 },
    { total: 0, cap: 1000, mode: "no-count", want: 0, calls: 1 },
    // No count and a full first page: counted page by page (pages 1..3 of 100, the last short).
    { total: 250, cap: 1000, mode: "no-count", want: 250, calls: 4 },
    // An exact multiple of the page size ends on an empty page.
    { total: 200, cap: 1000, mode: "no-count", want: 200, calls: 4 },
    // A server capping pages at 50 is followed with its size.
    { total: 120, cap: 50, mode: "no-count", want: 120, calls: 4 },
  ] as const)("$mode, $total members, pages capped at $cap: $want in $calls calls", async (c) => {
    const { api, asked } = server(c.total, c.cap, c.mode);
    expect(await countGroupMembers(api, "g")).toBe(c.want);
    expect(asked).toHaveLength(c.calls);
    expect(asked[0]).toEqual({ page: 1, size: COUNT_PAGE_SIZE });
    if (c.calls > 1) expect(asked[1]).toEqual({ page: 1, size: WALK_PAGE_SIZE });
  });

  it("fails with a paging error when the server answers page 1 again, never a count", async () => {
    const { api, asked } = server(0, 1000, "ignores-page");
    const err = await countGroupMembers(api, "g").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PagingError);
    expect((err as PagingError).reason).toBe("repeated_page");
    expect((err as PagingError).endpoint).toBe("GET /v2/groups/{groupId}/members");
    expect(asked).toHaveLength(3);
  });

  it("fails at the page cap when new members never end", async () => {
    let n = 0;
    const api = {
      listGroupMembers: async (args: { currentPage: number; pageSize: number }) => ({
        total: null,
        currentPage: args.currentPage,
        pageSize: args.pageSize,
        listed: args.pageSize,
        memberKeys: Array.from({ length: args.pageSize }, () => `m${n++}`),
      }),
    } as unknown as CloudApi;
    const err = await countGroupMembers(api, "g").catch((e: unknown) => e);
    expect((err as PagingError).reason).toBe("page_cap");
    expect(n).toBe(COUNT_PAGE_SIZE + MAX_PAGES * WALK_PAGE_SIZE);
  });
});
