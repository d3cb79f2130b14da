/**
 * The read-only endpoints the exporter uses, with the documented shapes: Query Cluster
 * Metrics, Describe/List Clusters, Describe Spark Job, List Spark Jobs, Describe Job, List Cloud
 * Regions, List Import Jobs, Get Import Job Progress, List Projects (V2), and List Import Jobs,
 * List Projects (v1).
 */

import { cloudJobView } from "./cloud-jobs.js";
import { nulledKey, type SimContext } from "./context.js";
import { ApiCode, SimApiError } from "./errors.js";
import { v2State } from "./import-jobs.js";
import { answerMetricsQuery } from "./metrics-query.js";
import { intParam, type RouteDef, type RouteRequest } from "./route.js";
import { sparkJobView } from "./spark-jobs.js";
import { sparkJobListItem } from "./spark-listing.js";
import { oddSparkJobView } from "./spark-odd.js";
import type { MutableSimCluster, SimCluster } from "./world.js";

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * A List Clusters item, as the reference shows it now: deploymentOption (left out on free
 * clusters, as the free sample does) and globalClusterMeta (null outside a global cluster), but
 * not replica, storageSize, snapshotNumber, createProgress or autoscaling.
 */
function listedCluster(ctx: SimContext, c: SimCluster): Record<string, unknown> {
  return {
    clusterId: c.id,
    clusterName: c.name,
    projectId: c.projectId,
    description: c.cuType === "" ? c.name : `${c.name} (${c.cuType})`,
    regionId: c.regionId,
    cuType: c.cuType,
    plan: c.plan,
    status: c.status,
    connectAddress: c.connectAddress,
    privateLinkAddress: "",
    cuSize: c.cuSize,
    createTime: isoSeconds(c.createTimeMs),
    ...(c.deploymentOption === undefined ? {} : { deploymentOption: c.deploymentOption }),
    globalClusterMeta: ctx.dataProtection.membership(c.id),
  };
}

/** The Describe Cluster payload: a List Clusters item and the fields only Describe Cluster has. */
function describeCluster(ctx: SimContext, c: SimCluster): Record<string, unknown> {
  const autoscaling = {
    ...(c.autoscalingCu === undefined ? {} : { cu: { ...c.autoscalingCu } }),
    ...(c.autoscalingReplica === undefined ? {} : { replica: { ...c.autoscalingReplica } }),
  };
  return {
    ...listedCluster(ctx, c),
    storageSize: 0,
    snapshotNumber: c.snapshotNumber,
    createProgress: c.createProgress,
    // Sent only when the cluster has them.
    ...(c.replica === undefined ? {} : { replica: c.replicaAsString ? String(c.replica) : c.replica }),
    ...(Object.keys(autoscaling).length === 0 ? {} : { autoscaling }),
  };
}

export function v2Cluster(ctx: SimContext, id: string | undefined): MutableSimCluster {
  const cluster = id === undefined ? undefined : ctx.clusterById.get(id);
  if (!cluster) {
    throw new SimApiError(ApiCode.CLUSTER_NOT_FOUND_V2, "Cluster not exist or you don't have permission.");
  }
  return cluster;
}

const pathCluster = (r: RouteRequest) => r.params.id;
const queryCluster = (r: RouteRequest) => r.query.clusterId;

/** The `clusterId` a listing's query must name (an invalid parameter otherwise). */
function requiredQueryCluster(r: RouteRequest): string {
  const clusterId = r.query.clusterId;
  if (!clusterId) throw new SimApiError(ApiCode.INVALID_PARAMETER, "clusterId is required");
  return clusterId;
}

/** Page `currentPage` (from 1) of `items`, `pageSize` a page. */
function pageOf<T>(items: readonly T[], currentPage: number, pageSize: number): T[] {
  return items.slice((currentPage - 1) * pageSize, currentPage * pageSize);
}

/** The `currentPage` a listing's query asks (from 1) and that page of `items`. */
function queryPage<T>(
  r: RouteRequest,
  items: readonly T[],
  pageSize: number,
): { currentPage: number; page: T[] } {
  const currentPage = intParam(r.query, "currentPage", 1, 1, Number.MAX_SAFE_INTEGER);
  return { currentPage, page: pageOf(items, currentPage, pageSize) };
}

/** An import listing's page size: as asked, or fewer on a capping server (which reports what it served). */
function importPageSize(ctx: SimContext, asked: number): number {
  const cap = ctx.quirks.importPageCap;
  return cap > 0 ? Math.min(asked, cap) : asked;
}

/** A field of a JSON body, as a string (numbers too: the reference's sample sends a numeric jobId). */
function bodyText(body: unknown, name: string): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const v = (body as Record<string, unknown>)[name];
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** An integer field of a JSON body (number or numeric string) within [min, max]; `fallback` when absent. */
function bodyInt(body: unknown, name: string, fallback: number, min: number, max: number): number {
  const raw = bodyText(body, name);
  return intParam({ [name]: raw }, name, fallback, min, max);
}

const bodyCluster = (r: RouteRequest) => bodyText(r.body, "clusterId");

/** A V2 import endpoint: a read-only POST whose body names the cluster, answering an object. */
function v2ImportRoute(path: string, handle: RouteDef["handle"]): RouteDef {
  return {
    method: "POST",
    path,
    template: `POST ${path}`,
    version: 2,
    mutating: false,
    dataShape: "object",
    clusterId: bodyCluster,
    handle,
  };
}

/** The cluster a V2 import request names in its body; v2's "not found" otherwise. */
function importCluster(ctx: SimContext, r: RouteRequest): MutableSimCluster {
  const clusterId = bodyText(r.body, "clusterId");
  if (clusterId === undefined) throw new SimApiError(ApiCode.INVALID_PARAMETER, "clusterId is required");
  return v2Cluster(ctx, clusterId);
}

/** The read-only routes over `ctx`. */
export function readRoutes(ctx: SimContext): RouteDef[] {
  return [
    {
      method: "POST",
      path: "/v2/clusters/:id/metrics/query",
      template: "POST /v2/clusters/{id}/metrics/query",
      version: 2,
      mutating: false,
      dataShape: "object",
      clusterId: pathCluster,
      handle: (r) => {
        const cluster = v2Cluster(ctx, r.params.id);
        const profile = ctx.profiles.get(cluster.id);
        if (!profile) throw new Error(`no value profile for ${cluster.id}`);
        return answerMetricsQuery(r.body, {
          cluster,
          profile,
          nowMs: r.nowMs,
          isNulled: (id, name) => ctx.nulledMetrics.has(nulledKey(id, name)),
          rejectMixedForms: ctx.rejectMixedMetricForms,
          catalog: ctx.metricCatalog,
          statPolicy: ctx.metricStat,
          retentionMs: ctx.metricRetentionMs,
          maxPoints: ctx.maxMetricPoints,
          quirks: ctx.quirks,
        });
      },
    },
    {
      method: "GET",
      path: "/v2/clusters/:id",
      template: "GET /v2/clusters/{id}",
      version: 2,
      mutating: false,
      dataShape: "object",
      clusterId: pathCluster,
      handle: (r) => describeCluster(ctx, v2Cluster(ctx, r.params.id)),
    },
    {
      method: "GET",
      path: "/v2/clusters",
      template: "GET /v2/clusters",
      version: 2,
      mutating: false,
      dataShape: ctx.listClustersShape === "array" ? "array" : "object",
      handle: (r) => {
        const pageSize = intParam(r.query, "pageSize", 10, 1, 100);
        const currentPage = intParam(r.query, "currentPage", 1, 1, Number.MAX_SAFE_INTEGER);
        const { projectId, regionId } = r.query;
        const matching = ctx.world.clusters.filter(
          (c) => (!projectId || c.projectId === projectId) && (!regionId || c.regionId === regionId),
        );
        const page = matching
          .slice((currentPage - 1) * pageSize, currentPage * pageSize)
          .map((c) => listedCluster(ctx, c));
        return ctx.listClustersShape === "array"
          ? page
          : { count: matching.length, currentPage, pageSize, clusters: page };
      },
    },
    {
      method: "GET",
      path: "/v2/projects/:projectId/jobs/:jobId",
      template: "GET /v2/projects/{projectId}/jobs/{jobId}",
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const spec = ctx.spark.get(r.params.projectId ?? "", r.params.jobId ?? "");
        if (!spec)
          throw new SimApiError(
            ApiCode.JOB_NOT_FOUND,
            "The job does not exist or you don't have permission.",
          );
        const view = sparkJobView(spec, r.nowMs, ctx.timeScale);
        return ctx.quirks.oddSparkFields ? oddSparkJobView(view) : view;
      },
    },
    {
      method: "GET",
      path: "/v2/jobs",
      template: "GET /v2/jobs",
      version: 2,
      mutating: false,
      dataShape: "object",
      clusterId: queryCluster,
      handle: (r) => {
        // Documented: clusterId required, pageSize 1..100 (default 20), type SPARK lists Spark jobs.
        const cluster = v2Cluster(ctx, requiredQueryCluster(r));
        const pageSize = intParam(r.query, "pageSize", 20, 1, 100);
        const jobs =
          (r.query.type ?? "SPARK").toUpperCase() === "SPARK" ? ctx.spark.ofCluster(cluster.id) : [];
        const items = queryPage(r, jobs, pageSize).page.map((spec) =>
          sparkJobListItem(spec, r.nowMs, ctx.timeScale),
        );
        return { total: jobs.length, items };
      },
    },
    {
      method: "GET",
      path: "/v2/jobs/:jobId",
      template: "GET /v2/jobs/{jobId}",
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const spec = ctx.cloudJobs.get(r.params.jobId ?? "");
        if (!spec)
          throw new SimApiError(
            ApiCode.JOB_NOT_FOUND,
            "The job does not exist or you don't have permission.",
          );
        return cloudJobView(spec, r.nowMs, ctx.timeScale);
      },
    },
    {
      method: "GET",
      path: "/v2/regions",
      template: "GET /v2/regions",
      version: 2,
      mutating: false,
      dataShape: "array",
      handle: (r) =>
        ctx.world.regions
          .filter((g) => !r.query.cloudId || g.cloudId === r.query.cloudId)
          .map((g) => ({ cloudId: g.cloudId, regionId: g.regionId, domain: g.domain })),
    },
    {
      method: "GET",
      path: "/v1/vector/collections/import/list",
      template: "GET /v1/vector/collections/import/list",
      version: 1,
      mutating: false,
      dataShape: "object",
      clusterId: queryCluster,
      handle: (r) => {
        const clusterId = requiredQueryCluster(r);
        const cluster = ctx.clusterById.get(clusterId);
        // A regional controller knows only the clusters of its own region.
        if (!cluster || (r.region !== undefined && r.region !== cluster.regionId)) {
          throw new SimApiError(ApiCode.CLUSTER_NOT_FOUND_V1, `cluster ${clusterId} not found`);
        }
        const pageSize = importPageSize(ctx, intParam(r.query, "pageSize", 10, 5, 100));
        const jobs = ctx.imports.list(cluster, r.nowMs);
        const { currentPage, page } = queryPage(r, jobs, pageSize);
        return { count: jobs.length, currentPage, pageSize, [cluster.importListKey]: page };
      },
    },
    v2ImportRoute("/v2/vectordb/jobs/import/list", (r) => {
      const cluster = importCluster(ctx, r);
      const pageSize = importPageSize(ctx, bodyInt(r.body, "pageSize", 10, 1, 100));
      const currentPage = bodyInt(r.body, "currentPage", 1, 1, Number.MAX_SAFE_INTEGER);
      const jobs = ctx.imports.list(cluster, r.nowMs);
      const records = pageOf(jobs, currentPage, pageSize).map((j) => ({
        collectionName: j.collectionName,
        jobId: j.jobId,
        state: v2State(j.state, "list"),
      }));
      return { count: jobs.length, currentPage, pageSize, records };
    }),
    v2ImportRoute("/v2/vectordb/jobs/import/describe", (r) => {
      const cluster = importCluster(ctx, r);
      const jobId = bodyText(r.body, "jobId");
      if (jobId === undefined) throw new SimApiError(ApiCode.INVALID_PARAMETER, "jobId is required");
      const job = ctx.imports.detail(cluster, jobId, r.nowMs);
      if (!job) throw new SimApiError(ApiCode.JOB_NOT_FOUND, `import job ${jobId} not found`);
      const state = v2State(job.state, "describe");
      const finished = state === "Completed" || state === "Failed";
      const fileName = `${job.collectionName}/${job.jobId}.parquet`;
      const completeTime = finished ? isoSeconds(r.nowMs) : null;
      // A job of one file: that file's entry carries the job's own fields.
      const file = {
        fileName,
        fileSize: 3_279_917,
        state,
        progress: job.progress,
        completeTime,
        reason: job.reason,
      };
      return {
        jobId: job.jobId,
        collectionName: job.collectionName,
        ...file,
        totalRows: job.totalRows,
        details: [file],
      };
    }),
    {
      method: "GET",
      path: "/v2/projects",
      template: "GET /v2/projects",
      version: 2,
      mutating: false,
      dataShape: "array",
      handle: () =>
        ctx.world.projects.map((p, i) => ({
          projectId: p.id,
          projectName: p.name,
          description: "",
          regionIds: [
            ...new Set(p.clusterIds.map((id) => ctx.clusterById.get(id)?.regionId ?? "").filter((r) => r)),
          ],
          // A string in the schema, a number in the sample: the simulator sends both, in turn.
          instanceCount: i % 2 === 0 ? p.clusterIds.length : String(p.clusterIds.length),
          createTime: isoSeconds(p.createTimeMs),
          plan: p.plan,
          orgType: p.orgType,
        })),
    },
    {
      method: "GET",
      path: "/v1/projects",
      template: "GET /v1/projects",
      version: 1,
      mutating: false,
      dataShape: "array",
      handle: () =>
        ctx.world.projects.map((p) => ({
          createTimeMilli: p.createTimeMs,
          instanceCount: p.clusterIds.length,
          projectId: p.id,
          projectName: p.name,
        })),
    },
  ];
}
