/**
 * The read-only data-protection routes over the simulator's DataProtection (data-protection.ts):
 * List Backups, Get Backup Policy, List Global Clusters, Get Global Cluster Replication Lag.
 */
import type { SimContext } from "./context.js";
import {
  FREE_CLUSTER_CODE,
  FREE_CLUSTER_MESSAGE,
  isDedicated,
  SERVERLESS_CLUSTER_CODE,
  SERVERLESS_CLUSTER_MESSAGE,
  type SimBackup,
} from "./data-protection.js";
import { SimApiError } from "./errors.js";
import { intParam, type RouteDef } from "./route.js";

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The wire form of a backup. */
function backupView(b: SimBackup): Record<string, unknown> {
  return {
    projectId: b.projectId,
    backupId: b.backupId,
    backupName: b.backupName,
    backupType: b.backupType,
    creationMethod: b.creationMethod,
    size: b.size,
    expireTime: b.expireTimeMs === null ? null : iso(b.expireTimeMs),
    clusterId: b.clusterId,
    clusterName: b.clusterName,
    createTime: iso(b.createTimeMs),
    status: b.status,
    restoreNewInstancePolicies: [],
  };
}

/** The catalogue's refusal for the cluster's plan: free (96021) or serverless (96022). */
function notDedicated(cluster: { readonly plan: string }): SimApiError {
  return cluster.plan === "Serverless"
    ? new SimApiError(SERVERLESS_CLUSTER_CODE, SERVERLESS_CLUSTER_MESSAGE)
    : new SimApiError(FREE_CLUSTER_CODE, FREE_CLUSTER_MESSAGE);
}

/** The read-only data-protection routes. */
export function dataProtectionRoutes(ctx: SimContext): RouteDef[] {
  const dp = ctx.dataProtection;
  // The reference's samples of the global-cluster endpoints carry no envelope.
  const bare = () => !ctx.quirks.globalClustersEnvelope;
  return [
    {
      method: "GET",
      path: "/v2/backups",
      template: "GET /v2/backups",
      version: 2,
      mutating: false,
      dataShape: "object",
      permission: "backup",
      clusterId: (r) => r.query.clusterId,
      handle: (r) => {
        const pageSize = intParam(r.query, "pageSize", 10, 1, 100);
        const currentPage = intParam(r.query, "currentPage", 1, 1, Number.MAX_SAFE_INTEGER);
        const { clusterId, projectId, creationMethod, backupType } = r.query;
        if (clusterId) {
          const cluster = ctx.clusterById.get(clusterId);
          if (!cluster) throw new SimApiError(80020, "Cluster not exist or you don't have permission.");
          if (!isDedicated(cluster)) throw notDedicated(cluster);
        }
        const matching = dp
          .backupsAt(r.nowMs)
          .filter(
            (b) =>
              (!clusterId || b.clusterId === clusterId) &&
              (!projectId || b.projectId === projectId) &&
              (!creationMethod || b.creationMethod === creationMethod) &&
              (!backupType || b.backupType === backupType),
          );
        const page = matching.slice((currentPage - 1) * pageSize, currentPage * pageSize).map(backupView);
        return { count: matching.length, currentPage, pageSize, backups: page };
      },
    },
    {
      method: "GET",
      path: "/v2/clusters/:id/backups/policy",
      template: "GET /v2/clusters/{id}/backups/policy",
      version: 2,
      mutating: false,
      dataShape: "object",
      permission: "backup",
      clusterId: (r) => r.params.id,
      handle: (r) => {
        const cluster = ctx.clusterById.get(r.params.id ?? "");
        if (!cluster) throw new SimApiError(80020, "Cluster not exist or you don't have permission.");
        const policy = dp.policies.get(cluster.id);
        if (!policy) throw notDedicated(cluster);
        return policy;
      },
    },
    {
      method: "GET",
      path: "/v2/globalClusters",
      template: "GET /v2/globalClusters",
      version: 2,
      mutating: false,
      dataShape: "object",
      bare,
      handle: (r) => {
        const pageSize = intParam(r.query, "pageSize", 10, 1, 100);
        const currentPage = intParam(r.query, "currentPage", 1, 1, Number.MAX_SAFE_INTEGER);
        const all = dp.globalClusters;
        const page = all.slice((currentPage - 1) * pageSize, currentPage * pageSize).map((g) => ({
          globalClusterId: g.globalClusterId,
          globalClusterName: g.globalClusterName,
          projectId: g.projectId,
          regionIds: [g.primary.regionId, ...g.secondaries.map((s) => s.regionId)],
          cuType: g.primary.cuType,
          cuSize: g.primary.cuSize,
          connectAddress: `https://${g.globalClusterId}.global.vectordb.zillizcloud.com:19530`,
          createTime: iso(g.primary.createTimeMs),
        }));
        return { count: all.length, currentPage, pageSize, globalClusters: page };
      },
    },
    {
      method: "GET",
      path: "/v2/globalClusters/:id/replicationLag",
      template: "GET /v2/globalClusters/{id}/replicationLag",
      version: 2,
      mutating: false,
      dataShape: "object",
      bare,
      handle: (r) => {
        const g = dp.globalClusters.find((x) => x.globalClusterId === r.params.id);
        if (!g) throw new SimApiError(80020, "Global cluster not exist or you don't have permission.");
        return {
          globalClusterId: g.globalClusterId,
          primaryClusterId: g.primary.id,
          primaryRegionId: g.primary.regionId,
          lags: g.secondaries.map((s) => ({
            secondaryClusterId: s.clusterId,
            secondaryRegionId: s.regionId,
            lagMs: dp.lagMs(s, r.nowMs),
          })),
        };
      },
    },
  ];
}
