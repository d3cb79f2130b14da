/**
 * List Pipelines (V1), GET {controller_url}/v1/pipelines?projectId= (required, no paging), and
 * Describe Pipeline (V1), GET {controller_url}/v1/pipelines/{PIPELINE_ID}: the seed's Pipeline
 * resource, at the region's v1 controller. The reference marks both deprecated, and the service
 * discontinued pipelines (no new users since December 2024, removed by the end of Q2 2025), so a
 * controller may answer that it has none: List Pipelines is declared `absent` (NOT_OFFERED_CODES).
 *
 * Success is code 200 (v1; the envelope accepts it). The schema and the samples differ, and
 * every variant of docs/design.md section 7 is read into one shape (pipelineTypes.ts):
 * - the list's `data` is an array (samples) or one object (schema);
 * - `pipelineId` is an integer (schema) or "pipe-..." (samples): read as text;
 * - `totalUsage` is an array of `{embedding, rerank}` numeric strings (schema: summed), an object
 *   `{embedding: 0}` (the current sample; `rerank` where given), or absent beside a top-level
 *   `totalTokenUsage: 0` (the oldest sample), which names no kind: it is read as embedding
 *   tokens, the one kind every pipeline's documents and queries cost;
 * - the target cluster is `CLUSTER_ID` (schema), `clusterId` (samples), `clusterID` (the seed's
 *   table), or only inside each search function: then the one cluster the functions name, or ""
 *   when they name several; the collection likewise, as `collectionName` or `newCollectionName`;
 * - `functions` [{name, action, ...}], the action any string (INDEX_DOC, PRESERVE, INDEX_TEXT,
 *   INDEX_IMAGE, SEARCH_DOC_CHUNKS, PURGE_DOC_INDEX, ...).
 * One odd pipeline costs itself (it has no usable ID then), never the listing.
 */
import { z } from "zod";
import { idOrAsked, lenient, lenientText } from "../lenient.js";
import type { Pipeline, PipelineUsage } from "../pipelineTypes.js";
import { numeric, stringish } from "../wire.js";
import { defineEndpoint } from "./define.js";

/** Arguments of List Pipelines: the project, and the region whose controller is asked. */
interface ListPipelinesArgs {
  readonly projectId: string;
  readonly regionId: string;
}

/** Arguments of Describe Pipeline: the pipeline, and the region whose controller is asked. */
interface DescribePipelineArgs {
  readonly pipelineId: string;
  readonly regionId: string;
}

/** A token count: a number or a numeric string (the schema's), null when unreadable. */
const tokens = lenient(numeric);

/** Where a pipeline or a function names its target: every spelling the reference uses. */
const targetFields = {
  CLUSTER_ID: lenientText,
  clusterId: lenientText,
  clusterID: lenientText,
  collectionName: lenientText,
  newCollectionName: lenientText,
};

const usageSchema = z.union([
  z.array(lenient(z.object({ embedding: tokens, rerank: tokens }))),
  z.object({ embedding: tokens, rerank: tokens }),
]);

const functionSchema = z.object({ action: lenientText, ...targetFields });

const pipelineSchema = z.object({
  pipelineId: lenient(stringish),
  name: lenientText,
  type: lenientText,
  status: lenientText,
  ...targetFields,
  totalUsage: lenient(usageSchema),
  totalTokenUsage: tokens,
  // A function that is not an object is left out; the others are counted. The schema's deletion
  // variant gives its one function as an object, not a list.
  functions: lenient(z.union([z.array(lenient(functionSchema)), functionSchema.transform((f) => [f])])),
});

/** One pipeline as read, null when it is not an object at all. */
const onePipeline = lenient(pipelineSchema);

type PipelineData = z.infer<typeof pipelineSchema>;
type TargetData = Pick<PipelineData, keyof typeof targetFields>;

/** The `data` of List Pipelines: an array (the samples) or one object (the schema). */
export const pipelinesDataSchema = z.union([z.array(onePipeline), pipelineSchema]);

/** The `data` of Describe Pipeline: one pipeline. */
export const pipelineDataSchema = pipelineSchema;

type PipelinesData = z.infer<typeof pipelinesDataSchema>;

/** Trimmed text, null when absent or blank. */
function textOf(value: string | null): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

const clusterOf = (t: TargetData) => textOf(t.CLUSTER_ID) ?? textOf(t.clusterId) ?? textOf(t.clusterID);
const collectionOf = (t: TargetData) => textOf(t.collectionName) ?? textOf(t.newCollectionName);

/** The one value `pick` finds among `functions`, "" when none or several. */
function onlyOne(functions: readonly (TargetData | null)[], pick: (t: TargetData) => string | null): string {
  const found = new Set(
    functions.flatMap((f) => (f === null ? [] : [pick(f) ?? ""])).filter((v) => v !== ""),
  );
  return found.size === 1 ? ([...found][0] as string) : "";
}

/** The usage of every variant (see the module comment), null when the answer carries none. */
function usageOf(p: PipelineData): PipelineUsage | null {
  const usage = p.totalUsage;
  if (Array.isArray(usage)) {
    const items = usage.filter((u) => u !== null);
    const rerank = items.filter((u) => u.rerank !== null);
    return {
      embedding: items.reduce((sum, u) => sum + (u.embedding ?? 0), 0),
      rerank: rerank.length === 0 ? null : rerank.reduce((sum, u) => sum + (u.rerank ?? 0), 0),
    };
  }
  if (usage !== null && (usage.embedding !== null || usage.rerank !== null)) {
    return { embedding: usage.embedding ?? 0, rerank: usage.rerank };
  }
  // The oldest sample's one number names no kind of token: read as embedding tokens.
  return p.totalTokenUsage === null ? null : { embedding: p.totalTokenUsage, rerank: null };
}

/** One pipeline in the normalized shape, or null without a usable ID (it cannot be told apart). */
export function normalizePipeline(p: PipelineData): Pipeline | null {
  const pipelineId = textOf(p.pipelineId);
  if (pipelineId === null) return null;
  const functions = p.functions;
  return {
    pipelineId,
    name: textOf(p.name) ?? "",
    type: textOf(p.type) ?? "",
    status: textOf(p.status),
    clusterId: clusterOf(p) ?? onlyOne(functions ?? [], clusterOf),
    collectionName: collectionOf(p) ?? onlyOne(functions ?? [], collectionOf),
    usage: usageOf(p),
    functionActions:
      functions === null ? null : functions.flatMap((f) => (f === null ? [] : [textOf(f.action) ?? ""])),
  };
}

/** Maps List Pipelines' `data` (either shape) to its pipelines, each ID once (the first listing wins). */
export function normalizePipelines(data: PipelinesData): Pipeline[] {
  const items = Array.isArray(data) ? data : [data];
  const byId = new Map<string, Pipeline>();
  for (const item of items) {
    const p = item === null ? null : normalizePipeline(item);
    if (p !== null && !byId.has(p.pipelineId)) byId.set(p.pipelineId, p);
  }
  return [...byId.values()];
}

/**
 * Whether a pipeline as listed lacks its functions, so that Describe Pipeline is asked for it. A
 * missing usage or status is no reason: the reference's own list items leave out the usage of
 * search and deletion pipelines, and Describe answers the same object, so asking would cost a
 * call per such pipeline every interval and add nothing (their families are then absent).
 */
export function needsDescribe(p: Pipeline): boolean {
  return p.functionActions === null;
}

/** What the polling schedule of `--check-config` says of List Pipelines: its number grows with what a run lists. */
const LIST_RUN_TIME_COUNT =
  "pipelines: one List Pipelines (V1) call per project and region that List Projects V2 lists (regionIds), counted here for the configured clusters' projects and regions; a region whose controller offers no pipelines (HTTP 404, or 80002 on the path: the service discontinued them) is not offered here, asked again once a day";

/** What it says of Describe Pipeline: asked only for a pipeline the list does not describe fully. */
const DESCRIBE_RUN_TIME_COUNT =
  "pipelines: Describe Pipeline (V1) only for a listed pipeline whose list item lacks its functions (the reference's samples carry them)";

/**
 * The v1 codes by which a controller without pipelines refuses their path: the reference's
 * failure sample for both endpoints is 80002 "Token not found or unauthorized", and 80001 is its
 * invalid-token twin (docs/design.md section 7: such a controller answers HTTP 404 or such a
 * code). On this path they do not put the key in question: the same poll's List Projects V2
 * took it (a refused key fails there first), and the service removed pipelines, not keys.
 */
const NOT_OFFERED_CODES = [80001, 80002];

/**
 * List Pipelines (V1), at the controller of `regionId`; a controller may not offer it (`absent`).
 * Describe Pipeline is not declared so: it is asked only of a controller whose list answered,
 * and its HTTP 404 says the pipeline is gone, not the endpoint.
 */
export const listPipelinesEndpoint = defineEndpoint("GET /v1/pipelines", {
  scope: "project",
  paging: "none",
  shardZero: true,
  runTimeCount: LIST_RUN_TIME_COUNT,
  absent: { apiCodes: NOT_OFFERED_CODES },
}).as<ListPipelinesArgs, PipelinesData, Pipeline[]>({
  request: (args) => ({
    target: { plane: "v1", region: args.regionId },
    query: { projectId: args.projectId },
  }),
  schema: pipelinesDataSchema,
  normalize: normalizePipelines,
});

/** Describe Pipeline (V1), at the controller of `regionId`. */
export const describePipelineEndpoint = defineEndpoint("GET /v1/pipelines/{PIPELINE_ID}", {
  scope: "project",
  paging: "none",
  shardZero: true,
  runTimeCount: DESCRIBE_RUN_TIME_COUNT,
}).as<DescribePipelineArgs, PipelineData, Pipeline | null>({
  request: (args) => ({
    target: { plane: "v1", region: args.regionId },
    params: { PIPELINE_ID: args.pipelineId },
  }),
  schema: pipelineDataSchema,
  // An answer that leaves out its ID is about the pipeline asked.
  normalize: (data, args) =>
    normalizePipeline({ ...data, pipelineId: idOrAsked(data.pipelineId, args.pipelineId) }),
});
