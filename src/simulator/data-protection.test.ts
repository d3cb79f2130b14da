import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BACKUP_PERMISSION_MESSAGE,
  OVERDUE_DAYS,
  SERVERLESS_CLUSTER_MESSAGE,
  type Simulator,
  STUCK_CREATING_MS,
  startSimulator,
} from "./index.js";

const T0 = Date.UTC(2026, 0, 14, 12);
const DAY = 86_400_000;
const DENIED = "key-without-backup-permission";

async function get(sim: Simulator, path: string, key = "test-key") {
  const res = await request(`${sim.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

describe("simulated data protection", () => {
  let sim: Simulator;
  let envelope: Simulator;
  const clock = T0;
  beforeAll(async () => {
    sim = await startSimulator({ now: () => clock, rateLimitPerSecond: 0, backupDeniedKeys: [DENIED] });
    envelope = await startSimulator({
      now: () => T0,
      rateLimitPerSecond: 0,
      quirks: { globalClustersEnvelope: true },
    });
  });
  afterAll(async () => {
    await sim.close();
    await envelope.close();
  });

  it("lists more backups than one page, newest first, every page consistent with count", async () => {
    const first = await get(sim, "/v2/backups?pageSize=100&currentPage=1");
    const d1 = first.json.data as { count: number; backups: Array<{ backupId: string; createTime: string }> };
    expect(d1.count).toBeGreaterThan(100);
    expect(d1.backups).toHaveLength(100);
    const second = (await get(sim, "/v2/backups?pageSize=100&currentPage=2")).json.data as typeof d1;
    expect(d1.backups.length + second.backups.length).toBe(d1.count);
    const times = [...d1.backups, ...second.backups].map((b) => Date.parse(b.createTime));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("has one overdue cluster, one backup that stays creating, and a disabled policy", async () => {
    const dp = sim.dataProtection;
    const [overdue, stuck] = dp.dedicated;
    const backups = dp.backupsAt(T0);
    const newestAuto = (id: string) =>
      Math.max(
        ...backups
          .filter((b) => b.clusterId === id && b.creationMethod === "AUTO" && b.status === "AVAILABLE")
          .map((b) => b.createTimeMs),
      );
    expect(T0 - newestAuto(overdue?.id as string)).toBeGreaterThanOrEqual(OVERDUE_DAYS * DAY);
    for (const c of dp.dedicated.slice(1)) {
      const p = dp.policies.get(c.id);
      // Every other enabled policy has a backup within its longest gap (at most 3 days here).
      if (p?.status === "ENABLED") expect(T0 - newestAuto(c.id)).toBeLessThanOrEqual(3 * DAY);
    }
    const creating = backups.filter((b) => b.status === "CREATING");
    expect(creating.map((b) => [b.clusterId, b.createTimeMs])).toEqual([[stuck?.id, T0 - STUCK_CREATING_MS]]);
    expect(dp.backupsAt(T0 + 2 * DAY).filter((b) => b.status === "CREATING")).toEqual(creating);
    expect([...dp.policies.values()].some((p) => p.status === "DISABLED")).toBe(true);
  });

  it("answers Get Backup Policy for a dedicated cluster and refuses a serverless one as not dedicated", async () => {
    const dedicated = sim.dataProtection.dedicated[1]?.id as string;
    const ok = await get(sim, `/v2/clusters/${dedicated}/backups/policy`);
    expect(ok.json).toMatchObject({
      code: 0,
      data: {
        clusterId: dedicated,
        status: "ENABLED",
        frequency: "1,3,5",
        retentionDays: 14,
        startTime: "02:00-04:00",
      },
    });
    const serverless = sim.clusters.find((c) => c.plan === "Serverless")?.id as string;
    const refused = await get(sim, `/v2/clusters/${serverless}/backups/policy`);
    // The reference's error catalogue, word for word.
    expect(refused.json).toEqual({ code: 96022, message: SERVERLESS_CLUSTER_MESSAGE });
    const listed = await get(sim, `/v2/backups?clusterId=${serverless}`);
    expect(listed.json.message).toBe(SERVERLESS_CLUSTER_MESSAGE);
  });

  it("refuses a key without backup permission with the catalogue's 96027 on backup routes only", async () => {
    const id = sim.dataProtection.dedicated[0]?.id as string;
    for (const path of ["/v2/backups", `/v2/clusters/${id}/backups/policy`]) {
      const r = await get(sim, path, DENIED);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ code: 96027, message: BACKUP_PERMISSION_MESSAGE });
    }
    expect((await get(sim, `/v2/clusters/${id}`, DENIED)).status).toBe(200);
    expect((await get(sim, "/v2/globalClusters", DENIED)).status).toBe(200);
  });

  it("answers the global-cluster endpoints bare, as the reference's samples, or enveloped by quirk", async () => {
    const bare = await get(sim, "/v2/globalClusters?pageSize=100&currentPage=1");
    expect(bare.json.code).toBeUndefined();
    expect(bare.json).toMatchObject({ count: 2, currentPage: 1, pageSize: 100 });
    const wrapped = await get(envelope, "/v2/globalClusters");
    expect(wrapped.json).toMatchObject({ code: 0, data: { count: 2 } });
    const g = sim.dataProtection.globalClusters[0];
    const lag = await get(sim, `/v2/globalClusters/${g?.globalClusterId}/replicationLag`);
    expect(lag.json).toMatchObject({ globalClusterId: g?.globalClusterId, primaryClusterId: g?.primary.id });
    expect((lag.json.lags as unknown[]).length).toBe(2);
  });

  it("moves a secondary's lag between its bounds over its period", () => {
    const dp = sim.dataProtection;
    const s = dp.globalClusters[0]?.secondaries[1];
    if (!s) throw new Error("no secondary");
    const samples = Array.from({ length: 40 }, (_, i) => dp.lagMs(s, T0 + (i * s.periodMs) / 40));
    expect(Math.min(...samples)).toBe(s.minMs);
    expect(Math.max(...samples)).toBe(s.maxMs);
    // Above the alert's 60 s for about half the period: long enough to raise it.
    expect(samples.filter((v) => v > 60_000).length).toBeGreaterThan(15);
  });
});
