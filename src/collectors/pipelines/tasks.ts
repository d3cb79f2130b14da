/**
 * Pipelines (the seed's Pipeline resource): List Pipelines (V1) for each project and region the
 * exporter knows (List Projects V2 `regionIds`, and the polled clusters' projects and regions),
 * at the region's v1 controller, on the replica that owns account-wide calls (shard 0), with the
 * default credential. One task, target "organization"; each project and region is a part of its
 * poll (polling/parts.ts): one whose call fails keeps its last good series and is shown on the
 * target's health. Refusals go through runPoll's one rule, "not offered here" among them: a
 * controller without pipelines answers List Pipelines as absent (its declaration says it may), so
 * its region is held a day for all its projects (`holdKey`), never failed.
 */

import { defineCollector } from "../../polling/model.js";
import { projectRegions } from "../../polling/projects.js";
import { sectionListingTasks } from "../../polling/projectTask.js";
import { needsDescribe } from "../../upstream/endpoints/pipelines.js";
import type { Pipeline } from "../../upstream/pipelineTypes.js";
import { type CloudApi, ENDPOINT } from "../../upstream/types.js";
import { PIPELINES_SECTION } from "./config.js";
import { PIPELINE_FAMILIES } from "./families.js";
import { mapPipelines } from "./mapping.js";

const COLLECTOR = "pipelines";

/** One part: a project in a region, whose controller is asked. */
interface ProjectRegion {
  readonly projectId: string;
  readonly regionId: string;
}

/**
 * Each listed pipeline, described where the list leaves out its functions (`needsDescribe`): the
 * samples' list items carry them, and then no more is asked; one call per other pipeline, in
 * turn, whose answer fills in what the list item lacks. A failed describe call fails the part,
 * which keeps its last good series: half-described pipelines shown as complete would claim no
 * functions where there are some.
 */
async function described(
  client: CloudApi,
  listed: readonly Pipeline[],
  regionId: string,
  signal?: AbortSignal,
): Promise<Pipeline[]> {
  const out: Pipeline[] = [];
  for (const p of listed) {
    if (!needsDescribe(p)) {
      out.push(p);
      continue;
    }
    const full = await client.describePipeline({ pipelineId: p.pipelineId, regionId }, signal);
    // What the answer leaves out, the list item may still have (and the ID is the one listed).
    out.push({
      ...p,
      status: full?.status ?? p.status,
      usage: full?.usage ?? p.usage,
      functionActions: full?.functionActions ?? p.functionActions,
    });
  }
  return out;
}

/** The one task (shard 0, `pipelines.enabled`), or none. */
const pipelineTasks = sectionListingTasks<ProjectRegion>(
  (config) => config.pipelines,
  () => ({
    collector: COLLECTOR,
    target: "organization",
    // The reference names no role; as for the project's other console listings, a Project Admin.
    role: "Project Admin",
    // One call per known project and region at least (the configured clusters' pairs).
    endpoint: ENDPOINT.listPipelines,
    // Only for pipelines listed without their functions: none for the samples' shapes.
    moreCalls: [{ endpoint: ENDPOINT.describePipeline, count: 0, atLeast: true }],
    parts: projectRegions,
    key: (p) => `${p.projectId}/${p.regionId}`,
    // A region's controller offers pipelines to all its projects or to none: where it does
    // not, one of them asks once a day for all.
    holdKey: (p) => p.regionId,
    poll: async (client, p, signal) => {
      const listed = await client.listPipelines(p, signal);
      return mapPipelines(await described(client, listed, p.regionId, signal), p.projectId);
    },
  }),
);

/** Each known project's pipelines: whether they serve, the tokens they cost, their functions. */
export const pipelinesCollector = defineCollector(COLLECTOR, pipelineTasks, {
  polls:
    'pipelines per known project and region (shard 0; "not offered here" where the service has none, asked again daily)',
  config: PIPELINES_SECTION,
  // Pipelines change rarely, their tokens as they work (PT5M by default); the demo reads them
  // every minute. The demo's simulator serves one pipeline that is not serving.
  demo: { settings: () => ({ interval: "PT1M" }), simulator: () => ({ pipelineNotServing: true }) },
  areas: [{ title: "Pipelines", families: PIPELINE_FAMILIES }],
});
