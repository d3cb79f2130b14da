import { describe, expect, it } from "vitest";
import { SAMPLE_BACKUP_POLICY } from "../../upstream/testkit.js";
import type { Backup, BackupPolicy } from "../../upstream/types.js";
import { BackupsByCluster, mapBackups, mapPolicy } from "./mapping.js";

const T = Date.UTC(2026, 0, 14, 2);
const DAY = 86_400_000;

function backup(over: Partial<Backup> & Pick<Backup, "backupId">): Backup {
  return {
    clusterId: "in01-a",
    projectId: "p",
    backupType: "CLUSTER",
    creationMethod: "AUTO",
    status: "AVAILABLE",
    sizeBytes: 100,
    createTimeMs: T,
    ...over,
  };
}

function samples(r: ReturnType<typeof mapBackups>) {
  return r.samples.map((s) => [s.family, s.labels, s.value]);
}

describe("BackupsByCluster", () => {
  // Six listed backups of three clusters, as the pager gives them: each once (a backup listed
  // twice while paging is kept once by the pager: listing.test.ts).
  const listed = [
    backup({ backupId: "a1" }),
    backup({ backupId: "b1", clusterId: "in01-b" }),
    backup({ backupId: "a2" }),
    backup({ backupId: "b2", clusterId: "in01-b" }),
    backup({ backupId: "c1", clusterId: "in01-c" }),
    backup({ backupId: "a3" }),
  ];
  it.each([1, 2, 3, 6, 7, 100])(
    "groups the same in slices of %i: each backup once, in listed order",
    (slice) => {
      const byCluster = new BackupsByCluster();
      for (let i = 0; i < listed.length; i += slice) byCluster.add(listed, i, i + slice);
      const ids = (cluster: string) => byCluster.of(cluster).map((b) => b.backupId);
      expect(ids("in01-a")).toEqual(["a1", "a2", "a3"]);
      expect(ids("in01-b")).toEqual(["b1", "b2"]);
      expect(ids("in01-c")).toEqual(["c1"]);
      expect(ids("in01-none")).toEqual([]);
    },
  );

  it("maps the same whether mapBackups is given the listing or its grouping", () => {
    const clusters = ["in01-a", "in01-b", "in01-none"];
    const grouped = new BackupsByCluster();
    for (let i = 0; i < listed.length; i += 2) grouped.add(listed, i, i + 2);
    const fromGrouped = mapBackups(grouped, clusters);
    expect(fromGrouped.samples.length).toBeGreaterThan(0);
    expect(fromGrouped).toEqual(mapBackups(listed, clusters));
  });

  it("adds only the slice asked for", () => {
    const byCluster = new BackupsByCluster();
    byCluster.add(listed, 1, 3);
    expect(byCluster.of("in01-a").map((b) => b.backupId)).toEqual(["a2"]);
    expect(byCluster.of("in01-b").map((b) => b.backupId)).toEqual(["b1"]);
    expect(byCluster.of("in01-c")).toEqual([]);
  });
});

describe("mapBackups", () => {
  it("counts, sums, and keeps the newest success per method and type and the oldest still creating", () => {
    const r = mapBackups(
      [
        backup({ backupId: "a1", createTimeMs: T, sizeBytes: 1000 }),
        backup({ backupId: "a2", createTimeMs: T - DAY, sizeBytes: 2000 }),
        backup({
          backupId: "m1",
          creationMethod: "MANUAL",
          backupType: "COLLECTION",
          createTimeMs: T - 2 * DAY,
          sizeBytes: 30,
        }),
        backup({ backupId: "c1", status: "CREATING", createTimeMs: T + 3_600_000, sizeBytes: 0 }),
        backup({ backupId: "c2", status: "CREATING", createTimeMs: T + 60_000, sizeBytes: null }),
        // Another cluster's backup: not polled here.
        backup({ backupId: "x", clusterId: "in01-other" }),
      ],
      ["in01-a"],
    );
    const id = { cluster_id: "in01-a" };
    expect(samples(r)).toEqual([
      ["vdbcloud_backups", { ...id, creation_method: "auto", status: "available" }, 2],
      ["vdbcloud_backups", { ...id, creation_method: "auto", status: "creating" }, 2],
      ["vdbcloud_backups", { ...id, creation_method: "manual", status: "available" }, 1],
      ["vdbcloud_backups", { ...id, creation_method: "manual", status: "creating" }, 0],
      ["vdbcloud_backup_size_bytes", id, 3030],
      [
        "vdbcloud_backup_last_success_timestamp_seconds",
        { ...id, creation_method: "auto", backup_type: "cluster" },
        T / 1000,
      ],
      [
        "vdbcloud_backup_last_success_timestamp_seconds",
        { ...id, creation_method: "manual", backup_type: "collection" },
        (T - 2 * DAY) / 1000,
      ],
      ["vdbcloud_backup_creating_since_timestamp_seconds", id, (T + 60_000) / 1000],
    ]);
  });

  it("maps a cluster ID given twice once: the builder drops the repeated series", () => {
    const backups = [backup({ backupId: "a1" }), backup({ backupId: "a2", status: "CREATING" })];
    const once = mapBackups(backups, ["in01-a"]);
    expect(once.samples.length).toBeGreaterThan(0);
    expect(mapBackups(backups, ["in01-a", "in01-a"])).toEqual(once);
  });

  it("gives a polled cluster without backups zero counts and size, and no timestamps", () => {
    const r = mapBackups([], ["in01-empty"]);
    expect(r.samples.map((s) => s.family)).toEqual([
      "vdbcloud_backups",
      "vdbcloud_backups",
      "vdbcloud_backups",
      "vdbcloud_backups",
      "vdbcloud_backup_size_bytes",
    ]);
    expect(r.samples.every((s) => s.value === 0)).toBe(true);
  });
});

describe("mapPolicy", () => {
  // SAMPLE_BACKUP_POLICY keeps backups 14 days: retentionDays x 86400 seconds.
  const FOURTEEN_DAYS = 14 * 86_400;
  const policy = (over: Partial<BackupPolicy>): BackupPolicy => ({ ...SAMPLE_BACKUP_POLICY, ...over });
  const values = (p: BackupPolicy) =>
    Object.fromEntries(
      mapPolicy("in01-a", p).samples.map((s) => [s.family.replace("vdbcloud_backup_policy_", ""), s.value]),
    );

  it.each([
    {
      over: {},
      want: {
        enabled: 1,
        retention_seconds: FOURTEEN_DAYS,
        cross_region_copies: 1,
        max_gap_seconds: 3 * 86_400,
      },
    },
    {
      over: { frequency: "1,2,3,4,5,6,7", crossRegionCopies: 0 },
      want: { enabled: 1, retention_seconds: FOURTEEN_DAYS, cross_region_copies: 0, max_gap_seconds: 86_400 },
    },
    // Disabled: nothing is scheduled, so no gap.
    {
      over: { status: "DISABLED", retentionDays: 0, frequency: "" },
      want: { enabled: 0, retention_seconds: 0, cross_region_copies: 1 },
    },
    {
      over: { status: "disabled", frequency: "1,3,5" },
      want: { enabled: 0, retention_seconds: FOURTEEN_DAYS, cross_region_copies: 1 },
    },
    // An unknown status claims neither; an unreadable retention is left out.
    { over: { status: "PAUSED", retentionDays: null }, want: { cross_region_copies: 1 } },
  ])("$over", ({ over, want }) => {
    expect(values(policy(over))).toEqual(want);
  });
});
