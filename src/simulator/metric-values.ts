/**
 * Deterministic metric values. Each cluster gets a profile (load level, diurnal phase, traffic
 * mix, data size) once, at start; a value is then a handful of arithmetic operations on
 * (profile, metric, scope, bucket time), so a 1,000-cluster query cycle stays cheap.
 *
 * Relations the data keeps, so that dashboards and alerts look plausible: latency rises with
 * CU load, P99 > AVG, failure rates are small and REQ_SUCCESS_RATE = 100 - REQ_FAIL_RATE,
 * entities grow slowly with loaded/indexed <= total, storage follows entities, and one cluster
 * (`SimCluster.hot`) stays above 85% CU.
 */
import type { MetricDef, MetricKind, RequestType, Stat } from "./metric-catalog.js";
import { hashString, mix, signedUnit, unit } from "./random.js";
import { DAY_MS } from "./time.js";
import type { SimCluster } from "./world.js";

const TWO_PI = Math.PI * 2;
/** Noise key shared by REQ_FAIL_RATE and REQ_SUCCESS_RATE so that they add up to 100. */
const FAIL_ALL_KEY = 0xfa11;

/** Per-type traffic and latency parameters of one cluster. */
interface TypeProfile {
  /** Requests per second at the cluster's mean load. */
  readonly qps: number;
  /** Vectors per request. */
  readonly vectors: number;
  /** Mean latency (ms) at zero load. */
  readonly latencyMs: number;
}

/** Everything needed to compute a cluster's values, fixed at start. */
export interface ClusterProfile {
  readonly hash: number;
  readonly baseLoad: number;
  readonly amplitude: number;
  readonly jitter: number;
  readonly phase: number;
  readonly types: Readonly<Record<RequestType, TypeProfile>>;
  readonly bulkInsert: boolean;
  readonly entityBase: number;
  readonly growthPerDay: number;
  readonly bytesPerEntity: number;
  readonly capacityEntities: number;
  readonly loadedFraction: number;
  readonly indexedFraction: number;
  readonly createTimeMs: number;
  readonly collections: number;
  readonly unloadedCollections: number;
  /** Data lag: a bucket has data once `bucket end + lagMs <= now`. */
  readonly lagMs: number;
  /** Scopes by `db\u0000collection` (collection) and `db\u0000` (database). */
  readonly scopes: ReadonlyMap<string, ScopeProfile>;
}

/** A database or collection scope: its share of additive values and its own noise key. */
export interface ScopeProfile {
  readonly share: number;
  readonly hash: number;
}

/** Key of a scope in `ClusterProfile.scopes`; a database scope has no collection. */
export function scopeKey(dbName: string, collectionName: string | undefined): string {
  return `${dbName}\u0000${collectionName ?? ""}`;
}

function between(h: number, lo: number, hi: number): number {
  return lo + unit(h) * (hi - lo);
}

/** Builds the value profile of `cluster` for `seed`; the same inputs give the same profile. */
export function buildProfile(seed: number, cluster: SimCluster): ClusterProfile {
  const h = mix(seed, hashString(cluster.id));
  const r = (k: number) => mix(h, k);
  const hot = cluster.hot;
  const loaded = between(r(20), 0, 1) < 0.3;
  const unloadedCollections = cluster.collections.length > 1 && loaded ? 1 : 0;
  const growthPerDay = between(r(11), 0.002, 0.02);
  const type = (
    k: number,
    qpsLo: number,
    qpsHi: number,
    vLo: number,
    vHi: number,
    latLo: number,
    latHi: number,
  ) => ({
    qps: between(r(100 + k), qpsLo, qpsHi),
    vectors: Math.round(between(r(200 + k), vLo, vHi)),
    latencyMs: between(r(300 + k), latLo, latHi),
  });
  // Free and serverless clusters report no CUs (cuSize 0) yet hold entities: sized as one CU.
  const entityBase = between(r(10), 2e5, 2e7) * Math.max(1, cluster.cuSize) ** 0.5;

  const scopes = new Map<string, ScopeProfile>();
  const weights = cluster.collections.map(
    (c) => 0.2 + unit(mix(h, hashString(scopeKey(c.dbName, c.collectionName)))),
  );
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  cluster.collections.forEach((c, i) => {
    const share = (weights[i] ?? 0) / total;
    const key = scopeKey(c.dbName, c.collectionName);
    scopes.set(key, { share, hash: hashString(key) });
    const dbKey = scopeKey(c.dbName, undefined);
    const db = scopes.get(dbKey);
    scopes.set(dbKey, { share: (db?.share ?? 0) + share, hash: hashString(dbKey) });
  });

  return {
    hash: h,
    baseLoad: hot ? 0.92 : between(r(1), 0.15, 0.55),
    amplitude: hot ? 0.03 : between(r(2), 0.05, 0.2),
    jitter: hot ? 0.015 : 0.03,
    phase: between(r(3), 0, TWO_PI),
    types: {
      SEARCH: type(1, 5, 400, 1, 10, 8, 25),
      QUERY: type(2, 1, 100, 1, 1, 4, 15),
      INSERT: type(3, 1, 40, 50, 500, 3, 10),
      UPSERT: type(4, 0.5, 10, 20, 200, 4, 12),
      DELETE: type(5, 0.1, 3, 1, 50, 3, 8),
      BULK_INSERT: type(6, 0.002, 0.02, 10_000, 200_000, 200, 800),
    },
    bulkInsert: between(r(7), 0, 1) < 0.5,
    entityBase,
    growthPerDay,
    bytesPerEntity: between(r(12), 1600, 6200),
    // Sized so that a year of growth reaches about 85% of capacity.
    capacityEntities: (entityBase * (1 + growthPerDay * 365)) / 0.85,
    loadedFraction: unloadedCollections ? between(r(13), 0.7, 0.95) : 1,
    indexedFraction: between(r(14), 0.97, 0.999),
    createTimeMs: cluster.createTimeMs,
    collections: cluster.collections.length,
    unloadedCollections,
    lagMs: Math.round(between(r(15), 5_000, 45_000)),
    scopes,
  };
}

/** CU load in [0.01, 0.99] at time `t`: a daily sine plus per-bucket noise. */
export function loadAt(p: ClusterProfile, t: number): number {
  const diurnal = Math.sin((t / DAY_MS) * TWO_PI + p.phase);
  const noise = signedUnit(mix(p.hash, Math.floor(t / 1000)));
  const v = p.baseLoad + p.amplitude * diurnal + p.jitter * noise;
  return Math.min(0.99, Math.max(0.01, v));
}

function entitiesAt(p: ClusterProfile, t: number): number {
  const days = Math.max(0, (t - p.createTimeMs) / DAY_MS);
  return p.entityBase * (1 + p.growthPerDay * days);
}

/**
 * The raw value of one metric for one bucket, or null when the metric has no data there
 * (bulk-insert metrics of clusters that never bulk insert; cluster-wide metrics at a scope).
 * Status, lag and creation time are the caller's business (see metrics-query.ts).
 */
export function metricValue(
  def: MetricDef,
  stat: Stat,
  p: ClusterProfile,
  scope: ScopeProfile | undefined,
  t: number,
  granularityMs: number,
): number | null {
  if (def.bulkInsert && !p.bulkInsert) return null;
  if (scope && def.clusterOnly) return null;
  const noiseKey = def.kind === "success_rate" || def.kind === "fail_rate_all" ? FAIL_ALL_KEY : def.hash;
  const n = signedUnit(mix(mix(p.hash, noiseKey ^ (scope ? scope.hash : 0)), Math.floor(t / 1000)));
  const share = scope ? scope.share : 1;
  // Latency and rates are not additive: a scope sees the cluster's level, a little shifted.
  const level = scope ? 0.85 + 0.3 * unit(scope.hash) : 1;
  const load = loadAt(p, t);
  const traffic = 0.5 + (0.5 * load) / p.baseLoad;
  const type = def.requestType ? p.types[def.requestType] : p.types.SEARCH;

  switch (def.kind) {
    case "cu_computation":
      return load * 100;
    case "cu_capacity":
      return Math.min(99.5, (entitiesAt(p, t) / p.capacityEntities) * 100);
    case "write_capacity": {
      const writes = p.types.INSERT.qps + p.types.UPSERT.qps;
      return Math.min(99, 5 + (40 * traffic * writes) / (writes + 20) + 2 * n);
    }
    case "storage":
      return (entitiesAt(p, t) * share * p.bytesPerEntity * 1.3) / 1e9;
    case "read_vcu":
      return (p.types.SEARCH.qps + p.types.QUERY.qps) * traffic * granularityMs * 2e-6 * (1 + 0.1 * n);
    case "write_vcu":
      return (
        (p.types.INSERT.qps + p.types.UPSERT.qps + p.types.DELETE.qps) *
        traffic *
        granularityMs *
        1e-6 *
        (1 + 0.1 * n)
      );
    case "req_count":
      return type.qps * traffic * 60 * share * (1 + 0.1 * n);
    case "vector_req_count":
      return type.qps * type.vectors * traffic * 60 * share * (1 + 0.1 * n);
    case "latency": {
      const avg = type.latencyMs * (1 + 2 * load ** 3) * (1 + 0.08 * n) * level;
      // P99 = AVG x (2 .. 3.8): always above AVG for the same bucket.
      return stat === "P99" ? avg * (2 + 1.5 * load + 0.3 * Math.abs(n)) : avg;
    }
    case "fail_rate": {
      const base = def.requestType === "BULK_INSERT" ? 0.5 : 0.02;
      return (base + 0.6 * load ** 6) * (1 + 0.5 * n) * level;
    }
    case "fail_rate_all":
      return (0.02 + 0.6 * load ** 6) * (1 + 0.5 * n) * level;
    case "success_rate":
      return 100 - (0.02 + 0.6 * load ** 6) * (1 + 0.5 * n) * level;
    case "slow_query":
      return p.types.SEARCH.qps * traffic * 60 * 5e-4 * load ** 2 * share * (1 + 0.2 * n);
    case "flush":
      return (0.2 + (3 * p.types.INSERT.qps) / (p.types.INSERT.qps + 20)) * traffic * share * (1 + 0.2 * n);
    case "entities":
      return Math.round(entitiesAt(p, t) * share);
    case "entities_loaded":
      return Math.round(entitiesAt(p, t) * share * p.loadedFraction);
    case "entities_indexed":
      return Math.round(entitiesAt(p, t) * share * p.indexedFraction);
    case "insert_rate":
      return ((p.entityBase * p.growthPerDay) / 86_400) * traffic * share * (1 + 0.1 * n);
    case "collections":
      return p.collections;
    case "unloaded_collections":
      return p.unloadedCollections;
  }
}

const DECIMALS: Record<MetricKind, number> = {
  cu_computation: 2,
  cu_capacity: 2,
  write_capacity: 2,
  storage: 3,
  read_vcu: 2,
  write_vcu: 2,
  req_count: 2,
  vector_req_count: 2,
  latency: 2,
  fail_rate: 3,
  fail_rate_all: 3,
  success_rate: 3,
  slow_query: 2,
  flush: 2,
  entities: 0,
  entities_loaded: 0,
  entities_indexed: 0,
  insert_rate: 2,
  collections: 0,
  unloaded_collections: 0,
};

/** Renders a value as the upstream does: a decimal string. */
export function formatValue(kind: MetricKind, v: number): string {
  return v.toFixed(DECIMALS[kind]);
}
