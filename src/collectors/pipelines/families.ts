/**
 * Pipelines (docs/metrics.md): the seed's Pipeline resource, each known project's pipelines in
 * each known region, whether each serves, the tokens it has cost and its functions.
 */
import { counter, gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** The source of every pipeline family: List Pipelines, or Describe Pipeline for a pipeline listed without its functions. */
const SOURCE = `${ENDPOINT.listPipelines}?projectId= (at the region's controller, {controller_url}; ${ENDPOINT.describePipeline} where the list item lacks it)`;

/** When no pipeline family has a series, whatever else its own entry adds. */
const NO_PIPELINES =
  'no series with pipelines.enabled false, on shards other than 0, for a project and region without pipelines, or before their listing answered; none where the region\'s controller offers no pipelines (HTTP 404 or 80002 on the path: the service discontinued them by the end of Q2 2025), which the landing page shows as "not offered here" (vdbcloud_collector_up{collector="pipelines"} stays 1); a pipeline no longer listed loses its series at the next listing';

/** Each known project's pipelines: List Pipelines (V1) per known project and region (shard 0). */
export const PIPELINE_FAMILIES = {
  info: gauge("vdbcloud_pipeline_info", {
    help: "A pipeline of a project in labels, always 1: its name, type (ingestion, search or deletion, lowercased) and the cluster and collection it targets (a search pipeline's functions' one target, else empty) (upstream List Pipelines V1).",
    labels: ["project_id", "pipeline_id", "pipeline_name", "type", "cluster_id", "collection_name"],
    source: `${SOURCE} pipelineId, name, type, CLUSTER_ID / clusterId / clusterID (or the functions'), collectionName / newCollectionName`,
    absent: `${NO_PIPELINES}; type, cluster_id and collection_name are empty when the answer leaves them out (cluster_id and collection_name also for a search pipeline whose functions target several)`,
  }),
  status: gauge("vdbcloud_pipeline_status", {
    help: "Status of a pipeline, one series per status (serving, plus the current one in lower snake case when it is another: the reference lists no other), 1 for the current one; anything but serving means the pipeline does not work (upstream List Pipelines V1 status).",
    labels: ["pipeline_id", "status"],
    source: `${SOURCE} status (SERVING means working; no other value documented)`,
    absent: `${NO_PIPELINES}; none for a pipeline whose answers carry no status`,
  }),
  embeddingTokens: counter("vdbcloud_pipeline_embedding_tokens_total", {
    help: "Embedding tokens the pipeline has cost, the service's running total since the pipeline was created (not counted since the exporter started: read as is each poll, so rate() works across exporter restarts); the oldest answers' single totalTokenUsage is read as embedding tokens (upstream List Pipelines V1 totalUsage.embedding).",
    labels: ["pipeline_id"],
    unit: "tokens",
    source: `${SOURCE} totalUsage.embedding (an object, or the sum over the schema's array of strings), else totalTokenUsage`,
    absent: `${NO_PIPELINES}; none for a pipeline whose answers carry no usage`,
  }),
  rerankTokens: counter("vdbcloud_pipeline_rerank_tokens_total", {
    help: "Rerank tokens the pipeline has cost (search pipelines with the reranker), the service's running total since the pipeline was created (not counted since the exporter started: read as is each poll) (upstream List Pipelines V1 totalUsage.rerank).",
    labels: ["pipeline_id"],
    unit: "tokens",
    source: `${SOURCE} totalUsage.rerank (an object, or the sum over the schema's array of strings)`,
    absent: `${NO_PIPELINES}; none for a pipeline whose usage names no rerank tokens (ingestion and deletion pipelines, and the current sample's {embedding: 0})`,
  }),
  functions: gauge("vdbcloud_pipeline_functions", {
    help: "Functions of a pipeline per action, in lower snake case (index_doc, preserve, index_text, index_image, search_doc_chunks, purge_doc_index, ...; any action the service sends) (upstream List Pipelines V1 functions[].action).",
    labels: ["pipeline_id", "action"],
    unit: "count",
    source: `${SOURCE} functions[].action`,
    absent: `${NO_PIPELINES}; none for an action the pipeline has no function of, or for a function without an action`,
  }),
} as const;
