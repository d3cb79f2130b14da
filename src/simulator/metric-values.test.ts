import { describe, expect, it } from "vitest";
import { HOUR } from "../../test/helpers/time.js";
import { type MetricDef, resolveMetricQuery, SECOND_FORM_NAMES } from "./metric-catalog.js";
import {
  buildProfile,
  type ClusterProfile,
  formatValue,
  loadAt,
  metricValue,
  scopeKey,
} from "./metric-values.js";
import { generateWorld } from "./world.js";

const NOW = Date.UTC(2025, 5, 1, 0, 0, 0);
const world = generateWorld({ seed: 3, clusters: 20, collectionsPerCluster: 4, nowMs: NOW });
const profiles = world.clusters.map((c) => ({ cluster: c, profile: buildProfile(3, c) }));

/** The definition of `name` in whichever form knows it (second form first). */
function def(name: string): MetricDef {
  const r = resolveMetricQuery(name, undefined);
  const first = typeof r === "string" ? resolveMetricQuery(name, "AVG") : r;
  if (typeof first === "string") throw new Error(first);
  return first.def;
}

function value(
  p: ClusterProfile,
  name: string,
  t: number,
  stat: "AVG" | "P99" = "AVG",
  scope?: string,
): number | null {
  return metricValue(def(name), stat, p, scope === undefined ? undefined : p.scopes.get(scope), t, 60_000);
}

const dayOfHours = Array.from({ length: 24 }, (_, h) => NOW - h * HOUR);

describe("metric values", () => {
  it("keeps the hot cluster above 85% CU all day and the others below", () => {
    for (const { cluster, profile } of profiles) {
      const cu = dayOfHours.map((t) => value(profile, "CU_COMPUTATION", t) ?? 0);
      if (cluster.hot) expect(Math.min(...cu)).toBeGreaterThan(85);
      else expect(Math.max(...cu)).toBeLessThan(85);
    }
  });

  it("gives each cluster its own diurnal phase", () => {
    const peaks = profiles.map(({ profile }) => {
      const loads = dayOfHours.map((t) => loadAt(profile, t));
      return loads.indexOf(Math.max(...loads));
    });
    expect(new Set(peaks).size).toBeGreaterThan(3);
  });

  it("raises latency with load and keeps P99 above AVG", () => {
    for (const { profile } of profiles) {
      const points = Array.from({ length: 96 }, (_, i) => NOW - i * 15 * 60_000).map((t) => ({
        load: loadAt(profile, t),
        avg: value(profile, "REQ_SEARCH_LATENCY", t, "AVG") ?? 0,
        p99: value(profile, "REQ_SEARCH_LATENCY", t, "P99") ?? 0,
      }));
      for (const p of points) expect(p.p99).toBeGreaterThan(p.avg);
      points.sort((a, b) => a.load - b.load);
      const mean = (xs: typeof points) => xs.reduce((s, p) => s + p.avg, 0) / xs.length;
      if ((points.at(-1)?.load ?? 0) - (points[0]?.load ?? 0) > 0.15) {
        expect(mean(points.slice(-24))).toBeGreaterThan(mean(points.slice(0, 24)));
      }
    }
  });

  it("keeps failure rates small and success = 100 - failure", () => {
    for (const { profile } of profiles) {
      for (const t of dayOfHours) {
        const fail = value(profile, "REQ_FAIL_RATE", t) ?? Number.NaN;
        const ok = value(profile, "REQ_SUCCESS_RATE", t) ?? Number.NaN;
        expect(fail).toBeGreaterThan(0);
        expect(fail).toBeLessThan(2);
        expect(fail + ok).toBeCloseTo(100, 9);
      }
    }
  });

  it("grows entities slowly, with loaded/indexed <= total and storage following entities", () => {
    for (const { profile } of profiles) {
      const before = value(profile, "ENTITIES_COUNT", NOW - 7 * 24 * HOUR) ?? 0;
      const after = value(profile, "ENTITIES_COUNT", NOW) ?? 0;
      expect(after).toBeGreaterThan(before);
      expect(after / before).toBeLessThan(1.2);
      expect(value(profile, "ENTITIES_LOADED", NOW)).toBeLessThanOrEqual(after);
      expect(value(profile, "ENTITIES_INDEXED", NOW)).toBeLessThanOrEqual(after);
      const gbPerEntity = (t: number) =>
        (value(profile, "STORAGE_USE", t) ?? 0) / (value(profile, "ENTITIES_COUNT", t) ?? 1);
      expect(gbPerEntity(NOW)).toBeCloseTo(gbPerEntity(NOW - 7 * 24 * HOUR), 9);
      expect(value(profile, "CU_CAPACITY", NOW)).toBeLessThan(100);
    }
  });

  it("leaves bulk-insert metrics null on clusters that never bulk insert", () => {
    const withBulk = profiles.filter(({ profile }) => profile.bulkInsert);
    const without = profiles.filter(({ profile }) => !profile.bulkInsert);
    expect(withBulk.length).toBeGreaterThan(0);
    expect(without.length).toBeGreaterThan(0);
    for (const { profile } of without) expect(value(profile, "REQ_BULK_INSERT_COUNT", NOW)).toBeNull();
    for (const { profile } of withBulk)
      expect(value(profile, "REQ_BULK_INSERT_COUNT", NOW)).toBeGreaterThan(0);
  });

  it("splits additive values over collections and has no cluster-wide values at a scope", () => {
    const { cluster, profile } = profiles[1] ?? profiles[0] ?? { cluster: undefined, profile: undefined };
    if (!cluster || !profile) throw new Error("no cluster");
    const total = value(profile, "ENTITIES_COUNT", NOW) ?? 0;
    const parts = cluster.collections.map(
      (c) => value(profile, "ENTITIES_COUNT", NOW, "AVG", scopeKey(c.dbName, c.collectionName)) ?? 0,
    );
    expect(parts.reduce((a, b) => a + b, 0)).toBeCloseTo(total, -2);
    const db = value(profile, "ENTITIES_COUNT", NOW, "AVG", scopeKey("default", undefined)) ?? 0;
    expect(db).toBeLessThan(total);
    expect(value(profile, "CU_COMPUTATION", NOW, "AVG", scopeKey("default", undefined))).toBeNull();
  });

  it("computes every second-form metric deterministically", () => {
    const [a] = profiles;
    if (!a) throw new Error("no cluster");
    const twin = buildProfile(3, a.cluster);
    for (const name of SECOND_FORM_NAMES) {
      expect(metricValue(def(name), "AVG", twin, undefined, NOW, 60_000)).toBe(
        metricValue(def(name), "AVG", a.profile, undefined, NOW, 60_000),
      );
    }
    expect(buildProfile(4, a.cluster).phase).not.toBe(a.profile.phase);
  });

  it.each([
    ["ENTITIES_COUNT", 1234.4, "1234"],
    ["CU_COMPUTATION", 42.126, "42.13"],
    ["STORAGE_USE", 1.23456, "1.235"],
  ])("formats %s %d as %s", (name, v, text) => {
    expect(formatValue(def(name).kind, v)).toBe(text);
  });
});
