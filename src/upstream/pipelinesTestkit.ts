/**
 * List Pipelines and Describe Pipeline (V1): the `data` of success answers in the shapes the
 * reference shows (docs/design.md section 7), for the endpoint, mapping and simulator tests.
 * Used by tests only; production code never imports this module.
 */

/** The current samples' ingestion pipeline: "pipe-..." ID, clusterId, `totalUsage {embedding: 0}`. */
export const SAMPLE_INGESTION_PIPELINE = {
  pipelineId: "pipe-6ca5dd1b4672659d3c3487",
  name: "my_ingestion_pipeline",
  type: "INGESTION",
  createTimestamp: 1721187300000,
  clusterId: "in03-0123456789abcdef",
  collectionName: "my_collection",
  description: "A pipeline that splits a text file into chunks and generates embeddings.",
  status: "SERVING",
  totalUsage: { embedding: 0 },
  functions: [
    {
      action: "INDEX_DOC",
      name: "index_my_doc",
      inputFields: ["doc_url"],
      language: "ENGLISH",
      chunkSize: 500,
      splitBy: ["\n\n", "\n", " ", ""],
      embedding: "zilliz/bge-base-en-v1.5",
    },
    {
      action: "PRESERVE",
      name: "keep_doc_info",
      inputField: "publish_year",
      outputField: "publish_year",
      fieldType: "Int16",
    },
  ],
} as const;

/**
 * A search pipeline as the samples show it: no target of its own, each function names its
 * cluster and collection, with the reranker.
 */
export const SAMPLE_SEARCH_PIPELINE = {
  pipelineId: "pipe-26a18a66ffc8c0edfdb874",
  name: "my_search_pipeline",
  type: "SEARCH",
  createTimestamp: 1721187655000,
  description: "A pipeline that converts a query into a vector and searches the chunks.",
  status: "SERVING",
  totalUsage: { embedding: 0, rerank: 0 },
  functions: [
    {
      action: "SEARCH_DOC_CHUNKS",
      name: "search_chunk_text",
      inputFields: ["query_text"],
      clusterId: "in03-0123456789abcdef",
      collectionName: "my_collection",
      embedding: "zilliz/bge-base-en-v1.5",
      reranker: "service/bge-reranker-base",
    },
  ],
} as const;

/** List Pipelines' `data` as the samples show it: an array. */
export const REFERENCE_PIPELINES = [SAMPLE_INGESTION_PIPELINE, SAMPLE_SEARCH_PIPELINE] as const;

/**
 * The schema's shape: one object, an integer ID, `CLUSTER_ID`, `newCollectionName`, and
 * `totalUsage` as an array of `{embedding, rerank}` numeric strings.
 */
export const SCHEMA_PIPELINE = {
  pipelineId: 42,
  name: "schema_pipeline",
  type: "DELETION",
  CLUSTER_ID: "in01-fedcba9876543210",
  newCollectionName: "docs_v2",
  status: "SERVING",
  totalUsage: [
    { embedding: "120", rerank: "3" },
    { embedding: "30", rerank: "2" },
  ],
  functions: [{ action: "PURGE_DOC_INDEX", name: "purge_doc", inputField: "doc_name" }],
} as const;

/** The oldest sample: one `totalTokenUsage` number, no `totalUsage`. */
export const OLDEST_PIPELINE = {
  pipelineId: "pipe-0a1b2c3d4e5f60718293a4",
  name: "old_pipeline",
  type: "INGESTION",
  clusterId: "in03-0123456789abcdef",
  collectionName: "old_collection",
  status: "SERVING",
  totalTokenUsage: 0,
  functions: [{ action: "INDEX_TEXT", name: "index_text", inputFields: ["text_list"], language: "ENGLISH" }],
} as const;
