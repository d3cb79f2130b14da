/**
 * List Indexes and Describe Index (V2) of a cluster's data plane (docs/design.md section 7):
 * the names of a collection's indexes, then per index its field, type, metric, build state and
 * rows. Describe Index's `data` is an object in the reference's schema and a one-item array in
 * every sample: both are read. The page names no indexState values; the engine's are
 * IndexStateNone, Unissued, InProgress, Finished, Failed and Retry, and any other is kept as sent.
 */
import { z } from "zod";
import { lenient, lenientTextOrEmpty as text } from "../lenient.js";
import { numeric, stringish } from "../wire.js";
import { DATA_PLANE, defineEndpoint } from "./define.js";

/** One index of a collection: what Describe Index is asked for. */
export interface IndexRef {
  readonly dbName: string;
  readonly collectionName: string;
  readonly indexName: string;
}

/** One index as Describe Index reports it; text the answer leaves out reads as "". */
export interface IndexDescription {
  readonly indexName: string;
  readonly fieldName: string;
  /** e.g. AUTOINDEX, HNSW, INVERTED. */
  readonly indexType: string;
  /** e.g. COSINE, L2; "" for an index of a scalar field. */
  readonly metricType: string;
  /** The upstream indexState as sent (Finished, InProgress, ...); "" when the answer has none. */
  readonly state: string;
  /** Rows of the field (totalRows); null when not given. */
  readonly totalRows: number | null;
  readonly indexedRows: number | null;
  readonly pendingRows: number | null;
  /** Why the build failed; "" while it has not. Logged, never a label (it is free text). */
  readonly failReason: string;
}

const rows = lenient(numeric);

const indexSchema = z.object({
  indexName: text,
  fieldName: text,
  indexType: text,
  metricType: text,
  indexState: text,
  totalRows: rows,
  indexedRows: rows,
  pendingRows: rows,
  failReason: text,
});

/** Describe Index's `data`: the schema's object, or the samples' array of them. */
export const describeIndexDataSchema = z.union([z.array(indexSchema), indexSchema]);

type DescribeIndexData = z.infer<typeof describeIndexDataSchema>;

/**
 * The asked index of `data`: the array's item of that name (else its first), or the object; null
 * for an empty array (the index was dropped since it was listed). A name the answer leaves out is
 * the one asked.
 */
export function normalizeDescribeIndex(data: DescribeIndexData, asked: IndexRef): IndexDescription | null {
  const item = Array.isArray(data) ? (data.find((d) => d.indexName === asked.indexName) ?? data[0]) : data;
  if (item === undefined) return null;
  return {
    indexName: item.indexName === "" ? asked.indexName : item.indexName,
    fieldName: item.fieldName,
    indexType: item.indexType,
    metricType: item.metricType,
    state: item.indexState,
    totalRows: item.totalRows,
    indexedRows: item.indexedRows,
    pendingRows: item.pendingRows,
    failReason: item.failReason,
  };
}

const indexNames = z
  .array(stringish)
  .nullish()
  .transform((v) => [...new Set(v ?? [])]);

/** List Indexes: the index names of one collection (each once). */
export const listIndexesEndpoint = defineEndpoint("POST /v2/vectordb/indexes/list", {
  scope: "data plane",
  paging: "none",
}).as<Omit<IndexRef, "indexName">, string[], string[]>({
  request: (r) => ({
    target: DATA_PLANE,
    body: { dbName: r.dbName, collectionName: r.collectionName },
  }),
  schema: indexNames,
  normalize: (names) => names,
});

/** Describe Index: one index's description, or null when the answer holds none. */
export const describeIndexEndpoint = defineEndpoint("POST /v2/vectordb/indexes/describe", {
  scope: "data plane",
  paging: "none",
}).as<IndexRef, DescribeIndexData, IndexDescription | null>({
  request: (r) => ({
    target: DATA_PLANE,
    body: { dbName: r.dbName, collectionName: r.collectionName, indexName: r.indexName },
  }),
  schema: describeIndexDataSchema,
  normalize: (data, asked) => normalizeDescribeIndex(data, asked),
});
