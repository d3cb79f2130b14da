/**
 * The index families (docs/design.md section 5): each polled collection's indexes as the data
 * plane's List Indexes and Describe Index report them. Kept beside families.ts, which
 * re-exports them; the HELP conventions are the same. A build's failReason is free text: it is
 * logged once, never a label.
 */
import { gauge } from "./define.js";

/** The labels of every index family but the info and the state set. */
const INDEX_LABELS = ["cluster_id", "db_name", "collection_name", "index_name"] as const;

/** When no index family has a series, whatever else its own entry adds. */
const NOT_ASKED =
  'no series unless collections.enabled and collections.indexes (the default), for collections beyond collections.max_per_cluster, or while the cluster\'s data plane does not answer (see vdbcloud_collector_up{collector="collections"}); an index disappears as soon as List Indexes no longer lists it';

/** Indexes: List Indexes and Describe Index per polled collection. */
export const INDEX_FAMILIES = {
  indexInfo: gauge(
    "vdbcloud_index_info",
    "An index of a polled collection with the field it indexes, its type and its similarity metric (empty for a scalar field), always 1 (upstream Describe Index fieldName, indexType, metricType).",
    {
      labels: [...INDEX_LABELS, "field_name", "index_type", "metric_type"],
      unit: "1 (info)",
      source: "POST /v2/vectordb/indexes/describe (data plane) fieldName, indexType, metricType",
      absent: NOT_ASKED,
    },
  ),
  indexState: gauge(
    "vdbcloud_index_state",
    "Index build state, one series per known state, 1 for the current one (upstream Describe Index indexState: IndexStateNone, Unissued, InProgress, Finished, Failed, Retry).",
    {
      labels: [...INDEX_LABELS, "state"],
      unit: "1 (state set)",
      source: "POST /v2/vectordb/indexes/describe (data plane) indexState",
      absent: `${NOT_ASKED}; none while the answer carries no indexState`,
    },
  ),
  indexRows: gauge(
    "vdbcloud_index_rows",
    "Rows of the collection the index is built over (upstream Describe Index totalRows, count).",
    {
      labels: INDEX_LABELS,
      unit: "count",
      source: "POST /v2/vectordb/indexes/describe (data plane) totalRows",
      absent: `${NOT_ASKED}; none while the answer carries no totalRows`,
    },
  ),
  indexedRows: gauge(
    "vdbcloud_index_indexed_rows",
    "Rows the index covers (upstream Describe Index indexedRows, count).",
    {
      labels: INDEX_LABELS,
      unit: "count",
      source: "POST /v2/vectordb/indexes/describe (data plane) indexedRows",
      absent: `${NOT_ASKED}; none while the answer carries no indexedRows`,
    },
  ),
  pendingRows: gauge(
    "vdbcloud_index_pending_rows",
    "Rows waiting to be indexed, the build's backlog (upstream Describe Index pendingRows, count).",
    {
      labels: INDEX_LABELS,
      unit: "count",
      source: "POST /v2/vectordb/indexes/describe (data plane) pendingRows",
      absent: `${NOT_ASKED}; none while the answer carries no pendingRows`,
    },
  ),
} as const;
