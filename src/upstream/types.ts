/**
 * Normalized results of the upstream control-plane API. Every endpoint module turns each
 * documented response variant into exactly these shapes, so nothing past `cloud/` ever sees
 * the wire format's quirks (name/metricName, records/tasks, data as array or object, ...).
 * This module knows nothing of Prometheus.
 */

import type { InvoicePage, UsagePage } from "./billingTypes.js";
import type { ClusterDescription, ClusterPage } from "./clusterTypes.js";
import type { AlertRulePage, OnDemandCluster } from "./consoleTypes.js";
import type { BackupPage, BackupPolicy, GlobalClusterPage, ReplicationLag } from "./dataProtectionTypes.js";
import type { PageInfo } from "./pageTypes.js";

export type { Invoice, InvoicePage, UsageDay, UsageItem, UsagePage } from "./billingTypes.js";
export type { ClusterDescription, ClusterPage, GlobalClusterMembership } from "./clusterTypes.js";
export type { AlertRule, AlertRulePage, OnDemandCluster } from "./consoleTypes.js";
export type {
  Backup,
  BackupPage,
  BackupPolicy,
  GlobalCluster,
  GlobalClusterPage,
  ReplicationLag,
} from "./dataProtectionTypes.js";
export { PAGE_SIZE_MAX, PAGING_ERROR_REASONS, type PageInfo, type PagingErrorReason } from "./pageTypes.js";

/** One metric query item. `stat` is present in the first documented form only. */
export interface MetricQuery {
  readonly name: string;
  readonly stat?: "AVG" | "P99";
}

/** Query Cluster Metrics request (both documented forms; the builder accepts the union). */
export interface ClusterMetricsRequest {
  readonly clusterId: string;
  /** Window as epoch milliseconds; sent as ISO 8601 UTC `start`/`end`. */
  readonly startMs: number;
  readonly endMs: number;
  /** Granularity in milliseconds; sent as an ISO 8601 duration (e.g. PT30S, PT1M). */
  readonly granularityMs: number;
  /** Second form only: a per-database / per-collection scope. */
  readonly dbName?: string;
  readonly collectionName?: string;
  readonly queries: readonly MetricQuery[];
}

/** One point of a metric result. `value` is kept raw: null means "no data for that bucket". */
export interface MetricPoint {
  readonly timestampMs: number;
  readonly value: string | null;
}

/** One metric result. `name` comes from `name` or `metricName` on the wire. */
export interface MetricResult {
  readonly name: string;
  readonly stat?: "AVG" | "P99";
  readonly unit: string;
  readonly values: readonly MetricPoint[];
}

/** One import job (List Import Jobs v1 or V2). `state` is the raw upstream state string. */
export interface ImportJob {
  readonly jobId: string;
  readonly collectionName: string;
  readonly state: string;
}

/** One page of List Import Jobs (v1 or V2). `total` is the documented `count`. */
export interface ImportJobPage extends PageInfo {
  readonly jobs: readonly ImportJob[];
}

/**
 * Get Import Job Progress (V2). `state` is raw (Pending, Importing, Completed, Failed); the
 * other fields are null when the answer left them out or sent something unreadable.
 */
export interface ImportJobProgress {
  readonly jobId: string;
  readonly collectionName: string | null;
  readonly state: string;
  /** Percent, 0..100. */
  readonly progressPercent: number | null;
  readonly totalRows: number | null;
  /** Why the job failed; null when empty. */
  readonly reason: string | null;
}

export interface SparkPrecheckError {
  readonly code?: string;
  readonly sourceColumn?: string;
  readonly targetField?: string;
  readonly message?: string;
}

/**
 * Describe Spark Job (v2). Timestamps are epoch ms, null when absent, null, empty or unreadable
 * upstream. `status` is the raw upstream string, never empty.
 */
export interface SparkJob {
  readonly jobId: string;
  readonly projectId: string;
  readonly type: string;
  readonly status: string;
  readonly regionId: string;
  readonly clusterId: string | null;
  readonly description: string | null;
  readonly createdAtMs: number | null;
  readonly submittedAtMs: number | null;
  readonly startedAtMs: number | null;
  readonly finishedAtMs: number | null;
  readonly durationSeconds: number | null;
  /** `retryable` is null when the upstream did not say (never read as false). */
  readonly failureReason: {
    readonly code: string;
    readonly message: string;
    readonly retryable: boolean | null;
  } | null;
  /** `errors` is null when the report carries no error list (not the same as none). */
  readonly precheck: {
    readonly passed: boolean | null;
    readonly checkedRows: number | null;
    readonly errors: readonly SparkPrecheckError[] | null;
  } | null;
}

/**
 * One page of List Spark Jobs (v2). Items carry the list's fields only: `submittedAtMs`,
 * `failureReason` and `precheck` are null (Describe Spark Job gives them). `total` is the
 * documented `total` (or a `count`), null when the answer gives neither.
 */
export interface SparkJobPage extends PageInfo {
  readonly jobs: readonly SparkJob[];
}

/**
 * Describe Job (v2): a migration, backup, restore, collection clone or import job. `type` and
 * `status` are the raw upstream strings (status never empty); `progress` is in percent, null when
 * absent or unreadable; timestamps are epoch ms, null when absent or empty; `reason` is null when
 * absent or empty.
 */
export interface CloudJob {
  readonly jobId: string;
  readonly type: string;
  readonly status: string;
  readonly progress: number | null;
  readonly startTimeMs: number | null;
  readonly endTimeMs: number | null;
  readonly reason: string | null;
}

/** List Projects (v1). */
export interface Project {
  readonly projectId: string;
  readonly projectName: string;
  readonly instanceCount: number | null;
  readonly createTimeMs: number | null;
}

/**
 * List Projects (V2): the v1 fields that are still there, plus the project's regions, plan and
 * org type ("" when absent).
 */
export interface ProjectV2 {
  readonly projectId: string;
  readonly projectName: string;
  readonly instanceCount: number | null;
  /** The regions the project holds (regionIds), each once; empty when the answer gave none. */
  readonly regionIds: readonly string[];
  /** Standard, Enterprise, BusinessCritical. */
  readonly plan: string;
  /** SAAS, BYOC. */
  readonly orgType: string;
}

/** List Cloud Regions (v2). `domain` is the base host of that region's v2 server. */
export interface Region {
  readonly cloudId: string;
  readonly regionId: string;
  readonly domain: string;
}

/**
 * One page of List Group Members (v2). Members themselves are not kept (see upstream/groups.ts):
 * `total` is the documented `count`; `memberKeys` holds a hash of each member, enough to tell a
 * repeated page from a new one and nothing more.
 */
export interface GroupMemberPage extends PageInfo {
  readonly memberKeys: readonly string[];
}

/**
 * Every endpoint the client may call, by the `CloudApi` method that calls it: the HTTP method
 * and the path template. This is the one declaration of each template; the order is the order
 * of the self-metrics' series.
 */
export const ENDPOINT = {
  queryClusterMetrics: "POST /v2/clusters/{id}/metrics/query",
  listImportJobs: "GET /v1/vector/collections/import/list",
  describeSparkJob: "GET /v2/projects/{projectId}/jobs/{jobId}",
  describeCluster: "GET /v2/clusters/{id}",
  listClusters: "GET /v2/clusters",
  listProjects: "GET /v1/projects",
  listRegions: "GET /v2/regions",
  listGroupMembers: "GET /v2/groups/{groupId}/members",
  listBackups: "GET /v2/backups",
  getBackupPolicy: "GET /v2/clusters/{id}/backups/policy",
  listGlobalClusters: "GET /v2/globalClusters",
  getGlobalClusterReplicationLag: "GET /v2/globalClusters/{id}/replicationLag",
  listImportJobsV2: "POST /v2/vectordb/jobs/import/list",
  describeImportJob: "POST /v2/vectordb/jobs/import/describe",
  listProjectsV2: "GET /v2/projects",
  listSparkJobs: "GET /v2/jobs",
  describeJob: "GET /v2/jobs/{jobId}",
  queryDailyUsage: "POST /v2/usage/query",
  listInvoices: "GET /v2/invoices",
  listOnDemandClusters: "GET /v2/clusters/onDemandClusters",
  listAlertRules: "GET /v2/alertRules",
} as const satisfies Record<keyof CloudApi, string>;

/** Every data-plane endpoint template (a cluster's own endpoint), each declared once. */
export const DATA_PLANE_ENDPOINT = {
  listDatabases: "POST /v2/vectordb/databases/list",
  listCollections: "POST /v2/vectordb/collections/list",
  listCollectionsV1: "GET /v1/vector/collections",
  getLoadState: "POST /v2/vectordb/collections/get_load_state",
  getStats: "POST /v2/vectordb/collections/get_stats",
  listIndexes: "POST /v2/vectordb/indexes/list",
  describeIndex: "POST /v2/vectordb/indexes/describe",
} as const;

/**
 * Endpoint identity used for rate limiting and self-metrics: the HTTP method and the path
 * template, e.g. "POST /v2/clusters/{id}/metrics/query". Never contains IDs or secrets.
 */
export type EndpointTemplate =
  | (typeof ENDPOINT)[keyof typeof ENDPOINT]
  | (typeof DATA_PLANE_ENDPOINT)[keyof typeof DATA_PLANE_ENDPOINT];

/** The paged listings: each is read through the pager, and counts its paging errors. */
export const PAGED_ENDPOINTS: readonly EndpointTemplate[] = [
  ENDPOINT.listClusters,
  ENDPOINT.listImportJobs,
  ENDPOINT.listImportJobsV2,
  ENDPOINT.listSparkJobs,
  ENDPOINT.listBackups,
  ENDPOINT.listGlobalClusters,
  ENDPOINT.listGroupMembers,
  ENDPOINT.listInvoices,
  ENDPOINT.queryDailyUsage,
  ENDPOINT.listAlertRules,
];

/** Every endpoint template, in the order of `ENDPOINT`. */
export const ENDPOINTS: readonly EndpointTemplate[] = [
  ...Object.values(ENDPOINT),
  ...Object.values(DATA_PLANE_ENDPOINT),
];

/** Outcome classes of one logical API call (after retries). Stable: used as label values. */
export const OUTCOMES = [
  "success",
  "api_error",
  "invalid_request",
  "auth_error",
  "not_found",
  "rate_limited",
  "http_error",
  "timeout",
  "network_error",
  "schema_error",
  "body_too_large",
  "aborted",
] as const;

/** One outcome class of `OUTCOMES`. */
export type CallOutcome = (typeof OUTCOMES)[number];

/**
 * Events the client reports so that another layer can count them (the client itself never
 * depends on Prometheus). Implementations must be cheap and must not throw.
 */
export interface ClientObserver {
  /** One HTTP attempt finished (including each retry). */
  attempt(endpoint: EndpointTemplate, outcome: CallOutcome, durationSeconds: number): void;
  /** A retry is about to be scheduled after `delayMs`. */
  retry(endpoint: EndpointTemplate, delayMs: number): void;
  /** The upstream answered with rate limiting (HTTP 429 or a rate-limit error code/message). */
  rateLimited(endpoint: EndpointTemplate): void;
  /** A response body did not match the endpoint's schema. */
  schemaError(endpoint: EndpointTemplate): void;
}

/**
 * The read-only client of the upstream API. It has no method for any mutating endpoint
 * (drop, delete, create, update, migrate, release), by design. Every method rejects with a
 * `CloudError` subclass (see errors.ts), honours `signal`, and is rate limited per endpoint.
 */
export interface CloudApi {
  queryClusterMetrics(req: ClusterMetricsRequest, signal?: AbortSignal): Promise<MetricResult[]>;
  /** v1, at the controller URL of `region` (deprecated upstream). Page numbers start at 1. */
  listImportJobs(
    args: { clusterId: string; region: string; pageSize: number; currentPage: number },
    signal?: AbortSignal,
  ): Promise<ImportJobPage>;
  describeSparkJob(args: { projectId: string; jobId: string }, signal?: AbortSignal): Promise<SparkJob>;
  describeCluster(clusterId: string, signal?: AbortSignal): Promise<ClusterDescription>;
  listClusters(
    args: { projectId?: string; regionId?: string; pageSize: number; currentPage: number },
    signal?: AbortSignal,
  ): Promise<ClusterPage>;
  /** v1: needs a region to build the controller URL. */
  listProjects(args: { region: string }, signal?: AbortSignal): Promise<Project[]>;
  listRegions(args: { cloudId?: string }, signal?: AbortSignal): Promise<Region[]>;
  /** One page of a SCIM group's members (page numbers start at 1); only counts come back. */
  listGroupMembers(
    args: { groupId: string; pageSize: number; currentPage: number },
    signal?: AbortSignal,
  ): Promise<GroupMemberPage>;
  /** One page of backups (page numbers start at 1): organisation-wide, or one cluster's. */
  listBackups(
    args: { clusterId?: string; pageSize: number; currentPage: number },
    signal?: AbortSignal,
  ): Promise<BackupPage>;
  /** A dedicated cluster's automatic backup policy. */
  getBackupPolicy(clusterId: string, signal?: AbortSignal): Promise<BackupPolicy>;
  /** One page of global clusters (answers with or without the envelope). */
  listGlobalClusters(
    args: { pageSize: number; currentPage: number },
    signal?: AbortSignal,
  ): Promise<GlobalClusterPage>;
  /** A global cluster's replication lag per secondary (answers with or without the envelope). */
  getGlobalClusterReplicationLag(globalClusterId: string, signal?: AbortSignal): Promise<ReplicationLag>;
  /** List Import Jobs (V2), on the v2 control plane: no region needed. Page numbers start at 1. */
  listImportJobsV2(
    args: { clusterId: string; pageSize: number; currentPage: number },
    signal?: AbortSignal,
  ): Promise<ImportJobPage>;
  /** Get Import Job Progress (V2) of one job. */
  describeImportJob(
    args: { clusterId: string; jobId: string },
    signal?: AbortSignal,
  ): Promise<ImportJobProgress>;
  /** List Projects (V2): no region needed; adds plan and org type. */
  listProjectsV2(signal?: AbortSignal): Promise<ProjectV2[]>;
  /** One page of a cluster's Spark jobs (List Spark Jobs, type=SPARK); page numbers start at 1. */
  listSparkJobs(
    args: { clusterId: string; pageSize: number; currentPage: number },
    signal?: AbortSignal,
  ): Promise<SparkJobPage>;
  /** Describe Job (v2): any job by its ID. */
  describeJob(jobId: string, signal?: AbortSignal): Promise<CloudJob>;
  /**
   * One page of daily usage for UTC days `start`..`end` (YYYY-MM-DD). Needs the Organization
   * Owner or Billing Admin role: call it with the billing key only.
   */
  queryDailyUsage(
    args: { start: string; end: string; pageSize: number; currentPage: number },
    signal?: AbortSignal,
  ): Promise<UsagePage>;
  /** One page of invoices (page numbers start at 1). Same role as queryDailyUsage. */
  listInvoices(args: { pageSize: number; currentPage: number }, signal?: AbortSignal): Promise<InvoicePage>;
  /** The on-demand clusters of one project in one region (both required; no paging). */
  listOnDemandClusters(
    args: { projectId: string; regionId: string },
    signal?: AbortSignal,
  ): Promise<OnDemandCluster[]>;
  /**
   * One page of a project's alert rules as the console defines them (page numbers start at 1).
   * Needs a project admin. The rules' actions (webhook URLs, recipients, keys) never come back.
   */
  listAlertRules(
    args: { projectId: string; pageSize: number; currentPage: number },
    signal?: AbortSignal,
  ): Promise<AlertRulePage>;
}
