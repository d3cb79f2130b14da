import { describe, expect, it } from "vitest";
import type { Backup, BackupPage, CloudApi } from "../../upstream/types.js";
import { BACKUP_PAGE_SIZE, chooseListing, listBackupsOf } from "./listing.js";

describe("chooseListing", () => {
  it.each([
    // One page holds the organisation: nothing more to ask.
    { total: 40, clusters: 1, want: "organization" },
    // Two more pages against three clusters: the organisation's pages are fewer.
    { total: 250, clusters: 3, want: "organization" },
    // Ties go to the organisation (page 1 is already paid).
    { total: 300, clusters: 2, want: "organization" },
    // A shard polling one cluster of a large organisation lists just that cluster.
    { total: 5_000, clusters: 1, want: "per_cluster" },
    { total: 301, clusters: 2, want: "per_cluster" },
    // No total: keep paging the organisation.
    { total: null, clusters: 1, want: "organization" },
  ] as const)("$total backups, $clusters polled cluster(s): $want", ({ total, clusters, want }) => {
    expect(chooseListing(total, BACKUP_PAGE_SIZE, clusters)).toBe(want);
  });
});

/** A server holding `perCluster[id]` backups per cluster, newest first, paged as asked. */
function server(perCluster: Record<string, number>, opts: { count?: boolean } = {}) {
  const all: Backup[] = Object.entries(perCluster).flatMap(([clusterId, n]) =>
    Array.from({ length: n }, (_, i) => ({
      backupId: `${clusterId}-${i}`,
      clusterId,
      projectId: null,
      backupType: "CLUSTER",
      creationMethod: "AUTO",
      status: "AVAILABLE",
      sizeBytes: 1,
      createTimeMs: i,
    })),
  );
  const asked: string[] = [];
  const api = {
    listBackups: async (args: { clusterId?: string; pageSize: number; currentPage: number }) => {
      asked.push(`${args.clusterId ?? "org"}#${args.currentPage}`);
      const matching = all.filter((b) => args.clusterId === undefined || b.clusterId === args.clusterId);
      const backups = matching.slice(
        (args.currentPage - 1) * args.pageSize,
        args.currentPage * args.pageSize,
      );
      const page: BackupPage = {
        total: opts.count === false ? null : matching.length,
        currentPage: args.currentPage,
        pageSize: args.pageSize,
        listed: backups.length,
        backups,
      };
      return page;
    },
  } as unknown as CloudApi;
  return { api, asked, all };
}

const direct = (_id: string, list: () => Promise<Backup[]>) => list();

describe("listBackupsOf", () => {
  it("pages the organisation when that is cheaper, every page at 100", async () => {
    const { api, asked, all } = server({ a: 120, b: 80, c: 30 });
    const r = await listBackupsOf(api, ["a", "b", "c"], direct);
    expect(r.mode).toBe("organization");
    expect(asked).toEqual(["org#1", "org#2", "org#3"]);
    expect(r.backups).toHaveLength(all.length);
  });

  it("lists each polled cluster when the organisation has many more pages", async () => {
    const { api, asked } = server({ a: 150, b: 900, c: 900 });
    const r = await listBackupsOf(api, ["a"], direct);
    expect(r.mode).toBe("per_cluster");
    // Page 1 of the organisation, then the cluster's two pages: 3 calls instead of 20.
    expect(asked).toEqual(["org#1", "a#1", "a#2"]);
    expect(r.backups.filter((b) => b.clusterId === "a")).toHaveLength(150);
  });

  it("without a count, stops at the first short page", async () => {
    const { api, asked } = server({ a: 200 }, { count: false });
    const r = await listBackupsOf(api, ["a"], direct);
    // 100, 100, then an empty page: a full last page cannot be told from a middle one.
    expect(asked).toEqual(["org#1", "org#2", "org#3"]);
    expect(r.backups).toHaveLength(200);
  });
});
