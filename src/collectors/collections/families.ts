/**
 * The collections collector's families (docs/metrics.md): each cluster's collections as its data
 * plane lists and describes them, and their indexes (List Indexes, Describe Index). A build's
 * failReason is free text: it is logged once, never a label.
 */
import { gauge } from "../../metrics/define.js";
import type { FamilyDef } from "../../metrics/sample.js";
import { DATA_PLANE_ENDPOINT } from "../../upstream/types.js";

/** The labels of a per-collection family. */
const COLLECTION_LABELS = ["cluster_id", "db_name", "collection_name"] as const;
/** When no collection family has a series, whatever else its own entry adds. */
const NO_DATA_PLANE =
  'no series without collections.enabled or for a cluster whose data plane does not answer (see vdbcloud_collector_up{collector="collections"})';

/** Collection families: each cluster's data plane (List Collections, Get Load State, Get Stats). */
export const COLLECTION_FAMILIES = {
  collectionInfo: gauge("vdbcloud_collection_info", {
    help: "A collection the data plane lists (after include/exclude), always 1 (upstream List Collections).",
    labels: COLLECTION_LABELS,
    source: `${DATA_PLANE_ENDPOINT.listCollections} (data plane) names`,
    absent: `${NO_DATA_PLANE}; a collection disappears as soon as a listing no longer holds it`,
  }),
  loadState: gauge("vdbcloud_collection_load_state", {
    help: "Collection load state, one series per state, 1 for the current one (upstream Get Load State loadState).",
    labels: [...COLLECTION_LABELS, "state"],
    unit: "1 (state set)",
    source: `${DATA_PLANE_ENDPOINT.getLoadState} (data plane) loadState`,
    absent: `${NO_DATA_PLANE}; none with collections.load_state false or beyond collections.max_per_cluster`,
  }),
  loadProgress: gauge("vdbcloud_collection_load_progress_ratio", {
    help: "Load progress of a collection while it is loading, 0 to 1 (upstream Get Load State loadProgress, percent / 100).",
    labels: COLLECTION_LABELS,
    source: `${DATA_PLANE_ENDPOINT.getLoadState} (data plane) loadProgress (percent)`,
    absent: `unless the collection is loading; ${NO_DATA_PLANE}`,
  }),
  rows: gauge("vdbcloud_collection_rows", {
    help: "Rows in the collection (upstream Get Collection Stats rowCount).",
    labels: COLLECTION_LABELS,
    unit: "count",
    source: `${DATA_PLANE_ENDPOINT.getStats} (data plane) rowCount`,
    absent: `${NO_DATA_PLANE}; none unless collections.row_count is true, or beyond collections.max_per_cluster`,
  }),
  notPolled: gauge("vdbcloud_collections_not_polled", {
    help: "Collections listed (after include/exclude) beyond collections.max_per_cluster, for which no load state, rows or metrics are polled (source: the data plane's List Collections).",
    labels: ["cluster_id"],
    unit: "count",
    source: `${DATA_PLANE_ENDPOINT.listCollections} (data plane), the kept names beyond collections.max_per_cluster`,
    absent: NO_DATA_PLANE,
  }),
} as const;

/** The labels of every index family but the info and the state set. */
const INDEX_LABELS = ["cluster_id", "db_name", "collection_name", "index_name"] as const;

/** When no index family has a series, whatever else its own entry adds. */
const NOT_ASKED =
  'no series unless collections.enabled and collections.indexes (the default), for collections beyond collections.max_per_cluster, or while the cluster\'s data plane does not answer (see vdbcloud_collector_up{collector="collections"}); an index disappears as soon as List Indexes no longer lists it';

/** Describe Index, whose answer every index family reads. */
const DESCRIBE_INDEX = `${DATA_PLANE_ENDPOINT.describeIndex} (data plane)`;

/** A count of one field of Describe Index, per index: absent while the answer carries none. */
function indexCount(name: string, field: string, help: string): FamilyDef {
  return gauge(name, {
    help,
    labels: INDEX_LABELS,
    unit: "count",
    source: `${DESCRIBE_INDEX} ${field}`,
    absent: `${NOT_ASKED}; none while the answer carries no ${field}`,
  });
}

/** Indexes: List Indexes and Describe Index per polled collection. */
export const INDEX_FAMILIES = {
  indexInfo: gauge("vdbcloud_index_info", {
    help: "An index of a polled collection with the field it indexes, its type and its similarity metric (empty for a scalar field), always 1 (upstream Describe Index fieldName, indexType, metricType).",
    labels: [...INDEX_LABELS, "field_name", "index_type", "metric_type"],
    source: `${DESCRIBE_INDEX} fieldName, indexType, metricType`,
    absent: NOT_ASKED,
  }),
  indexState: gauge("vdbcloud_index_state", {
    help: "Index build state, one series per known state, 1 for the current one (upstream Describe Index indexState: IndexStateNone, Unissued, InProgress, Finished, Failed, Retry).",
    labels: [...INDEX_LABELS, "state"],
    unit: "1 (state set)",
    source: `${DESCRIBE_INDEX} indexState`,
    absent: `${NOT_ASKED}; none while the answer carries no indexState`,
  }),
  indexRows: indexCount(
    "vdbcloud_index_rows",
    "totalRows",
    "Rows of the collection the index is built over (upstream Describe Index totalRows, count).",
  ),
  indexedRows: indexCount(
    "vdbcloud_index_indexed_rows",
    "indexedRows",
    "Rows the index covers (upstream Describe Index indexedRows, count).",
  ),
  pendingRows: indexCount(
    "vdbcloud_index_pending_rows",
    "pendingRows",
    "Rows waiting to be indexed, the build's backlog (upstream Describe Index pendingRows, count).",
  ),
} as const;
