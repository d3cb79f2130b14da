/**
 * List Global Clusters (v2): GET /v2/globalClusters?pageSize=&currentPage=: `{count,
 * currentPage, pageSize, globalClusters [{globalClusterId, globalClusterName, projectId, ...}]}`.
 * Get Global Cluster Replication Lag (v2): GET /v2/globalClusters/{id}/replicationLag:
 * `{globalClusterId, primaryClusterId, primaryRegionId, lags [{secondaryClusterId,
 * secondaryRegionId, lagMs}]}`.
 *
 * The reference's samples of both carry no `{code, data}` envelope while its failures are
 * `{code, message}`: both endpoints accept the payload bare or inside an envelope.
 */
import { z } from "zod";
import { lenient, lenientText } from "../lenient.js";
import type { GlobalClusterPage, ReplicationLag } from "../results.js";
import { numeric, pageDataSchema, pageInfoOf, pageQuery, stringish } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";

/** Arguments of List Global Clusters. Page numbers start at 1. */
interface ListGlobalClustersArgs {
  readonly pageSize: number;
  readonly currentPage: number;
}

/** The payload of List Global Clusters. */
const globalClustersDataSchema = pageDataSchema(
  "globalClusters",
  z.object({ globalClusterId: stringish, globalClusterName: lenientText, projectId: lenientText }),
);

type GlobalClustersData = z.infer<typeof globalClustersDataSchema>;

/** Maps the payload to a page; a missing list is an empty page. */
function normalizeGlobalClusters(data: GlobalClustersData): GlobalClusterPage {
  const globalClusters = data.globalClusters ?? [];
  return { ...pageInfoOf(data, globalClusters.length), globalClusters };
}

/** List Global Clusters (v2). */
export const listGlobalClustersEndpoint = defineEndpoint("GET /v2/globalClusters", {
  scope: "account",
  paging: PAGES("count"),
  shardZero: true,
}).as<ListGlobalClustersArgs, GlobalClustersData, GlobalClusterPage>({
  request: (args) => ({
    target: V2,
    query: pageQuery(args),
  }),
  schema: globalClustersDataSchema,
  normalize: normalizeGlobalClusters,
  envelope: "optional",
});

/** The payload of Get Global Cluster Replication Lag. */
const replicationLagDataSchema = z.object({
  globalClusterId: stringish.nullish(),
  primaryClusterId: lenientText,
  lags: z
    .array(
      z.object({ secondaryClusterId: stringish, secondaryRegionId: lenientText, lagMs: lenient(numeric) }),
    )
    .nullish(),
});

type ReplicationLagData = z.infer<typeof replicationLagDataSchema>;

/** Maps the payload to the lags; the asked global cluster fills a missing ID. */
function normalizeReplicationLag(data: ReplicationLagData, globalClusterId: string): ReplicationLag {
  return {
    globalClusterId: data.globalClusterId ?? globalClusterId,
    primaryClusterId: data.primaryClusterId,
    lags: data.lags ?? [],
  };
}

/** Get Global Cluster Replication Lag (v2). */
export const getReplicationLagEndpoint = defineEndpoint("GET /v2/globalClusters/{id}/replicationLag", {
  scope: "account",
  paging: "none",
  shardZero: true,
}).as<string, ReplicationLagData, ReplicationLag>({
  request: (id) => ({ target: V2, params: { id } }),
  schema: replicationLagDataSchema,
  normalize: normalizeReplicationLag,
  envelope: "optional",
});
