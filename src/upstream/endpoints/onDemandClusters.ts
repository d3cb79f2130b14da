/**
 * List On-Demand Clusters (v2): GET /v2/clusters/onDemandClusters?projectId=&regionId= (both
 * required; no paging): `{count, onDemandClusters [{projectId, clusterId, clusterName,
 * description, regionId, cuSize, status, endpoint, privateLink, createdBy, createTime,
 * autoSuspend}]}`. `autoSuspend` is the idle time in seconds (a number in the samples; the
 * console's update example sends "5m", so a duration with units is read too); `createTime` is
 * ISO in the samples and a number for the service's Terraform provider, and is not read.
 *
 * `createdBy` is its creator's e-mail address: it is never read, so nothing past this module
 * can put it into a label, a log line or an error; nor are the endpoint and description.
 */
import { z } from "zod";
import { lenient, lenientText } from "../lenient.js";
import type { OnDemandCluster } from "../results.js";
import { numeric, secondsIn, stringish } from "../wire.js";
import { defineEndpoint, V2 } from "./define.js";

/** Arguments of List On-Demand Clusters: the project and region it lists. */
interface ListOnDemandClustersArgs {
  readonly projectId: string;
  readonly regionId: string;
}

const onDemandClusterSchema = z.object({
  clusterId: stringish,
  clusterName: lenientText,
  projectId: lenientText,
  regionId: lenientText,
  status: lenientText,
  cuSize: lenient(numeric),
  autoSuspend: lenient(secondsIn(1)),
});

/** The envelope's `data`: the documented object, or the list itself. */
export const onDemandClustersDataSchema = z.union([
  z
    .object({ onDemandClusters: z.array(onDemandClusterSchema).nullish() })
    .transform((d) => d.onDemandClusters ?? []),
  z.array(onDemandClusterSchema),
]);

type OnDemandClustersData = z.infer<typeof onDemandClustersDataSchema>;

/** Maps `data` to the clusters; a cluster that names no project or region is the asked one's. */
export function normalizeOnDemandClusters(
  data: OnDemandClustersData,
  args: ListOnDemandClustersArgs,
): OnDemandCluster[] {
  return data.map((c) => ({
    clusterId: c.clusterId,
    clusterName: c.clusterName,
    projectId: c.projectId ?? args.projectId,
    regionId: c.regionId ?? args.regionId,
    status: c.status,
    cuSize: c.cuSize,
    autoSuspendSeconds: c.autoSuspend,
  }));
}

/** What the polling schedule of `--check-config` says of this listing: its calls grow with what a run lists. */
const RUN_TIME_COUNT =
  "on-demand clusters: one List On-Demand Clusters call per project and region that List Projects V2 lists (regionIds), counted here for the configured clusters' projects and regions";

/** List On-Demand Clusters (v2). */
export const listOnDemandClustersEndpoint = defineEndpoint("GET /v2/clusters/onDemandClusters", {
  scope: "project",
  paging: "none",
  shardZero: true,
  runTimeCount: RUN_TIME_COUNT,
}).as<ListOnDemandClustersArgs, OnDemandClustersData, OnDemandCluster[]>({
  request: (args) => ({
    target: V2,
    query: { projectId: args.projectId, regionId: args.regionId },
  }),
  schema: onDemandClustersDataSchema,
  normalize: normalizeOnDemandClusters,
});
