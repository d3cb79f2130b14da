/**
 * The simulator's shared, in-memory state: the world, the value profiles, the job stores and
 * the switches tests flip. Routes read it; `SimState` (state.ts) is the public way to change it.
 */

import type { WireAlertRule } from "./alert-rules.js";
import type { ApiKeyListing } from "./api-keys.js";
import type { SimCanary } from "./canary.js";
import type { CloudJobStore } from "./cloud-jobs.js";
import type { DataPlanes } from "./data-plane.js";
import type { DataProtection } from "./data-protection.js";
import type { ImportJobStore } from "./import-jobs.js";
import type { MetricCatalogMode, MetricStatPolicy } from "./metric-catalog.js";
import type { ClusterProfile } from "./metric-values.js";
import type { NativeExportOptions, NativeScrapeGuard } from "./native-guard.js";
import type { SimOnDemandCluster } from "./on-demand.js";
import type { SimOnDemandCompute } from "./on-demand-compute.js";
import type { SimPipelines } from "./pipelines.js";
import type { SimPrivateEndpoint } from "./private-endpoints.js";
import type { SimQuirks } from "./quirks.js";
import type { SparkJobStore } from "./spark-jobs.js";
import type { SimStorageIntegration } from "./storage-integrations.js";
import type { MutableSimCluster, World } from "./world.js";

/** Endpoints switched off, as a service that removed them would answer (HTTP 404). */
export interface RetiredEndpoints {
  /** The control plane's v1 endpoints (List Import Jobs v1, List Projects v1). */
  retireV1: boolean;
  /** List Import Jobs (V2). */
  removeV2ImportList: boolean;
}

/** Template of List Import Jobs (V2), the one V2 endpoint that can be removed. */
const V2_IMPORT_LIST = "POST /v2/vectordb/jobs/import/list";

/** True when `route` is switched off by `retired`. Data-plane routes are never retired here. */
export function isRetired(
  retired: RetiredEndpoints,
  route: { readonly version: 1 | 2; readonly template: string; readonly dataPlane?: boolean },
): boolean {
  if (route.dataPlane) return false;
  if (retired.retireV1 && route.version === 1) return true;
  return retired.removeV2ImportList && route.template === V2_IMPORT_LIST;
}

/**
 * The account's generated data that routes serve as it is and tests compare exported values
 * with: the context and the running simulator both hold it, as one object's fields.
 */
export interface SimAccount {
  /**
   * What the data planes answer a canary, and how degraded each is (canary.ts): tests degrade a
   * data plane (`setProfile`) or change a collection's vector field through it.
   */
  readonly canary: SimCanary;
  /** Backups, backup policies and global clusters (data-protection.ts). */
  readonly dataProtection: DataProtection;
  /** On-demand clusters of every project (List On-Demand Clusters, on-demand.ts). */
  readonly onDemandClusters: readonly SimOnDemandCluster[];
  /**
   * On-demand compute per project and region (Describe On-Demand Compute,
   * on-demand-compute.ts); SimState changes its status.
   */
  readonly onDemandCompute: readonly SimOnDemandCompute[];
  /** The console's alert rules as List Alert Rules sends them, actions included, by project ID. */
  readonly alertRules: ReadonlyMap<string, readonly WireAlertRule[]>;
  /** Every project's private endpoints (List Private Endpoints); SimState changes their statuses. */
  readonly privateEndpoints: readonly SimPrivateEndpoint[];
  /**
   * Every project's storage integrations with the credentials Describe would show (List Storage
   * Integrations); SimState changes their statuses and messages.
   */
  readonly storageIntegrations: readonly SimStorageIntegration[];
}

/** State shared by every route; built once by startSimulator. */
export interface SimContext extends SimAccount {
  readonly seed: number;
  readonly now: () => number;
  readonly timeScale: number;
  readonly listClustersShape: "array" | "object";
  readonly rejectMixedMetricForms: boolean;
  /** Which metric names Query Cluster Metrics accepts (metric-catalog.ts). */
  readonly metricCatalog: MetricCatalogMode;
  /** In the "current" catalog: what a stray `stat` gets (ignored or refused). */
  readonly metricStat: MetricStatPolicy;
  /** Buckets older than this (ms before now) are null. */
  readonly metricRetentionMs: number;
  /** Largest answer in points (buckets x queries); 0 = no limit. */
  readonly maxMetricPoints: number;
  /** Upstream behaviours switched on (quirks.ts). */
  readonly quirks: SimQuirks;
  readonly world: World;
  /** Every cluster by ID (clusters added or removed by `SimState` too). */
  readonly clusterById: Map<string, MutableSimCluster>;
  readonly profiles: Map<string, ClusterProfile>;
  readonly spark: SparkJobStore;
  /** Jobs of Describe Job (migrations, backups, restores, ...). */
  readonly cloudJobs: CloudJobStore;
  readonly imports: ImportJobStore;
  /** Each cluster's data plane (databases, collections, credentials). */
  readonly dataPlanes: DataPlanes;
  /** The organization's API keys, people's fields included, and how they are listed (api-keys.ts). */
  readonly apiKeys: ApiKeyListing;
  /** Every project's pipelines in each region of its clusters, and how they are answered (pipelines.ts). */
  readonly pipelines: SimPipelines;
  /** Endpoints that answer as removed ones (test switches). */
  readonly retired: RetiredEndpoints;
  /** Metrics forced all-null, keyed by `nulledKey`. */
  readonly nulledMetrics: Set<string>;
  /** The service's own Prometheus endpoint (native-export.ts): its org, options and scrape guard. */
  readonly native: NativeExportOptions & { readonly guard: NativeScrapeGuard };
  /** Where the simulator listens: its base URL, known once it listens (a cluster's data plane is under it). */
  readonly server: { baseUrl: string };
}

/** Key of a (cluster, metric name) pair in `SimContext.nulledMetrics`. */
export function nulledKey(clusterId: string, metricName: string): string {
  return `${clusterId}\u0000${metricName}`;
}
