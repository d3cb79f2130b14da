/**
 * Normalized results of List Pipelines (V1) and Describe Pipeline (V1), the seed's Pipeline
 * resource. Like every shape of results.ts, they know nothing of the wire's variants or of
 * Prometheus; the endpoint (endpoints/pipelines.ts) reads every variant into this one shape.
 */

/**
 * The tokens the service counted for a pipeline: its running totals since the pipeline was
 * created (the reference's `totalUsage`). `rerank` is null when the answer names no rerank
 * tokens (an ingestion pipeline has none; the current sample sends `{embedding: 0}` only).
 */
export interface PipelineUsage {
  readonly embedding: number;
  readonly rerank: number | null;
}

/**
 * One pipeline. `pipelineId` is text whatever the answer sent (the schema says an integer, the
 * samples "pipe-..."). `type` and `status` are the raw upstream values (INGESTION, SEARCH,
 * DELETION; SERVING means working), "" and null when absent. `clusterId` and `collectionName`
 * are the target's: the pipeline's own fields, else the one its functions all name, else "" (a
 * search pipeline whose functions name several). `usage` is null when the answer carries none;
 * `functionActions` is each function's action as sent, in order, null when the answer carries
 * no function list (then Describe Pipeline is asked: the list did not describe it fully).
 */
export interface Pipeline {
  readonly pipelineId: string;
  readonly name: string;
  readonly type: string;
  readonly status: string | null;
  readonly clusterId: string;
  readonly collectionName: string;
  readonly usage: PipelineUsage | null;
  readonly functionActions: readonly string[] | null;
}
