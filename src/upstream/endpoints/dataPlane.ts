/**
 * The data plane of one cluster (its own endpoint): List Databases, List Collections (V2, and the
 * deprecated V1 GET the client falls back to), Get Load State and Get Collection Stats. List
 * Indexes and Describe Index are in indexes.ts. Every body is JSON; no listing pages.
 */
import { z } from "zod";
import { nullableNumeric, stringish } from "../wire.js";
import { DATA_PLANE, defineEndpoint, type EndpointFacts } from "./define.js";

/** A collection of one database. */
export interface CollectionRef {
  readonly dbName: string;
  readonly collectionName: string;
}

/** A collection's load state as Get Load State reports it. */
export interface LoadState {
  /** The upstream value, e.g. LoadStateLoaded; "" when the answer has none. */
  readonly state: string;
  /** 0..100 while loading, when the answer gives it. */
  readonly progress: number | null;
}

const FACTS: EndpointFacts = { scope: "data plane", paging: "none" };

const names = z
  .array(stringish)
  .nullish()
  .transform((v) => v ?? []);

const same = <T>(d: T): T => d;

/** The collection a request names, as its body says it. */
const collectionBody = (r: CollectionRef) => ({ dbName: r.dbName, collectionName: r.collectionName });

/** List Databases: the names of the cluster's databases. */
export const listDatabasesEndpoint = defineEndpoint("POST /v2/vectordb/databases/list", FACTS).as<
  void,
  string[],
  string[]
>({ request: () => ({ target: DATA_PLANE, body: {} }), schema: names, normalize: same });

/** List Collections (V2): the collection names of one database. */
export const listCollectionsEndpoint = defineEndpoint("POST /v2/vectordb/collections/list", FACTS).as<
  string,
  string[],
  string[]
>({ request: (dbName) => ({ target: DATA_PLANE, body: { dbName } }), schema: names, normalize: same });

/** List Collections (V1, deprecated): where the V2 listing is unknown (HTTP 404). */
export const listCollectionsV1Endpoint = defineEndpoint("GET /v1/vector/collections", FACTS).as<
  string,
  string[],
  string[]
>({ request: (dbName) => ({ target: DATA_PLANE, query: { dbName } }), schema: names, normalize: same });

const loadStateSchema = z
  .object({ loadState: z.string().nullish(), loadProgress: nullableNumeric })
  .nullish()
  .transform((d) => ({ state: d?.loadState ?? "", progress: d?.loadProgress ?? null }));

/** Get Load State: whether a collection is loaded, and how far while it loads. */
export const getLoadStateEndpoint = defineEndpoint("POST /v2/vectordb/collections/get_load_state", FACTS).as<
  CollectionRef,
  LoadState,
  LoadState
>({
  request: (r) => ({ target: DATA_PLANE, body: collectionBody(r) }),
  schema: loadStateSchema,
  normalize: same,
});

const statsSchema = z
  .object({ rowCount: nullableNumeric })
  .nullish()
  .transform((d) => d?.rowCount ?? null);

/** Get Collection Stats: a collection's row count, null when the answer has none. */
export const getStatsEndpoint = defineEndpoint("POST /v2/vectordb/collections/get_stats", FACTS).as<
  CollectionRef,
  number | null,
  number | null
>({
  request: (r) => ({ target: DATA_PLANE, body: collectionBody(r) }),
  schema: statsSchema,
  normalize: same,
});
