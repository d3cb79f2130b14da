/**
 * Pipelines, the seed's Pipeline resource: List Pipelines (V1) GET /v1/pipelines?projectId=
 * (required, no paging) and Describe Pipeline (V1) GET /v1/pipelines/{PIPELINE_ID}, at a
 * region's controller (/ctl/{region}/v1/...), success code 200.
 *
 * Each project holds pipelines in each region of its clusters: the first project's first region
 * an ingestion, a search and a deletion pipeline, every other pair one ingestion pipeline, each
 * targeting the pair's first cluster. Their tokens grow with time (a few per second from their
 * creation; rerank tokens on the search pipeline only), so a rate shows. Every status is SERVING
 * but, with `notServing` (the demo's bad case), the first project's search pipeline's, FAILED.
 *
 * The shapes of docs/design.md section 7, one per `shape`:
 * - "sample" (default): the samples' `data` array, "pipe-..." IDs, `clusterId`,
 *   `collectionName`, `totalUsage {embedding}` (`rerank` too on the search pipeline), and the
 *   search pipeline's target inside its function only;
 * - "schema": integer IDs, `CLUSTER_ID`, `collectionName`, `totalUsage` an array of
 *   `{embedding, rerank}` strings, list items without their functions (Describe Pipeline gives
 *   them), and `data` one object where a pair holds one pipeline;
 * - "oldest": the oldest sample's `totalTokenUsage` number, `clusterID`, `newCollectionName`.
 * `gone` answers every call as a service without pipelines does: HTTP 404 on the path, or the
 * failure sample's code 80002 "Token not found or unauthorized".
 */
import { ApiCode, SimApiError } from "./errors.js";
import { hashString, hexFromHash, mix } from "./random.js";
import type { RouteDef, RouteRequest } from "./route.js";
import { HOUR_MS } from "./time.js";
import type { World } from "./world.js";

/** The shapes the simulator can answer in (see the module comment). */
export const PIPELINE_SHAPES = ["sample", "schema", "oldest"] as const;
export type PipelineShape = (typeof PIPELINE_SHAPES)[number];

/** How a service without pipelines answers: HTTP 404 on the path, or code 80002. */
export const PIPELINES_GONE = ["404", "80002"] as const;
export type PipelinesGone = (typeof PIPELINES_GONE)[number];

/** The failure sample's code: "Token not found or unauthorized". */
const TOKEN_NOT_FOUND = 80002;

/** One simulated pipeline (its status may change). */
export interface SimPipeline {
  /** "pipe-..." in the samples' shape; its `number` in the schema's. */
  readonly pipelineId: string;
  readonly number: number;
  readonly projectId: string;
  readonly regionId: string;
  readonly name: string;
  readonly type: "INGESTION" | "SEARCH" | "DELETION";
  readonly clusterId: string;
  readonly collectionName: string;
  readonly createdMs: number;
  /** Embedding (and rerank) tokens per second since creation. */
  readonly embeddingPerSecond: number;
  readonly rerankPerSecond: number;
  status: string;
}

/** What the pipelines' routes answer, and how. */
export interface SimPipelines {
  readonly pipelines: readonly SimPipeline[];
  readonly shape: PipelineShape;
  /** Set: the service has no pipelines (every call answers so). */
  readonly gone: PipelinesGone | undefined;
}

const PIPELINE_SALT = 0x91e1;

/** The functions of each type, as the reference's tables name them. */
function functionsOf(p: SimPipeline): Record<string, unknown>[] {
  switch (p.type) {
    case "INGESTION":
      return [
        {
          action: "INDEX_DOC",
          name: "index_my_doc",
          inputFields: ["doc_url", "doc_name"],
          language: "ENGLISH",
          chunkSize: 500,
          splitBy: ["\n\n", "\n", " ", ""],
          embedding: "zilliz/bge-base-en-v1.5",
        },
        {
          action: "PRESERVE",
          name: "keep_year",
          inputField: "year",
          outputField: "year",
          fieldType: "Int16",
        },
      ];
    case "SEARCH":
      return [
        {
          action: "SEARCH_DOC_CHUNKS",
          name: "search_chunks",
          inputFields: ["query_text"],
          clusterId: p.clusterId,
          collectionName: p.collectionName,
          reranker: "service/bge-reranker-base",
        },
      ];
    default:
      return [
        { action: "PURGE_DOC_INDEX", name: "purge_doc", inputField: "doc_name" },
        { action: "PURGE_BY_EXPRESSION", name: "purge_expired", inputField: "expression" },
      ];
  }
}

/** The pipelines of `world` (see the module comment); the same seed, the same pipelines. */
export function generatePipelines(
  world: World,
  seed: number,
  startMs: number,
  notServing = false,
): SimPipeline[] {
  const out: SimPipeline[] = [];
  world.projects.forEach((project, p) => {
    const regions = [
      ...new Set(world.clusters.filter((c) => c.projectId === project.id).map((c) => c.regionId)),
    ];
    regions.forEach((regionId, r) => {
      const cluster = world.clusters.find((c) => c.projectId === project.id && c.regionId === regionId);
      const types =
        p === 0 && r === 0 ? (["INGESTION", "SEARCH", "DELETION"] as const) : (["INGESTION"] as const);
      types.forEach((type, i) => {
        const h = mix(mix(mix(seed, PIPELINE_SALT), hashString(`${project.id}/${regionId}`)), i);
        const number = out.length + 1;
        out.push({
          pipelineId: `pipe-${hexFromHash(h, 22)}`,
          number,
          projectId: project.id,
          regionId,
          name: `${type.toLowerCase()}_pipeline_${number}`,
          type,
          clusterId: cluster?.id ?? "",
          collectionName: type === "SEARCH" ? "docs_chunks" : "docs",
          createdMs: startMs - (1 + (h % 48)) * HOUR_MS,
          embeddingPerSecond: type === "DELETION" ? 0 : 2 + (h % 9),
          rerankPerSecond: type === "SEARCH" ? 1 : 0,
          status: notServing && p === 0 && type === "SEARCH" ? "FAILED" : "SERVING",
        });
      });
    });
  });
  return out;
}

/** One pipeline as `shape` sends it at `nowMs`; `full` with its functions (Describe, and the list but for "schema"). */
function view(p: SimPipeline, shape: PipelineShape, nowMs: number, full: boolean): Record<string, unknown> {
  const seconds = Math.max(0, (nowMs - p.createdMs) / 1000);
  const embedding = Math.floor(seconds * p.embeddingPerSecond);
  const rerank = Math.floor(seconds * p.rerankPerSecond);
  const search = p.type === "SEARCH";
  const common = {
    name: p.name,
    type: p.type,
    createTimestamp: p.createdMs,
    description: `A ${p.type.toLowerCase()} pipeline.`,
    status: p.status,
  };
  switch (shape) {
    case "schema": {
      // The schema's usage: an array of numeric strings, here one entry per half of the total.
      const half = (n: number) => [Math.floor(n / 2), n - Math.floor(n / 2)];
      const [e1, e2] = half(embedding);
      const [r1, r2] = half(rerank);
      return {
        pipelineId: p.number,
        ...common,
        ...(search ? {} : { CLUSTER_ID: p.clusterId, collectionName: p.collectionName }),
        totalUsage: [
          { embedding: String(e1), rerank: String(r1) },
          { embedding: String(e2), rerank: String(r2) },
        ],
        ...(full ? { functions: functionsOf(p) } : {}),
      };
    }
    case "oldest":
      return {
        pipelineId: p.pipelineId,
        ...common,
        ...(search ? {} : { clusterID: p.clusterId, newCollectionName: p.collectionName }),
        totalTokenUsage: embedding,
        functions: functionsOf(p),
      };
    default:
      return {
        pipelineId: p.pipelineId,
        ...common,
        ...(search ? {} : { clusterId: p.clusterId, collectionName: p.collectionName }),
        totalUsage: search ? { embedding, rerank } : { embedding },
        functions: functionsOf(p),
      };
  }
}

/** Refuses the call as a service without pipelines does, when `gone` says so. */
function refuseWhenGone(gone: PipelinesGone | undefined, path: string): void {
  if (gone === "404") throw new SimApiError(ApiCode.NOT_FOUND, `Not Found: GET ${path}`, { httpStatus: 404 });
  if (gone === "80002") throw new SimApiError(TOKEN_NOT_FOUND, "Token not found or unauthorized: pipelines");
}

/** The pipelines a regional controller holds (every region's at the root path). */
function inRegion(all: readonly SimPipeline[], r: RouteRequest): SimPipeline[] {
  return all.filter((p) => r.region === undefined || p.regionId === r.region);
}

/** The List Pipelines and Describe Pipeline routes over `sim`, for the projects of `world`. */
export function pipelineRoutes(sim: SimPipelines, world: World): RouteDef[] {
  const route = { method: "GET", version: 1, mutating: false } as const;
  return [
    {
      ...route,
      path: "/v1/pipelines",
      template: "GET /v1/pipelines",
      dataShape: "array",
      handle: (r) => {
        refuseWhenGone(sim.gone, "/v1/pipelines");
        const projectId = r.query.projectId;
        if (!projectId) throw new SimApiError(ApiCode.INVALID_PARAMETER, "projectId is required");
        if (!world.projects.some((p) => p.id === projectId)) {
          throw new SimApiError(ApiCode.INVALID_PARAMETER, `project ${projectId} not found`);
        }
        const listed = inRegion(sim.pipelines, r).filter((p) => p.projectId === projectId);
        const items = listed.map((p) => view(p, sim.shape, r.nowMs, sim.shape !== "schema"));
        // The schema's `data` is one object: so it comes where a pair holds one pipeline.
        return sim.shape === "schema" && items.length === 1 ? items[0] : items;
      },
    },
    {
      ...route,
      path: "/v1/pipelines/:pipelineId",
      template: "GET /v1/pipelines/{PIPELINE_ID}",
      dataShape: "object",
      handle: (r) => {
        refuseWhenGone(sim.gone, "/v1/pipelines/{PIPELINE_ID}");
        const id = r.params.pipelineId ?? "";
        const found = inRegion(sim.pipelines, r).find(
          (p) => (sim.shape === "schema" ? String(p.number) : p.pipelineId) === id,
        );
        if (found === undefined) throw new SimApiError(ApiCode.INVALID_PARAMETER, `pipeline ${id} not found`);
        return view(found, sim.shape, r.nowMs, true);
      },
    },
  ];
}
