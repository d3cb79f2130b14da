/**
 * The one table of endpoints (YACE's `services.go`): every endpoint the exporter may call, each
 * declared once in its own file of this folder. Everything else that lists endpoints derives from
 * it: the `CloudApi` type and the client's methods (client.ts), the template constants
 * (`ENDPOINT`, `DATA_PLANE_ENDPOINT`), the self-metrics' endpoint label values (`ENDPOINTS`, in
 * this order), the paged set, the shard-0 set, the schedule's order and its run-time notes.
 *
 * To add an endpoint: declare it in a file of this folder (`defineEndpoint`), and add it here.
 */
import { listAlertRulesEndpoint } from "./alertRules.js";
import { listApiKeysEndpoint } from "./apiKeys.js";
import { getBackupPolicyEndpoint, listBackupsEndpoint } from "./backups.js";
import { listInvoicesEndpoint, queryDailyUsageEndpoint } from "./billing.js";
import { describeCollectionEndpoint, queryEndpoint, searchEndpoint } from "./canary.js";
import { describeClusterEndpoint, listClustersEndpoint } from "./clusters.js";
import {
  getLoadStateEndpoint,
  getStatsEndpoint,
  listCollectionsEndpoint,
  listCollectionsV1Endpoint,
  listDatabasesEndpoint,
} from "./dataPlane.js";
import type { EndpointDef, Template } from "./define.js";
import { getReplicationLagEndpoint, listGlobalClustersEndpoint } from "./globalClusters.js";
import { listGroupMembersEndpoint } from "./groups.js";
import { listImportJobsEndpoint } from "./importJobs.js";
import { describeImportJobEndpoint, listImportJobsV2Endpoint } from "./importJobsV2.js";
import { describeIndexEndpoint, listIndexesEndpoint } from "./indexes.js";
import { describeJobEndpoint } from "./jobs.js";
import { queryClusterMetricsEndpoint } from "./metrics.js";
import { listOnDemandClustersEndpoint } from "./onDemandClusters.js";
import { describeOnDemandComputeEndpoint } from "./onDemandCompute.js";
import { describePipelineEndpoint, listPipelinesEndpoint } from "./pipelines.js";
import { listPrivateEndpointsEndpoint } from "./privateEndpoints.js";
import { listProjectsEndpoint } from "./projects.js";
import { listProjectsV2Endpoint } from "./projectsV2.js";
import { listRegionsEndpoint } from "./regions.js";
import { listSparkJobsEndpoint } from "./sparkJobList.js";
import { describeSparkJobEndpoint } from "./sparkJobs.js";
import { listStorageIntegrationsEndpoint } from "./storageIntegrations.js";

/**
 * The control plane's endpoints, by the `CloudApi` method that calls each. The client has no
 * method for any mutating endpoint (drop, delete, create, update, migrate, release), by design.
 */
export const CONTROL_PLANE = {
  queryClusterMetrics: queryClusterMetricsEndpoint,
  /** v1, at the controller URL of `region` (deprecated upstream). Page numbers start at 1. */
  listImportJobs: listImportJobsEndpoint,
  describeSparkJob: describeSparkJobEndpoint,
  describeCluster: describeClusterEndpoint,
  listClusters: listClustersEndpoint,
  /** v1: needs a region to build the controller URL. */
  listProjects: listProjectsEndpoint,
  listRegions: listRegionsEndpoint,
  /** One page of a SCIM group's members (page numbers start at 1); only counts come back. */
  listGroupMembers: listGroupMembersEndpoint,
  /** One page of backups (page numbers start at 1): organisation-wide, or one cluster's. */
  listBackups: listBackupsEndpoint,
  /** A dedicated cluster's automatic backup policy. */
  getBackupPolicy: getBackupPolicyEndpoint,
  /** One page of global clusters (answers with or without the envelope). */
  listGlobalClusters: listGlobalClustersEndpoint,
  /** A global cluster's replication lag per secondary (answers with or without the envelope). */
  getGlobalClusterReplicationLag: getReplicationLagEndpoint,
  /** List Import Jobs (V2), on the v2 control plane: no region needed. Page numbers start at 1. */
  listImportJobsV2: listImportJobsV2Endpoint,
  /** Get Import Job Progress (V2) of one job. */
  describeImportJob: describeImportJobEndpoint,
  /** List Projects (V2): no region needed; adds plan and org type. */
  listProjectsV2: listProjectsV2Endpoint,
  /** One page of a cluster's Spark jobs (List Spark Jobs, type=SPARK); page numbers start at 1. */
  listSparkJobs: listSparkJobsEndpoint,
  /** Describe Job (v2): any job by its ID. */
  describeJob: describeJobEndpoint,
  /**
   * One page of daily usage for UTC days `start`..`end` (YYYY-MM-DD). Needs the Organization
   * Owner or Billing Admin role: call it with the billing key only.
   */
  queryDailyUsage: queryDailyUsageEndpoint,
  /** One page of invoices (page numbers start at 1). Same role as queryDailyUsage. */
  listInvoices: listInvoicesEndpoint,
  /** The on-demand clusters of one project in one region (both required; no paging). */
  listOnDemandClusters: listOnDemandClustersEndpoint,
  /**
   * One page of a project's alert rules as the console defines them (page numbers start at 1).
   * Needs a project admin. The rules' actions (webhook URLs, recipients, keys) never come back.
   */
  listAlertRules: listAlertRulesEndpoint,
  /**
   * One page of a project's private endpoints with their statuses and their endpoint services'
   * (page numbers start at 1).
   */
  listPrivateEndpoints: listPrivateEndpointsEndpoint,
  /** Whether on-demand compute is on for one project in one region (both required; no paging). */
  describeOnDemandCompute: describeOnDemandComputeEndpoint,
  /**
   * One page of a project's storage integrations (page numbers start at 1). Describe Storage
   * Integration has no method: its answer names the credentials the service assumes.
   */
  listStorageIntegrations: listStorageIntegrationsEndpoint,
  /**
   * One page of the organization's API keys (page numbers start at 1): an Organization Owner
   * sees all. Never a secret, and nothing of a person (creator, description) is read.
   */
  listApiKeys: listApiKeysEndpoint,
  /**
   * v1, at the controller of a region: a project's pipelines (no paging; discontinued by the
   * service, so a controller may answer that it has none), and one pipeline by its ID.
   */
  listPipelines: listPipelinesEndpoint,
  describePipeline: describePipelineEndpoint,
} as const;

/** A cluster's own data plane, called by the data-plane client (dataPlane.ts), by name. */
export const DATA_PLANE = {
  listDatabases: listDatabasesEndpoint,
  listCollections: listCollectionsEndpoint,
  listCollectionsV1: listCollectionsV1Endpoint,
  getLoadState: getLoadStateEndpoint,
  getStats: getStatsEndpoint,
  listIndexes: listIndexesEndpoint,
  describeIndex: describeIndexEndpoint,
  /** A read-only canary's: a collection's vector fields, then one search or query (limit 1). */
  describeCollection: describeCollectionEndpoint,
  search: searchEndpoint,
  query: queryEndpoint,
} as const;

type ControlPlane = typeof CONTROL_PLANE;
type DataPlane = typeof DATA_PLANE;
// biome-ignore lint/suspicious/noExplicitAny: any declaration, whatever it reads and returns
type AnyDef = EndpointDef<any, any, any>;

/** The template of each declaration of `table`, by name. */
type TemplatesOf<T extends Record<string, AnyDef>> = { readonly [K in keyof T]: T[K]["endpoint"] };

function templatesOf<T extends Record<string, AnyDef>>(table: T): TemplatesOf<T> {
  return Object.fromEntries(
    Object.entries(table).map(([name, def]) => [name, def.endpoint]),
  ) as TemplatesOf<T>;
}

/** Every control-plane template, by the `CloudApi` method that calls it. */
export const ENDPOINT: TemplatesOf<ControlPlane> = Object.freeze(templatesOf(CONTROL_PLANE));

/** Every data-plane template (a cluster's own endpoint), by name. */
export const DATA_PLANE_ENDPOINT: TemplatesOf<DataPlane> = Object.freeze(templatesOf(DATA_PLANE));

/**
 * Endpoint identity used for rate limiting and self-metrics: the HTTP method and the path
 * template, e.g. "POST /v2/clusters/{id}/metrics/query". Never contains IDs or secrets.
 */
export type EndpointTemplate =
  | ControlPlane[keyof ControlPlane]["endpoint"]
  | DataPlane[keyof DataPlane]["endpoint"];

/** Every declaration, control plane first, in the order of the self-metrics' series. */
const EVERY: readonly (AnyDef & { readonly endpoint: EndpointTemplate })[] = [
  ...Object.values(CONTROL_PLANE),
  ...Object.values(DATA_PLANE),
];

/** Every endpoint template, in the order of the table: the self-metrics' endpoint label values. */
export const ENDPOINTS: readonly EndpointTemplate[] = EVERY.map((d) => d.endpoint);

/** The paged listings: each is read through the pager, and counts its paging errors. */
export const PAGED_ENDPOINTS: readonly EndpointTemplate[] = EVERY.filter((d) => d.paging !== "none").map(
  (d) => d.endpoint,
);

/**
 * The endpoints only shard 0 calls: the account-wide listings of the collectors that own the
 * account's global calls. Every other endpoint is called by every replica: per-cluster calls for
 * its own clusters, and the listings each replica needs whole (List Clusters for cluster discovery, List
 * Backups per credential).
 */
export const SHARD_ZERO_ENDPOINTS: ReadonlySet<EndpointTemplate> = new Set(
  EVERY.filter((d) => d.shardZero === true).map((d) => d.endpoint),
);

/**
 * The order of the polling schedule's rows (then by credential in order of first use); an endpoint the
 * order leaves out comes first.
 */
export const ENDPOINT_ORDER: readonly EndpointTemplate[] = EVERY.flatMap((d) =>
  d.planOrder === undefined ? [] : [{ endpoint: d.endpoint, order: d.planOrder }],
)
  .sort((a, b) => a.order - b.order)
  .map((d) => d.endpoint);

/** What the schedule says of an endpoint declared with other paths: the calls they may add. */
function otherPathsNote(d: (typeof EVERY)[number]): string | undefined {
  const [path, ...others] = d.paths;
  if (others.length === 0) return undefined;
  return `${d.endpoint}: where a server does not offer ${path}, the first call also asks ${others.join(" or ")}, and only the path that answered from then on (the others again where it stops answering)`;
}

/**
 * By endpoint: the note printed under the schedule while a task calls it: its run-time count,
 * then what its other paths may add (both from its declaration).
 */
export const RUN_TIME_COUNTS: ReadonlyMap<EndpointTemplate, string> = new Map(
  EVERY.flatMap((d) => {
    const notes = [d.runTimeCount, otherPathsNote(d)].filter((n) => n !== undefined);
    return notes.length === 0 ? [] : [[d.endpoint, notes.join("; ")] as const];
  }),
);

/** The client's method of one declaration: its arguments (none, or one value) and the signal. */
type MethodOf<E> =
  // biome-ignore lint/suspicious/noExplicitAny: the schema's type is the client's business only
  E extends EndpointDef<infer A, any, infer R, Template>
    ? [A] extends [undefined]
      ? (signal?: AbortSignal) => Promise<R>
      : (args: A, signal?: AbortSignal) => Promise<R>
    : never;

/**
 * The read-only client of the upstream API, one method per control-plane declaration. Every
 * method rejects with a `CloudError` subclass (see errors.ts), honours `signal`, and is rate
 * limited per endpoint.
 */
export type CloudApi = { [K in keyof ControlPlane]: MethodOf<ControlPlane[K]> };
