/** Pure mapping of List Pipelines (and Describe Pipeline) to samples. */
import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import { lowerSnakeCase } from "../../metrics/snakeCase.js";
import { stateSet } from "../../metrics/stateSet.js";
import type { Pipeline } from "../../upstream/pipelineTypes.js";
import { PIPELINE_FAMILIES as F } from "./families.js";

/**
 * The states the status set always shows. The reference names one status, SERVING ("means
 * working"), and says any other means the pipeline does not work: `== 1` on anything else is
 * what an alert asks.
 */
export const PIPELINE_STATES: readonly string[] = ["serving"];

/** The count of each action (lower snake case) among `actions`, in order of first use; blank ones left out. */
function actionCounts(actions: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const raw of actions) {
    const action = lowerSnakeCase(raw);
    if (action !== "") counts.set(action, (counts.get(action) ?? 0) + 1);
  }
  return counts;
}

/**
 * Maps one project's pipelines (as listed, or described where the list fell short) to
 * vdbcloud_pipeline_info{project_id,pipeline_id,pipeline_name,type,cluster_id,collection_name} 1
 * (type lowercased), the vdbcloud_pipeline_status{pipeline_id,status} state set (serving, plus
 * the current status in lower snake case), the token counters from the usage (the service's
 * running totals, written as read: a counter Prometheus sees reset if the service ever restarts
 * one) and vdbcloud_pipeline_functions{pipeline_id,action} per action. What a pipeline's answer
 * leaves out (status, usage, rerank tokens, functions) has no series: nothing is claimed.
 * `pipelines` holds each ID once: the listing keeps a pipeline listed twice once
 * (normalizePipelines, as the pager does for a paged listing).
 */
export function mapPipelines(pipelines: readonly Pipeline[], projectId: string): MappingResult {
  const out = new MappingBuilder();
  for (const p of pipelines) {
    const id = { pipeline_id: p.pipelineId };
    out.add(
      F.info,
      {
        project_id: projectId,
        pipeline_id: p.pipelineId,
        pipeline_name: p.name,
        type: p.type.toLowerCase(),
        cluster_id: p.clusterId,
        collection_name: p.collectionName,
      },
      1,
    );
    if (p.status !== null)
      out.addSamples(F.status, stateSet(F.status, id, "status", PIPELINE_STATES, lowerSnakeCase(p.status)));
    if (p.usage !== null) {
      out.add(F.embeddingTokens, id, p.usage.embedding);
      if (p.usage.rerank !== null) out.add(F.rerankTokens, id, p.usage.rerank);
    }
    for (const [action, count] of actionCounts(p.functionActions ?? []))
      out.add(F.functions, { ...id, action }, count);
  }
  return out.result();
}
