/**
 * The indexes of each simulated collection, as List Indexes and Describe Index answer them
 * (docs/design.md section 7). Every collection has a vector index, embedding_idx; every third
 * one also a scalar index, title_idx (INVERTED, no metric). The first cluster shows the two
 * builds an operator watches: its second collection's vector index is built from the
 * simulator's start (Unissued for a minute, then InProgress over half an hour of simulated
 * time, its indexed rows growing, then Finished), and its third collection's failed (Failed,
 * with a reason, a share of the rows indexed and the rest pending for ever). Tests pin any
 * other state through SimState. Describe Index answers a one-item array, as every sample
 * does, on even clusters and the schema's object on odd ones.
 */
import type { SimCluster } from "./world.js";

/** How an index's build goes. */
type IndexBuild =
  | { readonly kind: "finished" }
  /** Unissued for UNISSUED_S, then InProgress for BUILD_S of simulated time, then Finished. */
  | { readonly kind: "building"; readonly startMs: number }
  | { readonly kind: "failed"; readonly indexedShare: number; readonly reason: string }
  /** Whatever a test set, as is. */
  | {
      readonly kind: "pinned";
      readonly view: Omit<SimIndexView, "indexName" | "fieldName" | "indexType" | "metricType">;
    };

/** One index of a simulated collection. */
export interface SimIndex {
  readonly indexName: string;
  readonly fieldName: string;
  readonly indexType: string;
  readonly metricType: string;
  readonly build: IndexBuild;
}

/** What Describe Index tells of an index at one moment. */
export interface SimIndexView {
  readonly indexName: string;
  readonly fieldName: string;
  readonly indexType: string;
  readonly metricType: string;
  readonly indexState: string;
  readonly totalRows: number;
  readonly indexedRows: number;
  readonly pendingRows: number;
  readonly failReason: string;
}

/** What a test may pin of an index (SimState.setIndex); unset rows follow the collection's. */
export interface SetIndexInput {
  readonly indexName: string;
  readonly fieldName?: string;
  readonly indexType?: string;
  readonly metricType?: string;
  readonly state: string;
  readonly totalRows?: number;
  readonly indexedRows?: number;
  readonly pendingRows?: number;
  readonly failReason?: string;
}

const UNISSUED_S = 60;
/** Simulated seconds the demo's build takes once issued (three minutes at the demo's time scale). */
export const BUILD_S = 1_800;

/** Why the first cluster's third collection's index build failed. */
export const FAILED_BUILD_REASON =
  "index build failed: segment 451 exceeds the memory of its index node (required 3.2 GB, available 2.0 GB)";

/** The generated indexes of one collection at position `i` of cluster `ci`. */
export function generatedIndexes(ci: number, i: number, startMs: number): SimIndex[] {
  const build: IndexBuild =
    ci === 0 && i === 1
      ? { kind: "building", startMs }
      : ci === 0 && i === 2
        ? { kind: "failed", indexedShare: 0.4, reason: FAILED_BUILD_REASON }
        : { kind: "finished" };
  const vector: SimIndex = {
    indexName: "embedding_idx",
    fieldName: "embedding",
    indexType: i % 4 === 3 ? "HNSW" : "AUTOINDEX",
    metricType: i % 2 === 0 ? "COSINE" : "L2",
    build,
  };
  if (i % 3 !== 1) return [vector];
  return [
    vector,
    {
      indexName: "title_idx",
      fieldName: "title",
      indexType: "INVERTED",
      metricType: "",
      build: { kind: "finished" },
    },
  ];
}

/** A pinned index from a test's input, its rows defaulting to the collection's `rows`. */
export function pinnedIndex(input: SetIndexInput, rows: number): SimIndex {
  const totalRows = input.totalRows ?? rows;
  const indexedRows = input.indexedRows ?? totalRows;
  return {
    indexName: input.indexName,
    fieldName: input.fieldName ?? "embedding",
    indexType: input.indexType ?? "AUTOINDEX",
    metricType: input.metricType ?? "COSINE",
    build: {
      kind: "pinned",
      view: {
        indexState: input.state,
        totalRows,
        indexedRows,
        pendingRows: input.pendingRows ?? Math.max(0, totalRows - indexedRows),
        failReason: input.failReason ?? "",
      },
    },
  };
}

/** The index at `nowMs`, over a collection of `rows` rows; builds move `timeScale` times real time. */
export function indexView(index: SimIndex, rows: number, nowMs: number, timeScale: number): SimIndexView {
  const base = {
    indexName: index.indexName,
    fieldName: index.fieldName,
    indexType: index.indexType,
    metricType: index.metricType,
  };
  const b = index.build;
  if (b.kind === "pinned") return { ...base, ...b.view };
  const of = (indexed: number, indexState: string, failReason = ""): SimIndexView => ({
    ...base,
    indexState,
    totalRows: rows,
    indexedRows: indexed,
    pendingRows: rows - indexed,
    failReason,
  });
  if (b.kind === "finished") return of(rows, "Finished");
  if (b.kind === "failed") return of(Math.floor(rows * b.indexedShare), "Failed", b.reason);
  const elapsedS = (Math.max(0, nowMs - b.startMs) * timeScale) / 1000 - UNISSUED_S;
  if (elapsedS < 0) return of(0, "Unissued");
  if (elapsedS >= BUILD_S) return of(rows, "Finished");
  return of(Math.floor((rows * elapsedS) / BUILD_S), "InProgress");
}

/** Describe Index's `data` for a view: the samples' one-item array, or the schema's object. */
export function describeIndexData(view: SimIndexView, shape: "array" | "object"): unknown {
  const item = {
    ...view,
    "mmap.enabled": false,
    "indexoffsetcache.enabled": false,
    minIndexVersion: 5,
    maxIndexVersion: 6,
    indexParams: [
      { key: "index_type", value: view.indexType },
      ...(view.metricType === "" ? [] : [{ key: "metric_type", value: view.metricType }]),
    ],
  };
  return shape === "array" ? [item] : item;
}

/** Which shape a cluster's Describe Index answers with. */
export function describeShapeOf(clusters: readonly SimCluster[], clusterId: string): "array" | "object" {
  return clusters.findIndex((c) => c.id === clusterId) % 2 === 1 ? "object" : "array";
}
