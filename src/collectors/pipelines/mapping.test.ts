import { describe, expect, it } from "vitest";
import { normalizePipelines, pipelinesDataSchema } from "../../upstream/endpoints/pipelines.js";
import { OLDEST_PIPELINE, REFERENCE_PIPELINES, SCHEMA_PIPELINE } from "../../upstream/pipelinesTestkit.js";
import type { Pipeline } from "../../upstream/pipelineTypes.js";
import { mapPipelines, PIPELINE_STATES } from "./mapping.js";

const PIPE: Pipeline = {
  pipelineId: "pipe-1",
  name: "docs",
  type: "INGESTION",
  status: "SERVING",
  clusterId: "in01-a",
  collectionName: "docs",
  usage: { embedding: 10, rerank: null },
  functionActions: ["INDEX_DOC", "PRESERVE", "PRESERVE"],
};

/** The samples of one pipeline made of PIPE and `fields`, as "family{labels} value" lines. */
const lines = (fields: Partial<Pipeline>, projectId = "proj-1") =>
  mapPipelines([{ ...PIPE, ...fields }], projectId).samples.map(
    (s) =>
      `${s.family}{${Object.entries(s.labels)
        .map(([k, v]) => `${k}="${v}"`)
        .join(",")}} ${s.value}`,
  );

const of = (family: string, fields: Partial<Pipeline>) =>
  lines(fields).filter((l) => l.startsWith(`vdbcloud_pipeline_${family}{`));

describe("mapPipelines", () => {
  it("writes the info, the status set, the token counters and the functions per action", () => {
    expect(lines({})).toEqual([
      'vdbcloud_pipeline_info{project_id="proj-1",pipeline_id="pipe-1",pipeline_name="docs",type="ingestion",cluster_id="in01-a",collection_name="docs"} 1',
      'vdbcloud_pipeline_status{pipeline_id="pipe-1",status="serving"} 1',
      'vdbcloud_pipeline_embedding_tokens_total{pipeline_id="pipe-1"} 10',
      'vdbcloud_pipeline_functions{pipeline_id="pipe-1",action="index_doc"} 1',
      'vdbcloud_pipeline_functions{pipeline_id="pipe-1",action="preserve"} 2',
    ]);
    const families = mapPipelines([PIPE], "p").families;
    expect(families.find((f) => f.name === "vdbcloud_pipeline_embedding_tokens_total")?.type).toBe("counter");
  });

  it.each<{ name: string; fields: Partial<Pipeline>; want: string[] }>([
    // SERVING is the one documented status; any other is added in lower snake case.
    { name: "SERVING", fields: { status: "SERVING" }, want: ['{pipeline_id="pipe-1",status="serving"} 1'] },
    {
      name: "an unknown status",
      fields: { status: "STOPPED" },
      want: ['{pipeline_id="pipe-1",status="serving"} 0', '{pipeline_id="pipe-1",status="stopped"} 1'],
    },
    {
      name: "a camel-case status",
      fields: { status: "IndexFailed" },
      want: ['{pipeline_id="pipe-1",status="serving"} 0', '{pipeline_id="pipe-1",status="index_failed"} 1'],
    },
    { name: "no status: no state claimed", fields: { status: null }, want: [] },
  ])("status: $name", ({ fields, want }) => {
    expect(of("status", fields)).toEqual(want.map((w) => `vdbcloud_pipeline_status${w}`));
  });

  it.each<{ name: string; fields: Partial<Pipeline>; embedding: string[]; rerank: string[] }>([
    { name: "embedding only", fields: {}, embedding: ["10"], rerank: [] },
    {
      name: "embedding and rerank",
      fields: { usage: { embedding: 1234, rerank: 56 } },
      embedding: ["1234"],
      rerank: ["56"],
    },
    { name: "no usage: no counter", fields: { usage: null }, embedding: [], rerank: [] },
    // A negative total is the upstream's mistake: dropped and counted, never a counter going down.
    {
      name: "a negative total",
      fields: { usage: { embedding: -1, rerank: 3 } },
      embedding: [],
      rerank: ["3"],
    },
  ])("tokens: $name", ({ fields, embedding, rerank }) => {
    const value = (l: string) => l.slice(l.lastIndexOf(" ") + 1);
    expect(of("embedding_tokens_total", fields).map(value)).toEqual(embedding);
    expect(of("rerank_tokens_total", fields).map(value)).toEqual(rerank);
  });

  it.each<{ name: string; actions: readonly string[] | null; want: string[] }>([
    { name: "none listed", actions: [], want: [] },
    { name: "not known", actions: null, want: [] },
    {
      name: "any action, in lower snake case, blank ones left out",
      actions: ["SEARCH_DOC_CHUNKS", "searchImageByText", "", "SEARCH_DOC_CHUNKS"],
      want: ['action="search_doc_chunks"} 2', 'action="search_image_by_text"} 1'],
    },
  ])("functions: $name", ({ actions, want }) => {
    expect(of("functions", { functionActions: actions })).toEqual(
      want.map((w) => `vdbcloud_pipeline_functions{pipeline_id="pipe-1",${w}`),
    );
  });

  it("keeps a pipeline listed twice once, as the listing reads it (its first)", () => {
    const listed = normalizePipelines(
      pipelinesDataSchema.parse([
        { pipelineId: "pipe-1", status: "SERVING" },
        { pipelineId: "pipe-1", status: "STOPPED" },
      ]),
    );
    const states = mapPipelines(listed, "p")
      .samples.filter((s) => s.family === "vdbcloud_pipeline_status" && s.value === 1)
      .map((s) => s.labels.status);
    expect(states).toEqual(["serving"]);
  });

  it("declares serving as the one known status", () => {
    expect(PIPELINE_STATES).toEqual(["serving"]);
  });

  it("maps each shape of the reference, word for word", () => {
    const read = (data: unknown) => normalizePipelines(pipelinesDataSchema.parse(data));
    const text = [
      ...mapPipelines(read(REFERENCE_PIPELINES), "proj-a").samples,
      ...mapPipelines(read(SCHEMA_PIPELINE), "proj-b").samples,
      ...mapPipelines(read([OLDEST_PIPELINE]), "proj-c").samples,
    ].map((s) => `${s.family} ${Object.values(s.labels).join("/")} ${s.value}`);
    expect(text).toEqual([
      "vdbcloud_pipeline_info proj-a/pipe-6ca5dd1b4672659d3c3487/my_ingestion_pipeline/ingestion/in03-0123456789abcdef/my_collection 1",
      "vdbcloud_pipeline_status pipe-6ca5dd1b4672659d3c3487/serving 1",
      "vdbcloud_pipeline_embedding_tokens_total pipe-6ca5dd1b4672659d3c3487 0",
      "vdbcloud_pipeline_functions pipe-6ca5dd1b4672659d3c3487/index_doc 1",
      "vdbcloud_pipeline_functions pipe-6ca5dd1b4672659d3c3487/preserve 1",
      "vdbcloud_pipeline_info proj-a/pipe-26a18a66ffc8c0edfdb874/my_search_pipeline/search/in03-0123456789abcdef/my_collection 1",
      "vdbcloud_pipeline_status pipe-26a18a66ffc8c0edfdb874/serving 1",
      "vdbcloud_pipeline_embedding_tokens_total pipe-26a18a66ffc8c0edfdb874 0",
      "vdbcloud_pipeline_rerank_tokens_total pipe-26a18a66ffc8c0edfdb874 0",
      "vdbcloud_pipeline_functions pipe-26a18a66ffc8c0edfdb874/search_doc_chunks 1",
      "vdbcloud_pipeline_info proj-b/42/schema_pipeline/deletion/in01-fedcba9876543210/docs_v2 1",
      "vdbcloud_pipeline_status 42/serving 1",
      "vdbcloud_pipeline_embedding_tokens_total 42 150",
      "vdbcloud_pipeline_rerank_tokens_total 42 5",
      "vdbcloud_pipeline_functions 42/purge_doc_index 1",
      "vdbcloud_pipeline_info proj-c/pipe-0a1b2c3d4e5f60718293a4/old_pipeline/ingestion/in03-0123456789abcdef/old_collection 1",
      "vdbcloud_pipeline_status pipe-0a1b2c3d4e5f60718293a4/serving 1",
      "vdbcloud_pipeline_embedding_tokens_total pipe-0a1b2c3d4e5f60718293a4 0",
      "vdbcloud_pipeline_functions pipe-0a1b2c3d4e5f60718293a4/index_text 1",
    ]);
  });
});
