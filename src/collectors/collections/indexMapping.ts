/** Pure mapping of the indexes of a cluster's polled collections (Describe Index) to samples. */

import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import { stateSet } from "../../metrics/stateSet.js";
import type { IndexDescription, IndexRef } from "../../upstream/indexes.js";
import { INDEX_FAMILIES as F } from "./families.js";

/** The engine's index states (IndexStateNone, Unissued, InProgress, Finished, Failed, Retry), as state-set values. */
export const INDEX_STATES: readonly string[] = [
  "none",
  "unissued",
  "in_progress",
  "finished",
  "failed",
  "retry",
];

/**
 * The state-set value of an upstream index state, in lower snake case without the engine's
 * "IndexState" prefix: IndexStateNone -> none, InProgress -> in_progress, and so any state the
 * engine adds later (BuildQueued -> build_queued); "" for none.
 */
export function indexStateValue(upstream: string): string {
  const trimmed = upstream.trim();
  const bare = trimmed.replace(/^IndexState_?/i, "");
  return (bare === "" ? trimmed : bare)
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** One index of a polled collection and what Describe Index last said of it. */
export interface DescribedIndex {
  /** The index as listed: its name labels the series, whatever the answer calls it. */
  readonly ref: IndexRef;
  readonly description: IndexDescription;
}

const finite = (n: number | null): n is number => n !== null && Number.isFinite(n);

/**
 * vdbcloud_index_info with field, type and metric; the index state set; total, indexed and
 * pending rows where the answer gives them. The fail reason is free text and never a label.
 */
export function mapIndexes(clusterId: string, indexes: readonly DescribedIndex[]): MappingResult {
  const out = new MappingBuilder();
  for (const { ref, description: d } of indexes) {
    const labels = {
      cluster_id: clusterId,
      db_name: ref.dbName,
      collection_name: ref.collectionName,
      index_name: ref.indexName,
    };
    out.add(
      F.indexInfo,
      { ...labels, field_name: d.fieldName, index_type: d.indexType, metric_type: d.metricType },
      1,
    );
    const state = indexStateValue(d.state);
    if (state !== "")
      out.addSamples(F.indexState, stateSet(F.indexState, labels, "state", INDEX_STATES, state));
    if (finite(d.totalRows)) out.add(F.indexRows, labels, d.totalRows);
    if (finite(d.indexedRows)) out.add(F.indexedRows, labels, d.indexedRows);
    if (finite(d.pendingRows)) out.add(F.pendingRows, labels, d.pendingRows);
  }
  return out.result();
}
