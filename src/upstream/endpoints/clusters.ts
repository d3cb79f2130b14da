/**
 * Describe Cluster (GET /v2/clusters/{id}) and List Clusters (GET /v2/clusters), v2.
 * List Clusters' `data` is documented as an array and sampled as
 * `{count, currentPage, pageSize, clusters}`; both are accepted. `cuSize` may be a number or a
 * numeric string; it is 0 (and `cuType` empty) on free and serverless clusters. List Clusters'
 * items carry deploymentOption and globalClusterMeta but not replica or autoscaling: one schema
 * reads both, and what an item leaves out is null.
 */
import { z } from "zod";
import type { ClusterDescription, ClusterPage, GlobalClusterMembership } from "../results.js";
import {
  FIRST_ISSUE,
  nullableNumeric,
  nullableString,
  pageDataSchema,
  pageInfoOf,
  pageQuery,
  stringish,
} from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";

/** A bound of `autoscaling` ({min, max}); anything unreadable is no bound, not a bad cluster. */
const lenientBound = z
  .unknown()
  .optional()
  .transform((v) => {
    const parsed = nullableNumeric.safeParse(v, FIRST_ISSUE);
    return parsed.success ? parsed.data : null;
  });

/** `v` as a record when it is a plain object, else an empty one. */
function recordOf(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The bounds of one `autoscaling` entry; a schedule in their place (`schedules`) gives none. */
function boundsOf(v: unknown): { readonly min: number | null; readonly max: number | null } {
  const bounds = recordOf(v);
  return { min: lenientBound.parse(bounds.min), max: lenientBound.parse(bounds.max) };
}

/**
 * `autoscaling: {cu: {min, max}, replica: {min, max}}` (the reference's range: CUs 1..256,
 * replicas 1..10). Either entry may carry `schedules` [{cron, target}] instead of its bounds: a
 * schedule's targets change with time, so it gives no bound rather than a guess. Any other
 * shape reads as no autoscaling.
 */
const autoscalingSchema = z
  .unknown()
  .optional()
  .transform((v) => {
    const autoscaling = recordOf(v);
    return { cu: boundsOf(autoscaling.cu), replica: boundsOf(autoscaling.replica) };
  });

/** A non-empty string, trimmed, or null. */
function textOf(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : null;
}

/**
 * `globalClusterMeta: {globalClusterId, role}`, null, or absent (the samples of clusters outside
 * a global cluster leave it out). A membership without both an ID and a role is no membership:
 * a role series with an empty label would claim what the answer does not say.
 */
const globalClusterMetaSchema = z
  .unknown()
  .optional()
  .transform((v): GlobalClusterMembership | null => {
    const meta = recordOf(v);
    const globalClusterId = textOf(meta.globalClusterId);
    const role = textOf(meta.role);
    return globalClusterId === null || role === null ? null : { globalClusterId, role };
  });

/**
 * One cluster record as either endpoint returns it. Fields no gauge needs to read strictly
 * (snapshotNumber, createProgress, replica, autoscaling, deploymentOption, globalClusterMeta)
 * read as unknown when odd rather than rejecting it. `replica` is a string in the schema and a
 * number in every sample: both read as a number.
 */
export const clusterSchema = z.object({
  clusterId: stringish,
  clusterName: nullableString,
  projectId: nullableString,
  regionId: nullableString,
  plan: nullableString,
  cuType: nullableString,
  cuSize: nullableNumeric,
  status: nullableString,
  connectAddress: nullableString,
  snapshotNumber: lenientBound,
  createProgress: lenientBound,
  replica: lenientBound,
  autoscaling: autoscalingSchema,
  deploymentOption: z.unknown().optional().transform(textOf),
  globalClusterMeta: globalClusterMetaSchema,
});

type ClusterData = z.infer<typeof clusterSchema>;

/** Maps one cluster record (already null-filled by the schema). */
export function normalizeCluster(c: ClusterData): ClusterDescription {
  return {
    clusterId: c.clusterId,
    clusterName: c.clusterName,
    projectId: c.projectId,
    regionId: c.regionId,
    plan: c.plan,
    cuType: c.cuType,
    cuSize: c.cuSize,
    status: c.status,
    connectAddress: c.connectAddress,
    snapshotNumber: c.snapshotNumber,
    createProgress: c.createProgress,
    replica: c.replica,
    autoscalingCuMin: c.autoscaling.cu.min,
    autoscalingCuMax: c.autoscaling.cu.max,
    autoscalingReplicaMin: c.autoscaling.replica.min,
    autoscalingReplicaMax: c.autoscaling.replica.max,
    deploymentOption: c.deploymentOption,
    globalCluster: c.globalClusterMeta,
  };
}

/** Describe Cluster (v2). */
export const describeClusterEndpoint = defineEndpoint("GET /v2/clusters/{id}", {
  scope: "cluster",
  paging: "none",
  planOrder: 7,
}).as<string, ClusterData, ClusterDescription>({
  request: (clusterId) => ({
    target: V2,
    params: { id: clusterId },
  }),
  schema: clusterSchema,
  normalize: (data) => normalizeCluster(data),
});

/** Arguments of List Clusters; absent filters are not sent. */
interface ListClustersArgs {
  readonly projectId?: string;
  readonly regionId?: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

/** The envelope's `data`: the documented array or the sampled page object. */
export const clusterListDataSchema = z.union([
  z.array(clusterSchema),
  pageDataSchema("clusters", clusterSchema),
]);

type ClusterListData = z.infer<typeof clusterListDataSchema>;

/**
 * Maps either shape to a page. A bare array says nothing of paging: it is a page without a
 * total, so the pager reads on until a short page, as for an object without `count`.
 */
export function normalizeClusterList(data: ClusterListData): ClusterPage {
  const clusters = (Array.isArray(data) ? data : (data.clusters ?? [])).map(normalizeCluster);
  return { ...pageInfoOf(Array.isArray(data) ? {} : data, clusters.length), clusters };
}

/** List Clusters (v2). */
export const listClustersEndpoint = defineEndpoint("GET /v2/clusters", {
  scope: "account",
  paging: PAGES("count"),
  planOrder: 11,
}).as<ListClustersArgs, ClusterListData, ClusterPage>({
  request: (args) => ({
    target: V2,
    query: {
      projectId: args.projectId,
      regionId: args.regionId,
      ...pageQuery(args),
    },
  }),
  schema: clusterListDataSchema,
  normalize: normalizeClusterList,
});
