/**
 * Each cluster's data plane, served under /dp/{clusterId} (the cluster's connectAddress once the
 * simulator listens): List Databases, List Collections (V2, and the deprecated V1 GET), Get Load
 * State, Get Collection Stats, List Indexes and Describe Index (indexes.ts), with the engine's
 * answers (code 0, or 1800 for a refused credential, 800 for an unknown database, 100 for an
 * unknown collection, 700 for an unknown index).
 *
 * Every third cluster (the second, fifth, ...) takes only its own `username:password`
 * credential; the others take the API key and refuse user credentials. The third cluster is an
 * old one without the V2 listing (HTTP 404), so clients fall back to V1. The first cluster's
 * last collection exists in every other period of `collectionChurnMs`, when that is set; tests
 * add and drop collections through SimState (an added collection that is not one of the
 * world's has no metrics: Query Cluster Metrics refuses it as unknown).
 */
import { SimApiError } from "./errors.js";
import { describeIndexData, describeShapeOf, generatedIndexes, indexView, type SimIndex } from "./indexes.js";
import type { RouteDef, RouteRequest } from "./route.js";
import type { SimCluster } from "./world.js";

/** One collection of a cluster's data plane. */
export interface SimDataCollection {
  readonly dbName: string;
  readonly collectionName: string;
  /** LoadStateLoaded, LoadStateLoading, LoadStateNotLoad (or any string). */
  loadState: string;
  /** 0..100, sent while loading. */
  loadProgress: number;
  rows: number;
}

/** Engine codes of the data plane. */
export const DataPlaneCode = {
  NOT_AUTHENTICATED: 1800,
  DATABASE_NOT_FOUND: 800,
  COLLECTION_NOT_FOUND: 100,
  INDEX_NOT_FOUND: 700,
} as const;

/** The data plane of every cluster (mutable: SimState adds and drops collections). */
export interface DataPlanes {
  readonly collections: Map<string, Map<string, SimDataCollection>>;
  /** Per cluster, per collection key, its indexes (SimState pins others). */
  readonly indexes: Map<string, Map<string, SimIndex[]>>;
  /** Index builds move this many times faster than real time. */
  readonly timeScale: number;
  /** The credential a cluster takes instead of the API key, if any. */
  readonly userCredentials: ReadonlyMap<string, string>;
  /** Clusters without the V2 collection listing. */
  readonly v1Only: ReadonlySet<string>;
  readonly churnMs: number;
}

/** Key of a collection in a cluster's map. */
export function collectionKey(dbName: string, collectionName: string): string {
  return `${dbName}/${collectionName}`;
}

/** What the generated data planes follow besides the clusters. */
interface DataPlaneOptions {
  readonly seed: number;
  readonly churnMs: number;
  /** The simulator's start: the demo's index build starts then. */
  readonly startMs: number;
  readonly timeScale: number;
}

/** The generated data planes: load states, row counts and indexes derive from the position. */
export function buildDataPlanes(clusters: readonly SimCluster[], o: DataPlaneOptions): DataPlanes {
  const { seed, churnMs } = o;
  const collections = new Map<string, Map<string, SimDataCollection>>();
  const indexes = new Map<string, Map<string, SimIndex[]>>();
  const userCredentials = new Map<string, string>();
  const v1Only = new Set<string>();
  clusters.forEach((cluster, ci) => {
    const byKey = new Map<string, SimDataCollection>();
    const indexesByKey = new Map<string, SimIndex[]>();
    cluster.collections.forEach((c, i) => {
      indexesByKey.set(collectionKey(c.dbName, c.collectionName), generatedIndexes(ci, i, o.startMs));
      const state = i % 5 === 3 ? "LoadStateNotLoad" : i % 5 === 4 ? "LoadStateLoading" : "LoadStateLoaded";
      byKey.set(collectionKey(c.dbName, c.collectionName), {
        dbName: c.dbName,
        collectionName: c.collectionName,
        loadState: state,
        loadProgress: state === "LoadStateLoading" ? 40 : state === "LoadStateLoaded" ? 100 : 0,
        rows: 1000 * (i + 1) + ci,
      });
    });
    collections.set(cluster.id, byKey);
    indexes.set(cluster.id, indexesByKey);
    if (ci % 3 === 1) userCredentials.set(cluster.id, `db_admin_${ci}:pw-${seed}-${cluster.id.slice(-6)}`);
    if (ci === 2) v1Only.add(cluster.id);
  });
  return { collections, indexes, userCredentials, v1Only, churnMs, timeScale: o.timeScale };
}

/** The churning collection of a cluster: the first cluster's last one, when churn is on. */
function churning(
  planes: DataPlanes,
  clusters: readonly SimCluster[],
  clusterId: string,
): string | undefined {
  const first = clusters[0];
  const last = first?.collections[first.collections.length - 1];
  if (planes.churnMs <= 0 || first?.id !== clusterId || last === undefined) return undefined;
  return collectionKey(last.dbName, last.collectionName);
}

/**
 * The collections a cluster's data plane holds at `nowMs`: the churning one (a collection of the
 * world, so its metrics exist too) only in even periods of `churnMs`.
 */
export function collectionsAt(
  planes: DataPlanes,
  clusters: readonly SimCluster[],
  clusterId: string,
  nowMs: number,
): SimDataCollection[] {
  const own = [...(planes.collections.get(clusterId)?.values() ?? [])];
  const churn = churning(planes, clusters, clusterId);
  if (churn === undefined || Math.floor(nowMs / planes.churnMs) % 2 === 0) return own;
  return own.filter((c) => collectionKey(c.dbName, c.collectionName) !== churn);
}

/** True when `key` may use the data plane of `clusterId`. */
export function dataPlaneAuthorized(
  planes: DataPlanes,
  clusterId: string,
  key: string,
  apiKeyOk: boolean,
): boolean {
  const user = planes.userCredentials.get(clusterId);
  if (user !== undefined) return key === user;
  return !key.includes(":") && apiKeyOk;
}

/** The data-plane routes over `planes`. */
export function dataPlaneRoutes(planes: DataPlanes, clusters: readonly SimCluster[]): RouteDef[] {
  const clusterOf = (r: RouteRequest) => r.params.cluster;
  const body = (r: RouteRequest): Record<string, unknown> =>
    typeof r.body === "object" && r.body !== null ? (r.body as Record<string, unknown>) : {};
  const known = (r: RouteRequest): string => {
    const id = r.params.cluster ?? "";
    if (!planes.collections.has(id)) throw new SimApiError(404, "Not Found", { httpStatus: 404 });
    return id;
  };
  const inDb = (r: RouteRequest, dbName: unknown): SimDataCollection[] => {
    const db = typeof dbName === "string" && dbName !== "" ? dbName : "default";
    const all = collectionsAt(planes, clusters, known(r), r.nowMs);
    if (db !== "default" && !all.some((c) => c.dbName === db)) {
      throw new SimApiError(DataPlaneCode.DATABASE_NOT_FOUND, `database not found[database=${db}]`);
    }
    return all.filter((c) => c.dbName === db);
  };
  const one = (r: RouteRequest): SimDataCollection => {
    const b = body(r);
    const found = inDb(r, b.dbName).find((c) => c.collectionName === b.collectionName);
    if (!found) {
      throw new SimApiError(
        DataPlaneCode.COLLECTION_NOT_FOUND,
        `collection not found[collection=${String(b.collectionName)}]`,
      );
    }
    return found;
  };
  const indexesOf = (r: RouteRequest, c: SimDataCollection): SimIndex[] =>
    planes.indexes.get(known(r))?.get(collectionKey(c.dbName, c.collectionName)) ?? [];
  const route = (method: "GET" | "POST", path: string, handle: RouteDef["handle"]): RouteDef => ({
    method,
    path: `/dp/:cluster${path}`,
    template: `${method} ${path}`,
    version: path.startsWith("/v1") ? 1 : 2,
    mutating: false,
    dataShape: "object",
    clusterId: clusterOf,
    dataPlane: true,
    handle,
  });
  return [
    route("POST", "/v2/vectordb/databases/list", (r) => [
      ...new Set(["default", ...collectionsAt(planes, clusters, known(r), r.nowMs).map((c) => c.dbName)]),
    ]),
    route("POST", "/v2/vectordb/collections/list", (r) => {
      if (planes.v1Only.has(known(r))) throw new SimApiError(404, "Not Found", { httpStatus: 404 });
      return inDb(r, body(r).dbName).map((c) => c.collectionName);
    }),
    route("GET", "/v1/vector/collections", (r) => inDb(r, r.query.dbName).map((c) => c.collectionName)),
    route("POST", "/v2/vectordb/collections/get_load_state", (r) => {
      const c = one(r);
      return c.loadState === "LoadStateNotLoad"
        ? { loadState: c.loadState }
        : { loadState: c.loadState, loadProgress: c.loadProgress };
    }),
    route("POST", "/v2/vectordb/collections/get_stats", (r) => ({ rowCount: one(r).rows })),
    route("POST", "/v2/vectordb/indexes/list", (r) => indexesOf(r, one(r)).map((i) => i.indexName)),
    route("POST", "/v2/vectordb/indexes/describe", (r) => {
      const c = one(r);
      const name = body(r).indexName;
      const index = indexesOf(r, c).find((i) => i.indexName === name);
      if (!index)
        throw new SimApiError(DataPlaneCode.INDEX_NOT_FOUND, `index not found[indexName=${String(name)}]`);
      const view = indexView(index, c.rows, r.nowMs, planes.timeScale);
      return describeIndexData(view, describeShapeOf(clusters, known(r)));
    }),
    // Anything else written to a data plane (create, drop, insert, load, release...) is recorded.
    ...(["POST", "PUT", "DELETE"] as const).map(
      (method): RouteDef => ({
        method,
        path: "/dp/:cluster/{*rest}",
        template: `${method} /dp/*`,
        version: 2,
        mutating: true,
        dataShape: "object",
        clusterId: clusterOf,
        handle: () => ({}),
      }),
    ),
  ];
}
