/**
 * What a read-only canary asks each data plane (served under /dp/{clusterId}, as data-plane.ts's
 * routes): Describe Collection, Search and Query. Every collection has a primary key `id` and a
 * vector field `vector` (FloatVector, dimension 8) unless a test sets another
 * (`SimCanary.setVector`). Describe Collection sends the field's `params` as the reference's
 * sample does (a key/value list) or as its schema does (an object): the `paramsShape` option.
 * Search checks the vector against the field (a wrong dimension is refused with the engine's
 * invalid-parameter code 1100); Search and Query answer `cost` (vCU) on free and serverless
 * clusters and 0 elsewhere, as the reference's samples do.
 *
 * Each cluster's data plane may be degraded (`profiles`, by cluster ID, "#n" for the n-th
 * cluster from 0, or "*" for all): each answer of these three endpoints takes a latency drawn
 * from [min, max] ms; a share of searches and queries fail with the engine's code 65535 or is
 * never answered (the client times out); `refuseKey` refuses the credential (1800) on all three.
 * Nothing here writes: anything else sent to a data plane is recorded as a mutating call.
 */
import type { SimDataCollection } from "./data-plane.js";
import { collectionKey, collectionsAt, type DataPlanes } from "./data-plane.js";
import { DESCRIBED_COLLECTION, DESCRIBED_ID_FIELD } from "./described-collection.js";
import { SimApiError, SimulatorError } from "./errors.js";
import { createRng, hashString, type Rng } from "./random.js";
import type { RouteDef, RouteRequest } from "./route.js";
import type { SimCluster } from "./world.js";

/** How one cluster's data plane answers the canary. Every field is optional. */
export interface SimCanaryProfile {
  /** Each answer's latency in ms: a fixed value, or drawn uniformly from [min, max]. Default 1..5. */
  readonly latencyMs?: number | { readonly min: number; readonly max: number };
  /** Share of searches and queries answered with an engine error (code 65535), 0..1. */
  readonly errorRate?: number;
  /** Share of searches and queries never answered, 0..1. */
  readonly timeoutRate?: number;
  /** The data plane refuses the credential (1800) on Describe Collection, Search and Query. */
  readonly refuseKey?: boolean;
}

/** The `canary` option of the simulator. */
export interface SimCanaryOptions {
  /** Describe Collection's `params`: "array" (the reference's sample, default) or "object" (its schema). */
  readonly paramsShape?: "array" | "object";
  /** Degraded data planes by cluster ID, "#n" (the n-th cluster from 0), or "*" (every cluster). */
  readonly profiles?: Readonly<Record<string, SimCanaryProfile>>;
}

/** A collection's vector field. */
export interface SimVectorField {
  readonly name: string;
  readonly type: string;
  /** null for a field without `dim` (a sparse field). */
  readonly dim: number | null;
}

/** The default vector field of every collection. */
export const SIM_VECTOR: SimVectorField = { name: "vector", type: "FloatVector", dim: 8 };

/** vCU a search and a query cost on free and serverless clusters. */
export const SEARCH_VCU = 2;
export const QUERY_VCU = 1;

/** The engine's codes the canary's endpoints answer besides the data plane's own. */
const INVALID_PARAMETER = 1100;
const INTERNAL_ERROR = 65535;
const NOT_AUTHENTICATED = 1800;

/** The canary's side of the simulator: options, profiles and vector fields, changeable at run time. */
export class SimCanary {
  readonly #profiles = new Map<string, SimCanaryProfile>();
  readonly #vectors = new Map<string, SimVectorField>();
  readonly #rngs = new Map<string, Rng>();

  constructor(
    private readonly clusters: readonly SimCluster[],
    private readonly seed: number,
    readonly paramsShape: "array" | "object",
    profiles: Readonly<Record<string, SimCanaryProfile>> = {},
  ) {
    for (const [key, profile] of Object.entries(profiles)) this.setProfile(key, profile);
  }

  /** Degrades (or, with `{}`, restores) the data plane of `cluster`: an ID, "#n" or "*". */
  setProfile(cluster: string, profile: SimCanaryProfile): void {
    this.#profiles.set(this.#keyOf(cluster), checkProfile(cluster, profile));
  }

  /** Every profile set, by the key it was set under. */
  profiles(): Record<string, SimCanaryProfile> {
    return Object.fromEntries(this.#profiles);
  }

  /** Gives a collection another vector field (a changed dimension, a binary field). */
  setVector(clusterId: string, dbName: string, collectionName: string, field: SimVectorField): void {
    this.#vectors.set(`${clusterId}\u0000${collectionKey(dbName, collectionName)}`, field);
  }

  vectorOf(clusterId: string, c: Pick<SimDataCollection, "dbName" | "collectionName">): SimVectorField {
    return this.#vectors.get(`${clusterId}\u0000${collectionKey(c.dbName, c.collectionName)}`) ?? SIM_VECTOR;
  }

  /** The profile `clusterId` answers with: its own, its position's, or every cluster's. */
  profileOf(clusterId: string): SimCanaryProfile {
    const at = this.clusters.findIndex((c) => c.id === clusterId);
    return this.#profiles.get(clusterId) ?? this.#profiles.get(`#${at}`) ?? this.#profiles.get("*") ?? {};
  }

  /** A draw in [0, 1) of `clusterId`'s own sequence (reproducible per seed). */
  draw(clusterId: string): number {
    let rng = this.#rngs.get(clusterId);
    if (rng === undefined) {
      rng = createRng(this.seed ^ hashString(`canary ${clusterId}`));
      this.#rngs.set(clusterId, rng);
    }
    return rng();
  }

  #keyOf(cluster: string): string {
    if (cluster === "*" || /^#\d+$/.test(cluster) || this.clusters.some((c) => c.id === cluster))
      return cluster;
    throw new SimulatorError("UNKNOWN_CLUSTER", `no cluster ${cluster} (an ID, "#n" or "*")`);
  }
}

const share = (v: unknown): boolean => v === undefined || (typeof v === "number" && v >= 0 && v <= 1);
const ms = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** `profile` checked; throws SimulatorError (INVALID_OPTION) naming what is wrong. */
function checkProfile(cluster: string, profile: SimCanaryProfile): SimCanaryProfile {
  const bad = (what: string): never => {
    throw new SimulatorError("INVALID_OPTION", `canary profile of ${cluster}: ${what}`);
  };
  if (typeof profile !== "object" || profile === null) bad("must be an object");
  const latency = profile.latencyMs;
  if (
    latency !== undefined &&
    !ms(latency) &&
    !(typeof latency === "object" && ms(latency.min) && ms(latency.max) && latency.min <= latency.max)
  )
    bad("latencyMs must be a number of ms or { min, max } with min <= max");
  if (!share(profile.errorRate)) bad("errorRate must be from 0 to 1");
  if (!share(profile.timeoutRate)) bad("timeoutRate must be from 0 to 1");
  if (profile.refuseKey !== undefined && typeof profile.refuseKey !== "boolean")
    bad("refuseKey must be a boolean");
  return profile;
}

/** The `canary` option resolved; throws SimulatorError (INVALID_OPTION). */
export function resolveCanaryOptions(opts: SimCanaryOptions | undefined): Required<SimCanaryOptions> {
  const paramsShape = opts?.paramsShape ?? "array";
  if (paramsShape !== "array" && paramsShape !== "object")
    throw new SimulatorError(
      "INVALID_OPTION",
      `canary.paramsShape must be "array" or "object", got ${String(paramsShape)}`,
    );
  return { paramsShape, profiles: opts?.profiles ?? {} };
}

/** A field as Describe Collection sends it, `params` in the chosen shape. */
function describedField(field: SimVectorField, shape: "array" | "object") {
  const params = field.dim === null ? {} : { dim: field.dim };
  return {
    autoId: false,
    description: "",
    id: 101,
    name: field.name,
    params:
      shape === "object"
        ? params
        : Object.entries(params).map(([key, value]) => ({ key, value: String(value) })),
    partitionKey: false,
    primaryKey: false,
    type: field.type,
  };
}

/** The canary's routes over `planes` (registered before data-plane.ts's catch-all of writes). */
export function canaryRoutes(
  planes: DataPlanes,
  clusters: readonly SimCluster[],
  canary: SimCanary,
): RouteDef[] {
  const clusterOf = (r: RouteRequest) => r.params.cluster;
  const body = (r: RouteRequest): Record<string, unknown> =>
    typeof r.body === "object" && r.body !== null ? (r.body as Record<string, unknown>) : {};
  const collection = (r: RouteRequest): { clusterId: string; c: SimDataCollection } => {
    const clusterId = r.params.cluster ?? "";
    if (!planes.collections.has(clusterId)) throw new SimApiError(404, "Not Found", { httpStatus: 404 });
    if (canary.profileOf(clusterId).refuseKey === true)
      throw new SimApiError(NOT_AUTHENTICATED, "User hasn't authenticated");
    const b = body(r);
    const db = typeof b.dbName === "string" && b.dbName !== "" ? b.dbName : "default";
    const c = collectionsAt(planes, clusters, clusterId, r.nowMs).find(
      (x) => x.dbName === db && x.collectionName === b.collectionName,
    );
    if (c === undefined)
      throw new SimApiError(100, `collection not found[collection=${String(b.collectionName)}]`);
    return { clusterId, c };
  };
  const cost = (clusterId: string, vcu: number): number => {
    const plan = clusters.find((c) => c.id === clusterId)?.plan;
    return plan === "Free" || plan === "Serverless" ? vcu : 0;
  };
  /** An engine error for a share of searches and queries (errorRate). */
  const maybeFail = (clusterId: string): void => {
    const rate = canary.profileOf(clusterId).errorRate ?? 0;
    if (rate > 0 && canary.draw(clusterId) < rate)
      throw new SimApiError(
        INTERNAL_ERROR,
        "service internal error: the query node failed to answer (simulated)",
      );
  };
  const latency =
    (probe: boolean) =>
    (r: RouteRequest): number | null => {
      const clusterId = r.params.cluster ?? "";
      const profile = canary.profileOf(clusterId);
      if (probe && (profile.timeoutRate ?? 0) > 0 && canary.draw(clusterId) < (profile.timeoutRate ?? 0))
        return null;
      const l = profile.latencyMs ?? { min: 1, max: 5 };
      return typeof l === "number" ? l : l.min + (l.max - l.min) * canary.draw(clusterId);
    };
  const route = (path: string, handle: RouteDef["handle"], probe: boolean): RouteDef => ({
    method: "POST",
    path: `/dp/:cluster${path}`,
    template: `POST ${path}`,
    version: 2,
    mutating: false,
    dataShape: probe ? "array" : "object",
    clusterId: clusterOf,
    dataPlane: true,
    // Search and Query answer `cost` and `topks` beside `data`: the handler writes the whole answer.
    ...(probe ? { bare: () => true } : {}),
    latency: latency(probe),
    handle,
  });
  return [
    route(
      "/v2/vectordb/collections/describe",
      (r) => {
        const { clusterId, c } = collection(r);
        const vector = canary.vectorOf(clusterId, c);
        return {
          ...DESCRIBED_COLLECTION,
          // An ID of the sample's size (past 2^53, as the service's are), stable per collection.
          collectionID:
            448_707_763_883_002_000 +
            (hashString(`${clusterId} ${collectionKey(c.dbName, c.collectionName)}`) % 1_000_000),
          collectionName: c.collectionName,
          fields: [DESCRIBED_ID_FIELD, describedField(vector, canary.paramsShape)],
          indexes: [{ fieldName: vector.name, indexName: vector.name, metricType: "COSINE" }],
          load: c.loadState,
        };
      },
      false,
    ),
    route(
      "/v2/vectordb/entities/search",
      (r) => {
        const { clusterId, c } = collection(r);
        const b = body(r);
        const field = canary.vectorOf(clusterId, c);
        if (b.annsField !== field.name)
          throw new SimApiError(
            INVALID_PARAMETER,
            `field ${String(b.annsField)} not exist: invalid parameter`,
          );
        const data = Array.isArray(b.data) ? (b.data as unknown[]) : [];
        const vector = data[0];
        if (data.length !== 1 || vector === undefined)
          throw new SimApiError(1802, "missing required parameters: data");
        const dim = Array.isArray(vector) ? vector.length : null;
        if (field.dim !== null && dim !== field.dim)
          throw new SimApiError(
            INVALID_PARAMETER,
            `the dim (${String(dim)}) of field data(${field.name}) is not equal to schema dim (${field.dim}): invalid parameter`,
          );
        maybeFail(clusterId);
        const hits = c.rows > 0 ? [{ distance: 0.42, id: 1 }] : [];
        return { code: 0, cost: cost(clusterId, SEARCH_VCU), data: hits, topks: [hits.length] };
      },
      true,
    ),
    route(
      "/v2/vectordb/entities/query",
      (r) => {
        const { clusterId, c } = collection(r);
        maybeFail(clusterId);
        return { code: 0, cost: cost(clusterId, QUERY_VCU), data: c.rows > 0 ? [{ id: 1 }] : [] };
      },
      true,
    ),
  ];
}
