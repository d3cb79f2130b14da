import { describe, expect, it } from "vitest";
import type { CloudApi, ImportJob, ImportJobPage } from "../cloud/types.js";
import { listAllImportJobs, MAX_IMPORT_PAGES } from "./importJobs.js";

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

describe("listAllImportJobs", () => {
  it.each([
    {
      name: "count is the total: stops once every job is seen",
      total: 12,
      countIsTotal: true,
      pageSize: 5,
      wantPages: [1, 2, 3],
      wantJobs: 12,
    },
    {
      name: "count is the page length: follows full pages until a short one",
      total: 12,
      countIsTotal: false,
      pageSize: 5,
      wantPages: [1, 2, 3],
      wantJobs: 12,
    },
    {
      name: "exactly one full page, count per page: one extra request finds the end",
      total: 5,
      countIsTotal: false,
      pageSize: 5,
      wantPages: [1, 2],
      wantJobs: 5,
    },
    {
      // count == a full page reads the same either way: one extra request settles it.
      name: "exactly one full page, count is the total: ambiguous, one extra request",
      total: 10,
      countIsTotal: true,
      pageSize: 10,
      wantPages: [1, 2],
      wantJobs: 10,
    },
    { name: "no jobs", total: 0, countIsTotal: true, pageSize: 100, wantPages: [1], wantJobs: 0 },
  ])("$name", async ({ total, countIsTotal, pageSize, wantPages, wantJobs }) => {
    const { api, asked } = client((page, size) => {
      const list = jobs(Math.max(0, Math.min(size, total - (page - 1) * size)), (page - 1) * size);
      return { total: countIsTotal ? total : list.length, currentPage: page, pageSize: size, jobs: list };
    });
    const got = await listAllImportJobs(api, "in01-a", "aws-us-west-2", pageSize);
    expect(asked).toEqual(wantPages);
    expect(got.length).toBe(wantJobs);
    expect(new Set(got.map((j) => j.jobId)).size).toBe(wantJobs);
  });

  it("stops at the page cap when the upstream keeps returning full pages", async () => {
    const { api, asked } = client((page, size) => ({
      total: size,
      currentPage: page,
      pageSize: size,
      jobs: jobs(size, page * size),
    }));
    await listAllImportJobs(api, "in01-a", "r", 5);
    expect(asked.length).toBe(MAX_IMPORT_PAGES);
  });
});
