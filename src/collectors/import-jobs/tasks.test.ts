import type { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_PAGES, PagingError } from "../../polling/pager.js";
import { closeTestClients, mockUpstream, testClient } from "../../upstream/testkit.js";
import type { CloudApi, ImportJob, ImportJobPage } from "../../upstream/types.js";
import { listAllImportJobs } from "./tasks.js";

function jobs(n: number, from = 0): ImportJob[] {
  return Array.from({ length: n }, (_, i) => ({
    jobId: `j${from + i}`,
    collectionName: "c",
    state: "ImportRunning",
  }));
}

/** A client whose List Import Jobs answers from `pages` (1-based), recording the pages asked. */
function client(pages: (page: number, size: number) => ImportJobPage): { api: CloudApi; asked: number[] } {
  const asked: number[] = [];
  const api = {
    listImportJobs: async (args: { currentPage: number; pageSize: number }) => {
      asked.push(args.currentPage);
      return pages(args.currentPage, args.pageSize);
    },
  } as unknown as CloudApi;
  return { api, asked };
}

type CountMode = "total" | "page" | "high" | "low";

/**
 * A fake server holding `total` jobs that caps the page size at `cap`, reports the size it used,
 * and fills `count` as `mode` says: the true total, the page's length, 40 too many, or 3.
 */
function server(total: number, cap: number, mode: CountMode) {
  return (page: number, size: number): ImportJobPage => {
    const used = Math.min(size, cap);
    const from = (page - 1) * used;
    const list = jobs(Math.max(0, Math.min(used, total - from)), from);
    const count = { total, page: list.length, high: total + 40, low: 3 }[mode];
    return { total: count, currentPage: page, pageSize: used, listed: list.length, jobs: list };
  };
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe("listAllImportJobs", () => {
  it.each([
    // An honest count: exactly the pages that exist, at any cap (a multiple of the cap too).
    { total: 23, cap: 5, mode: "total", want: range(5) },
    { total: 23, cap: 7, mode: "total", want: range(4) },
    { total: 21, cap: 7, mode: "total", want: range(3) },
    { total: 23, cap: 10, mode: "total", want: range(3) },
    { total: 100, cap: 100, mode: "total", want: [1] },
    { total: 250, cap: 100, mode: "total", want: range(3) },
    { total: 0, cap: 5, mode: "total", want: [1] },
    // A count that is only the page's length, or lies low: a short page ends it once the count
    // is seen to be no total; a full first page whose count equals it reads as complete.
    { total: 23, cap: 7, mode: "low", want: range(4) },
    { total: 3, cap: 7, mode: "page", want: [1] },
  ] as const)("$total jobs, cap $cap, count $mode: pages $want", async ({ total, cap, mode, want }) => {
    const { api, asked } = client(server(total, cap, mode));
    const got = await listAllImportJobs(api, "in01-a", "aws-us-west-2", 100);
    expect(asked).toEqual(want);
    expect(got.map((j) => j.jobId)).toEqual(jobs(total).map((j) => j.jobId));
  });

  it.each([
    { cap: 5, want: range(5) },
    { cap: 7, want: range(4) },
  ])(
    "a count that lies high fails the listing at the short page (cap $cap): no partial list",
    async ({ cap, want }) => {
      const { api, asked } = client(server(23, cap, "high"));
      const err = await listAllImportJobs(api, "in01-a", "aws-us-west-2", 100).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PagingError);
      expect((err as PagingError).reason).toBe("short_of_total");
      expect((err as PagingError).endpoint).toBe("GET /v1/vector/collections/import/list");
      expect(asked).toEqual(want);
    },
  );

  it("asks the next page with the page size the server reported", async () => {
    const sizes: number[] = [];
    const fake = server(12, 5, "total");
    const { api } = client((page, size) => {
      sizes.push(size);
      return fake(page, size);
    });
    await listAllImportJobs(api, "in01-a", "r", 100);
    expect(sizes).toEqual([100, 5, 5]);
  });

  it("ignores a reported page size larger than the one asked for", async () => {
    const sizes: number[] = [];
    const { api } = client((page, size) => {
      sizes.push(size);
      const list = jobs(page === 3 ? 2 : 10, (page - 1) * 10);
      return { total: 22, currentPage: page, pageSize: 500, listed: list.length, jobs: list };
    });
    expect(await listAllImportJobs(api, "in01-a", "r", 10)).toHaveLength(22);
    expect(sizes).toEqual([10, 10, 10]);
  });

  it("fails the listing when the server ignores currentPage (page 1 again): a repeated page", async () => {
    const { api, asked } = client(() => ({
      total: 50,
      currentPage: 1,
      pageSize: 5,
      listed: 5,
      jobs: jobs(5),
    }));
    const err = await listAllImportJobs(api, "in01-a", "r", 5).catch((e: unknown) => e);
    expect((err as PagingError).reason).toBe("repeated_page");
    expect(asked).toEqual([1, 2]);
  });

  it("lists a job repeated across pages once", async () => {
    const { api } = client((page) => ({
      total: 9,
      currentPage: page,
      pageSize: 5,
      listed: 5,
      jobs: page === 1 ? jobs(5) : jobs(5, 4),
    }));
    const got = await listAllImportJobs(api, "in01-a", "r", 5);
    expect(got.map((j) => j.jobId)).toEqual(jobs(9).map((j) => j.jobId));
  });

  it.each<[what: string, total: number | null, calls: number]>([
    // A total the page cap cannot hold is refused at once, not after the whole budget is spent.
    ["a total no page cap can hold", 1e9, 1],
    ["no total at all", null, MAX_PAGES],
  ])(
    "fails at the page cap when the upstream keeps inventing full pages: %s",
    async (_what, total, calls) => {
      const { api, asked } = client((page, size) => ({
        total,
        currentPage: page,
        pageSize: size,
        listed: size,
        jobs: jobs(size, page * size),
      }));
      const err = await listAllImportJobs(api, "in01-a", "r", 5).catch((e: unknown) => e);
      expect((err as PagingError).reason).toBe("page_cap");
      expect(asked.length).toBe(calls);
    },
  );
});

const CONTROLLER = "https://controller.api.aws-us-west-2.vdbcloud.test";

/**
 * Serves `total` jobs over HTTP the way a capping server would: at most `cap` per page, the
 * capped `pageSize` reported, `count` from `countOf`, jobs under `tasks` with an empty `records`
 * beside them. Returns the (currentPage, pageSize) of every call.
 */
function serveListing(
  upstream: MockAgent,
  total: number,
  cap: number,
  countOf: (total: number) => number,
): string[] {
  const calls: string[] = [];
  upstream
    .get(CONTROLLER)
    .intercept({ method: "GET", path: (p) => p.split("?")[0] === "/v1/vector/collections/import/list" })
    .reply(({ path }) => {
      const q = new URL(path, CONTROLLER).searchParams;
      const page = Number(q.get("currentPage"));
      const used = Math.min(Number(q.get("pageSize")), cap);
      calls.push(`${page}x${q.get("pageSize")}`);
      const from = (page - 1) * used;
      const tasks = jobs(Math.max(0, Math.min(used, total - from)), from);
      const data = { count: String(countOf(total)), currentPage: String(page), pageSize: String(used) };
      return { statusCode: 200, data: { code: 200, data: { ...data, records: [], tasks } } };
    })
    .persist();
  return calls;
}

describe("listAllImportJobs over HTTP against a capping server", () => {
  let upstream: MockAgent;
  beforeEach(() => {
    upstream = mockUpstream();
  });
  afterEach(async () => {
    await closeTestClients();
  });

  it.each([
    { cap: 5, total: 23, want: ["1x100", "2x5", "3x5", "4x5", "5x5"] },
    { cap: 7, total: 23, want: ["1x100", "2x7", "3x7", "4x7"] },
    // v1's count is no total: an exact multiple ends on an empty page.
    { cap: 10, total: 30, want: ["1x100", "2x10", "3x10", "4x10"] },
    { cap: 100, total: 23, want: ["1x100"] },
    { cap: 100, total: 200, want: ["1x100", "2x100", "3x100"] },
  ])("cap $cap, $total jobs: every job, one call per page (and one empty)", async ({ cap, total, want }) => {
    const calls = serveListing(upstream, total, cap, (n) => n);
    const { client } = testClient();
    const got = await listAllImportJobs(client, "in01-a", "aws-us-west-2", 100);
    expect(got.map((j) => j.jobId)).toEqual(jobs(total).map((j) => j.jobId));
    expect(calls).toEqual(want);
  });

  // v1 documents `count` as the records listed in this response: never the listing's total.
  it.each([
    { name: "low", countOf: () => 3 },
    { name: "high", countOf: (n: number) => n + 40 },
    { name: "the page's length", countOf: () => 7 },
  ])("a v1 count that says $name changes nothing: every job, read to the short page", async ({ countOf }) => {
    const calls = serveListing(upstream, 23, 7, countOf);
    const { client } = testClient();
    const got = await listAllImportJobs(client, "in01-a", "aws-us-west-2", 100);
    expect(got.map((j) => j.jobId)).toEqual(jobs(23).map((j) => j.jobId));
    expect(calls).toEqual(["1x100", "2x7", "3x7", "4x7"]);
  });
});
