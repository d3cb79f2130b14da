import { describe, expect, it } from "vitest";
import type { Backup, BackupPage, CloudApi } from "../../upstream/types.js";
import { BACKUP_PAGE_SIZE, chooseListing, listBackupsOf } from "./listing.js";
import { mapBackups } from "./mapping.js";

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

describe("a backup listed twice", () => {
  const backup = (backupId: string, clusterId: string): Backup => ({
    backupId,
    clusterId,
    projectId: null,
    backupType: "CLUSTER",
    creationMethod: "AUTO",
    status: "AVAILABLE",
    sizeBytes: 1000,
    createTimeMs: 0,
  });
  const page = (backups: Backup[], total: number, currentPage: number, pageSize: number): BackupPage => ({
    total,
    currentPage,
    pageSize,
    listed: backups.length,
    backups,
  });
  const available = (r: ReturnType<typeof mapBackups>, cluster: string) =>
    r.samples.find(
      (s) =>
        s.family === "vdbcloud_backups" &&
        s.labels.cluster_id === cluster &&
        s.labels.creation_method === "auto" &&
        s.labels.status === "available",
    )?.value;

  it("while paging (the listing moved between pages) is kept once by the pager, and counted once", async () => {
    // Two a page: page 2 repeats page 1's last backup.
    const pages = [
      [backup("a1", "in01-a"), backup("a2", "in01-a")],
      [backup("a2", "in01-a"), backup("a3", "in01-a")],
    ];
    const api = {
      listBackups: async (args: { currentPage: number }) =>
        page(pages[args.currentPage - 1] ?? [], 3, args.currentPage, 2),
    } as unknown as CloudApi;
    const r = await listBackupsOf(api, ["in01-a"], direct);
    expect(r.mode).toBe("organization");
    expect(r.backups.map((b) => b.backupId)).toEqual(["a1", "a2", "a3"]);
    const mapped = mapBackups(r.backups, ["in01-a"]);
    expect(available(mapped, "in01-a")).toBe(3);
    expect(mapped.samples.find((s) => s.family === "vdbcloud_backup_size_bytes")?.value).toBe(3000);
  });

  it("by two clusters' listings (a server that ignored the filter) is kept in its own cluster's only", async () => {
    const asked: string[] = [];
    const api = {
      listBackups: async (args: { clusterId?: string; currentPage: number }) => {
        asked.push(`${args.clusterId ?? "org"}#${args.currentPage}`);
        // The organisation's page 1 says it is large: each polled cluster is listed instead.
        if (args.clusterId === undefined) return page([], 5_000, 1, 100);
        return page([backup("a-0", "a"), backup("b-0", "b")], 2, args.currentPage, 100);
      },
    } as unknown as CloudApi;
    const r = await listBackupsOf(api, ["a", "b"], direct);
    expect(r.mode).toBe("per_cluster");
    expect(asked).toEqual(["org#1", "a#1", "b#1"]);
    expect(r.backups.map((b) => b.backupId)).toEqual(["a-0", "b-0"]);
    const mapped = mapBackups(r.backups, ["a", "b"]);
    expect([available(mapped, "a"), available(mapped, "b")]).toEqual([1, 1]);
  });
});
