/**
 * Describe Cluster (GET /v2/clusters/{id}) and List Clusters (GET /v2/clusters), v2.
 * List Clusters' `data` is documented as an array and sampled as
 * `{count, currentPage, pageSize, clusters}`; both are accepted. `cuSize` may be a number or a
 * numeric string; it is 0 (and `cuType` empty) on free and serverless clusters.
 */
import { z } from "zod";
import { defineEndpoint, V2 } from "./endpoint.js";
import { type ClusterDescription, type ClusterPage, ENDPOINT } from "./types.js";
import { segment } from "./urls.js";
import { nullableNumeric, nullableString, pageDataFields, pageInfoOf, pageQuery, stringish } from "./wire.js";

/** A bound of `autoscaling.cu` ({min, max}); anything unreadable is no bound, not a bad cluster. */
const lenientBound = z
  .unknown()
  .optional()
  .transform((v) => {
    const parsed = nullableNumeric.safeParse(v);
    return parsed.success ? parsed.data : null;
  });

/**
 * `autoscaling: {cu: {min, max}, replica: {min, max}}` as the service's Terraform provider
 * reads it; only the CU bounds are used. Any other shape reads as no autoscaling.
 */
const autoscalingSchema = z
  .unknown()
  .optional()
  .transform((v) => {
    const cu = typeof v === "object" && v !== null ? (v as Record<string, unknown>).cu : undefined;
    const bounds = typeof cu === "object" && cu !== null ? (cu as Record<string, unknown>) : {};
    return { min: lenientBound.parse(bounds.min), max: lenientBound.parse(bounds.max) };
  });

/**
 * One cluster record as either endpoint returns it. Fields no gauge needs (snapshotNumber,
 * createProgress, replica, autoscaling) read as unknown when odd rather than rejecting it.
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
    autoscalingCuMin: c.autoscaling.min,
    autoscalingCuMax: c.autoscaling.max,
  };
}

/** Describe Cluster (v2). */
export const describeClusterEndpoint = defineEndpoint<string, ClusterData, ClusterDescription>(
  ENDPOINT.describeCluster,
  {
    request: (clusterId) => ({
      target: V2,
      path: `/v2/clusters/${segment(clusterId)}`,
    }),
    schema: clusterSchema,
    normalize: (data) => normalizeCluster(data),
  },
);

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
  z.object({
    ...pageDataFields,
    clusters: z.array(clusterSchema).nullish(),
  }),
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
export const listClustersEndpoint = defineEndpoint<ListClustersArgs, ClusterListData, ClusterPage>(
  ENDPOINT.listClusters,
  {
    request: (args) => ({
      target: V2,
      path: "/v2/clusters",
      query: {
        projectId: args.projectId,
        regionId: args.regionId,
        ...pageQuery(args),
      },
    }),
    schema: clusterListDataSchema,
    normalize: normalizeClusterList,
  },
);
