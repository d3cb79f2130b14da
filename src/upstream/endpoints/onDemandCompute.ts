/**
 * Describe On-Demand Compute (v2): GET /v2/on-demand-compute?projectId=&regionId= (both
 * required; no paging): `{projectId, regionId, status}`, whether the compute the on-demand
 * clusters run on is on for one project in one region. The reference documents the statuses
 * disabled, enabling, enabled and abnormal, in lower case (its sample: "enabled"); any other
 * string is read as sent, and the mapping adds it lowercased. Its failure sample is
 * `{code: 1800, message: "User hasn't authenticated"}`, a refused key (errorMapping.ts).
 */
import { z } from "zod";
import { idOrAsked, lenientText } from "../lenient.js";
import type { OnDemandCompute } from "../results.js";
import { defineEndpoint, V2 } from "./define.js";

/** Arguments of Describe On-Demand Compute: the project and region it describes. */
interface DescribeOnDemandComputeArgs {
  readonly projectId: string;
  readonly regionId: string;
}

/**
 * The envelope's `data`. Every field is lenient: an answer that leaves out its project or region
 * is about the ones asked, and one without a readable status claims no state.
 */
export const onDemandComputeDataSchema = z.object({
  projectId: lenientText,
  regionId: lenientText,
  status: lenientText,
});

type OnDemandComputeData = z.infer<typeof onDemandComputeDataSchema>;

/** Maps `data` to the result; a project or region the answer does not name is the asked one. */
export function normalizeOnDemandCompute(
  data: OnDemandComputeData,
  args: DescribeOnDemandComputeArgs,
): OnDemandCompute {
  const status = data.status?.trim() ?? "";
  return {
    projectId: idOrAsked(data.projectId, args.projectId),
    regionId: idOrAsked(data.regionId, args.regionId),
    status: status === "" ? null : status,
  };
}

/** What the polling schedule of `--check-config` says of this call: its number grows with what a run lists. */
const RUN_TIME_COUNT =
  "on-demand compute: one Describe On-Demand Compute call per project and region that List Projects V2 lists (regionIds), counted here for the configured clusters' projects and regions";

/** Describe On-Demand Compute (v2). */
export const describeOnDemandComputeEndpoint = defineEndpoint("GET /v2/on-demand-compute", {
  scope: "project",
  paging: "none",
  shardZero: true,
  runTimeCount: RUN_TIME_COUNT,
}).as<DescribeOnDemandComputeArgs, OnDemandComputeData, OnDemandCompute>({
  request: (args) => ({
    target: V2,
    query: { projectId: args.projectId, regionId: args.regionId },
  }),
  schema: onDemandComputeDataSchema,
  normalize: normalizeOnDemandCompute,
});
