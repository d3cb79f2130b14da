/**
 * Backups, backup policies and global clusters against the simulator: every value exact across
 * pages, free and serverless clusters asked at most once, a key without backup permission
 * costing one log line, and the organisation-wide parts on shard 0 only.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { SimBackup } from "../src/simulator/index.js";
import { startSimulator } from "../src/simulator/index.js";
import { type Harness, parseSamples, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";
import { sectionsOff } from "./helpers/sectionsOff.js";

/** A Wednesday noon: the simulator's clock stands still there, so every value is known. */
const FIXED = Date.UTC(2026, 0, 14, 12);
const LIST = "GET /v2/backups";
const POLICY = "GET /v2/clusters/{id}/backups/policy";
const MINUTE = 60_000;
/**
 * Ten clusters on a clock that stands still. Its own rate limiter counts on that clock, where
 * a second never passes, so it is off (the exporter's limiter keeps real time as always).
 */
const FROZEN = { clusters: 10, now: () => FIXED, rateLimitPerSecond: 0 } as const;

let harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses) await h.close();
  harnesses = [];
});

/**
 * An exporter polling backups, policies and global clusters every minute (the other collectors
 * off unless `inventory`) against a ten-cluster world: eight dedicated, one free (in03-), one
 * serverless.
 */
async function start(opts: { denied?: boolean; inventory?: boolean; logs?: string[] } = {}) {
  const clock = new ManualClock(FIXED);
  const h = await startHarness({
    clock,
    sim: { ...FROZEN, ...(opts.denied ? { backupDeniedKeys: [TEST_API_KEY] } : {}) },
    ...(opts.logs ? { logs: opts.logs } : {}),
    config: (raw) => {
      raw.metrics = { enabled: false };
      // Only the collectors under test: the other clusters' series would blur "none for these".
      Object.assign(raw, sectionsOff("backups", "global_clusters"));
      raw.inventory = { enabled: opts.inventory === true, interval: "PT1M" };
      raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
      raw.jobs = { ids: [] };
      raw.backups = { interval: "PT1M", policy_interval: "PT1M" };
      raw.global_clusters = { interval: "PT1M" };
    },
  });
  harnesses.push(h);
  await clock.advance(0);
  await h.settle();
  return { h, clock };
}

async function cycles(h: Harness, clock: ManualClock, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await clock.advance(MINUTE);
    await h.settle();
  }
}

type Samples = ReturnType<typeof parseSamples>;
const key = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).sort());

function family(all: Samples, name: string): Map<string, number> {
  return new Map(all.filter((s) => s.name === name).map((s) => [key(s.labels), s.value]));
}

/** What the families must say of `clusters`, computed from the simulator's own backups. */
function expectedBackups(backups: readonly SimBackup[], clusters: readonly string[]) {
  const counts = new Map<string, number>();
  const size = new Map<string, number>();
  const newest = new Map<string, number>();
  const creating = new Map<string, number>();
  for (const id of clusters) {
    for (const m of ["auto", "manual"]) {
      for (const s of ["available", "creating"])
        counts.set(key({ cluster_id: id, creation_method: m, status: s }), 0);
    }
    size.set(key({ cluster_id: id }), 0);
  }
  for (const b of backups) {
    if (!clusters.includes(b.clusterId)) continue;
    const m = b.creationMethod.toLowerCase();
    const s = b.status.toLowerCase();
    const k = key({ cluster_id: b.clusterId, creation_method: m, status: s });
    counts.set(k, (counts.get(k) ?? 0) + 1);
    if (s === "available") {
      const sk = key({ cluster_id: b.clusterId });
      size.set(sk, (size.get(sk) ?? 0) + b.size);
      const nk = key({
        cluster_id: b.clusterId,
        creation_method: m,
        backup_type: b.backupType.toLowerCase(),
      });
      newest.set(nk, Math.max(newest.get(nk) ?? 0, b.createTimeMs / 1000));
    } else {
      const ck = key({ cluster_id: b.clusterId });
      creating.set(ck, Math.min(creating.get(ck) ?? Number.POSITIVE_INFINITY, b.createTimeMs / 1000));
    }
  }
  return { counts, size, newest, creating };
}

const GAP: Record<string, number> = { "1,2,3,4,5,6,7": 86_400, "1,3,5": 3 * 86_400, "1,2,3,5": 3 * 86_400 };

describe("data protection against the simulator", () => {
  it("exports every backup, policy and replication value exactly, from more than one page", async () => {
    const { h, clock } = await start();
    const dp = h.sim.dataProtection;
    const backups = dp.backupsAt(FIXED);
    // More than one page of 100, so the listing pages.
    expect(backups.length).toBeGreaterThan(100);
    // Two minutes on (every task has run again): the serverless cluster's refusal is known.
    await cycles(h, clock, 2);
    const all = parseSamples(await h.metrics());
    const dedicated = dp.dedicated.map((c) => c.id);
    const want = expectedBackups(backups, dedicated);
    expect(family(all, "vdbcloud_backups")).toEqual(want.counts);
    expect(family(all, "vdbcloud_backup_size_bytes")).toEqual(want.size);
    expect(family(all, "vdbcloud_backup_last_success_timestamp_seconds")).toEqual(want.newest);
    expect(family(all, "vdbcloud_backup_creating_since_timestamp_seconds")).toEqual(want.creating);
    // The stuck backup is the only one creating, and a backup of the second cluster.
    expect([...want.creating.keys()]).toEqual([key({ cluster_id: dedicated[1] as string })]);

    const enabled = new Map<string, number>();
    const retention = new Map<string, number>();
    const copies = new Map<string, number>();
    const gap = new Map<string, number>();
    for (const p of dp.policies.values()) {
      const k = key({ cluster_id: p.clusterId });
      enabled.set(k, p.status === "ENABLED" ? 1 : 0);
      retention.set(k, p.retentionDays * 86_400);
      copies.set(k, p.crossRegionCopies.length);
      if (p.status === "ENABLED") gap.set(k, GAP[p.frequency] as number);
    }
    expect(family(all, "vdbcloud_backup_policy_enabled")).toEqual(enabled);
    expect(family(all, "vdbcloud_backup_policy_retention_seconds")).toEqual(retention);
    expect(family(all, "vdbcloud_backup_policy_cross_region_copies")).toEqual(copies);
    expect(family(all, "vdbcloud_backup_policy_max_gap_seconds")).toEqual(gap);
    expect(new Set(gap.values())).toEqual(new Set([86_400, 3 * 86_400]));

    const info = new Map<string, number>();
    const lag = new Map<string, number>();
    for (const g of dp.globalClusters) {
      info.set(
        key({
          global_cluster_id: g.globalClusterId,
          global_cluster_name: g.globalClusterName,
          project_id: g.projectId,
        }),
        1,
      );
      for (const s of g.secondaries) {
        lag.set(
          key({
            global_cluster_id: g.globalClusterId,
            primary_cluster_id: g.primary.id,
            secondary_cluster_id: s.clusterId,
            secondary_region_id: s.regionId,
          }),
          dp.lagMs(s, FIXED) / 1000,
        );
      }
    }
    expect(info.size).toBe(2);
    expect(family(all, "vdbcloud_global_cluster_info")).toEqual(info);
    expect(family(all, "vdbcloud_global_cluster_replication_lag_seconds")).toEqual(lag);

    // Organisation-wide, every page at 100: two pages per cycle, never a per-cluster listing.
    const pages = Math.ceil(backups.length / 100);
    expect(pages).toBe(2);
    const listed = h.sim.stats.byEndpoint[LIST] ?? 0;
    expect(listed).toBeGreaterThanOrEqual(2 * pages);
    expect(listed % pages).toBe(0);
    expect(Object.keys(h.sim.stats.byEndpointCluster[LIST] ?? {})).toEqual([]);
    expect(h.sim.stats.lastRequest[LIST]?.query).toMatchObject({ pageSize: "100" });
    expect(h.sim.stats.mutatingCalls).toEqual([]);
  });

  it("asks a serverless cluster at most once and never a free one, with no failure and no log line", async () => {
    const logs: string[] = [];
    const { h, clock } = await start({ logs });
    await cycles(h, clock, 4);
    const serverless = h.sim.clusters.find((c) => c.plan === "Serverless")?.id as string;
    const free = h.sim.clusters.find((c) => c.id.startsWith("in03-"))?.id as string;
    const asked = h.sim.stats.byEndpointCluster[POLICY] ?? {};
    expect(asked[serverless]).toBe(1);
    expect(asked[free]).toBeUndefined();
    // Each dedicated cluster's policy is asked every minute meanwhile.
    expect(asked[h.sim.dataProtection.dedicated[0]?.id as string]).toBeGreaterThanOrEqual(4);
    const all = parseSamples(await h.metrics());
    const up = all.filter((s) => s.name === "vdbcloud_collector_up" && s.labels.collector === "backups");
    expect(up.length).toBeGreaterThan(0);
    expect(up.filter((s) => s.value !== 1)).toEqual([]);
    expect(all.some((s) => s.labels.cluster_id === serverless || s.labels.cluster_id === free)).toBe(false);
    const warnings = logs.filter((l) => (JSON.parse(l) as { level: number }).level >= 40);
    expect(warnings).toEqual([]);
  });

  it("a key without backup permission costs one log line; its targets are not permitted, not down; the rest works", async () => {
    const logs: string[] = [];
    const { h, clock } = await start({ denied: true, inventory: true, logs });
    await cycles(h, clock, 3);
    const lines = logs.map(
      (l) => JSON.parse(l) as { level: number; msg: string; collector?: string; credential?: string },
    );
    const refused = lines.filter((l) => l.msg.startsWith("credential lacks the permission"));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ level: 40, collector: "backups", credential: "default" });
    expect(lines.filter((l) => l.level >= 40)).toHaveLength(1);
    expect(logs.join("\n")).not.toContain(TEST_API_KEY);

    const all = parseSamples(await h.metrics());
    const backupsUp = all.filter(
      (s) => s.name === "vdbcloud_collector_up" && s.labels.collector === "backups",
    );
    // The listing and each dedicated cluster's policy (and the serverless cluster's policy
    // task, if it was planned before its plan was known: it no longer calls).
    const serverless = h.sim.clusters.find((c) => c.plan === "Serverless")?.id as string;
    const required = ["organization", ...h.sim.dataProtection.dedicated.map((c) => c.id)];
    const targets = backupsUp.map((s) => s.labels.target as string);
    expect(targets).toEqual(expect.arrayContaining(required));
    expect(targets.filter((t) => !required.includes(t) && t !== serverless)).toEqual([]);
    expect(backupsUp.every((s) => s.value === 1)).toBe(true);
    const notPermitted = all.filter((s) => s.name === "vdbcloud_collector_not_permitted");
    expect(notPermitted.map((s) => s.labels.target).sort()).toEqual([...required].sort());
    expect(notPermitted.every((s) => s.labels.credential === "default" && s.value === 1)).toBe(true);
    expect(all.filter((s) => s.name.startsWith("vdbcloud_backup"))).toEqual([]);
    // Other collectors are unaffected.
    expect(all.filter((s) => s.name === "vdbcloud_global_cluster_info")).toHaveLength(2);
    expect(all.filter((s) => s.name === "vdbcloud_cluster_info")).toHaveLength(10);
    const otherUp = all.filter((s) => s.name === "vdbcloud_collector_up" && s.labels.collector !== "backups");
    expect(otherUp.every((s) => s.value === 1)).toBe(true);
    const landing = JSON.stringify(await h.exporter.landing());
    expect(landing).toContain('"notPermitted":"default"');
  });

  it("splits backups between shards and lists global clusters on shard 0 only", async () => {
    const sim = await startSimulator(FROZEN);
    try {
      const ids: string[][] = [];
      for (const index of [0, 1]) {
        const clock = new ManualClock(FIXED);
        const h = await startHarness({
          clock,
          simulator: sim,
          shard: { index, total: 2 },
          config: (raw) => {
            raw.metrics = { enabled: false };
            Object.assign(raw, sectionsOff("backups", "global_clusters"));
            raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
            raw.jobs = { ids: [] };
          },
        });
        harnesses.push(h);
        await clock.advance(0);
        await h.settle();
        const all = parseSamples(await h.metrics());
        ids.push([
          ...new Set(
            all.filter((s) => s.name === "vdbcloud_backups").map((s) => s.labels.cluster_id as string),
          ),
        ]);
        expect(all.filter((s) => s.name === "vdbcloud_global_cluster_info")).toHaveLength(
          index === 0 ? 2 : 0,
        );
      }
      const [a = [], b = []] = ids;
      expect(a.filter((id) => b.includes(id))).toEqual([]);
      // Each shard reports its own clusters; together every dedicated one (the serverless one
      // may show zeros on its first cycle, before its refusal is heard).
      for (const id of sim.dataProtection.dedicated.map((c) => c.id)) expect([...a, ...b]).toContain(id);
      expect(sim.stats.byEndpoint["GET /v2/globalClusters"]).toBe(1);
    } finally {
      for (const h of harnesses) await h.close();
      harnesses = [];
      await sim.close();
    }
  });
});
