/**
 * Normalized results of the upstream control-plane API. Every endpoint declaration
 * (endpoints/) turns each documented response variant into exactly these shapes, so nothing past
 * `upstream/` ever sees the wire format's quirks (name/metricName, records/tasks, data as array or
 * object, ...). A leaf: the endpoint declarations read it, and types.ts re-exports it.
 */

import type { PageInfo } from "./pageTypes.js";

export type { ApiKey, ApiKeyPage, ApiKeyProjectRole } from "./apiKeyTypes.js";
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
export type { OnDemandCompute } from "./onDemandComputeTypes.js";
export { PAGE_SIZE_MAX, PAGING_ERROR_REASONS, type PageInfo, type PagingErrorReason } from "./pageTypes.js";
export type { PrivateEndpoint, PrivateEndpointPage } from "./privateEndpointTypes.js";
export type { StorageIntegration, StorageIntegrationPage } from "./storageIntegrationTypes.js";

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
