/**
 * Describe Cluster (GET /v2/clusters/{id}) and List Clusters (GET /v2/clusters), v2.
 * List Clusters' `data` is documented as an array and sampled as
 * `{count, currentPage, pageSize, clusters}`; both are accepted. `cuSize` may be a number or a
 * numeric string.
 */
import { z } from "zod";
import { defineEndpoint, V2 } from "./endpoint.js";
import { type ClusterDescription, type ClusterPage, ENDPOINT } from "./types.js";
import { segment } from "./urls.js";
import { nullableNumeric, nullableString, numeric, pageOf, stringish } from "./wire.js";

/** One cluster record as either endpoint returns it. */
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
});

export type ClusterData = z.infer<typeof clusterSchema>;

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
export interface ListClustersArgs {
  readonly projectId?: string;
  readonly regionId?: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

/** The envelope's `data`: the documented array or the sampled page object. */
export const clusterListDataSchema = z.union([
  z.array(clusterSchema),
  z.object({
    count: numeric.nullish(),
    currentPage: numeric.nullish(),
    pageSize: numeric.nullish(),
    clusters: z.array(clusterSchema).nullish(),
  }),
]);

export type ClusterListData = z.infer<typeof clusterListDataSchema>;

/** Maps either shape to a page; a bare array is one complete page. */
export function normalizeClusterList(data: ClusterListData, args: ListClustersArgs): ClusterPage {
  if (Array.isArray(data)) {
    return {
      total: data.length,
      currentPage: args.currentPage,
      pageSize: args.pageSize,
      clusters: data.map(normalizeCluster),
    };
  }
  const clusters = (data.clusters ?? []).map(normalizeCluster);
  return { ...pageOf(data, args, clusters.length), clusters };
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
        pageSize: String(args.pageSize),
        currentPage: String(args.currentPage),
      },
    }),
    schema: clusterListDataSchema,
    normalize: normalizeClusterList,
  },
);
