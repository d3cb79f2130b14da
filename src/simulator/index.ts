/**
 * A deterministic fake of the upstream control-plane API for the demo, the tests and the
 * benchmarks. Production code reaches it only through main.ts's `--demo` (dynamic import).
 *
 * v2 endpoints live at `baseUrl`/v2/..., v1 endpoints at `controllerUrlTemplate` (with the
 * region) /v1/... and also at the root. /_sim/... holds the simulator's own controls.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateAlertRules } from "./alert-rules.js";
import { generateApiKeys, type SimApiKey } from "./api-keys.js";
import { createApp } from "./app.js";
import { type SimUsageRow, simInvoices, usageRows, type WireInvoice } from "./billing.js";
import { SimCanary } from "./canary.js";
import { CloudJobStore, generateCloudJobs } from "./cloud-jobs.js";
import type { SimAccount, SimContext } from "./context.js";
import { buildDataPlanes, dataPlaneAuthorized } from "./data-plane.js";
import { DataProtection } from "./data-protection.js";
import { type FaultController, Faults } from "./faults.js";
import { SIM_GROUPS, type SimGroupMember } from "./groups.js";
import { ImportJobStore, unfinishedImportJobs } from "./import-jobs.js";
import { Lifecycle } from "./lifecycle.js";
import { buildProfile } from "./metric-values.js";
import { NativeScrapeGuard } from "./native-guard.js";
import { generateOnDemandClusters } from "./on-demand.js";
import { generateOnDemandCompute } from "./on-demand-compute.js";
import { resolveOptions, type SimulatorOptions } from "./options.js";
import { generatePipelines, type SimPipeline } from "./pipelines.js";
import { generatePrivateEndpoints } from "./private-endpoints.js";
import { hexFromHash, mix } from "./random.js";
import { createRateLimiter } from "./rate-limiter.js";
import { generateSparkJobs, SparkJobStore } from "./spark-jobs.js";
import { busyClusterSparkJobs } from "./spark-listing.js";
import { type SimState, SimStateImpl } from "./state.js";
import { type SimStats, StatsRecorder } from "./stats.js";
import { generateStorageIntegrations } from "./storage-integrations.js";
import { generateWorld, type SimWorld } from "./world.js";

export type { WireAlertRule } from "./alert-rules.js";
export { SIM_OWN_KEY_NAME, type SimApiKey } from "./api-keys.js";
export type { SimUsageRow } from "./billing.js";
export type { SimCanary, SimCanaryOptions, SimCanaryProfile, SimVectorField } from "./canary.js";
export {
  BACKUP_PERMISSION_MESSAGE,
  OVERDUE_DAYS,
  SERVERLESS_CLUSTER_MESSAGE,
  type SimBackup,
  STUCK_CREATING_MS,
} from "./data-protection.js";
export { ApiCode, RATE_LIMIT_MESSAGE } from "./errors.js";
export type { FaultKind, FaultSpec } from "./faults.js";
export {
  FIRST_FORM_NAMES,
  type MetricCatalogMode,
  type MetricStatPolicy,
  SECOND_FORM_NAMES,
} from "./metric-catalog.js";
export type { SimOnDemandCluster } from "./on-demand.js";
export type { SimOnDemandCompute } from "./on-demand-compute.js";
export type { RequestDone, SimulatorOptions } from "./options.js";
export type { PipelineShape, PipelinesGone, SimPipeline } from "./pipelines.js";
export type { SimPrivateEndpoint } from "./private-endpoints.js";
export { ALL_QUIRKS } from "./quirks.js";
export { RATE_LIMIT_MODES, type RateLimitMode } from "./rate-limiter.js";
export {
  BROKEN_INTEGRATION_MESSAGE,
  type SimExternalCred,
  type SimStorageIntegration,
} from "./storage-integrations.js";

/** The billing data the simulator serves, for tests to compare with. */
interface SimBilling {
  /** Usage rows of the UTC days `start`..`end` (both included) at `nowMs` (default: now). */
  usageRows(start: string, end: string, nowMs?: number): SimUsageRow[];
  /** The invoices at `nowMs` (default: now), oldest first. */
  invoices(nowMs?: number): WireInvoice[];
}

/**
 * A running simulator: its world (SimWorld) and the account's data (SimAccount), and how to reach
 * and steer it.
 */
export interface Simulator extends SimWorld, SimAccount {
  /** e.g. http://127.0.0.1:PORT (v2 endpoints at /v2/...). */
  readonly baseUrl: string;
  /** e.g. http://127.0.0.1:PORT/ctl/{region}; v1 endpoints at <that, region filled>/v1/... */
  readonly controllerUrlTemplate: string;
  /** What the billing endpoints answer at a time (tests compare exported values with it). */
  readonly billing: SimBilling;
  /** SCIM groups and their members, by group ID (List Group Members). */
  readonly groups: ReadonlyMap<string, readonly SimGroupMember[]>;
  /**
   * The organization's API keys as List API Keys lists them, creators and descriptions included
   * (the one named SIM_OWN_KEY_NAME is the demo's own key).
   */
  readonly apiKeys: readonly SimApiKey[];
  /** Every project's pipelines (List Pipelines, Describe Pipeline), whatever shape they are answered in. */
  readonly pipelines: readonly SimPipeline[];
  readonly stats: SimStats;
  readonly faults: FaultController;
  readonly state: SimState;
  /** Stops listening, drops hung and slow requests, cancels timers. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a simulator and resolves once it listens. Rejects with `SimulatorError`
 * (INVALID_OPTION) on bad options, or with the listen error.
 */
export async function startSimulator(opts?: SimulatorOptions): Promise<Simulator> {
  const o = resolveOptions(opts);
  const startMs = o.now();
  const world = generateWorld({
    seed: o.seed,
    clusters: o.clusters,
    collectionsPerCluster: o.collectionsPerCluster,
    nowMs: startMs,
  });
  const spark = new SparkJobStore();
  for (const job of generateSparkJobs(world, o.seed, o.sparkJobsPerProject, startMs, o.timeScale))
    spark.add(job);
  const busy = world.clusters[0];
  if (busy !== undefined) {
    for (const job of busyClusterSparkJobs(
      world,
      o.seed,
      busy.id,
      o.busyClusterSparkJobs,
      startMs,
      o.timeScale,
    ))
      spark.add(job);
  }
  const imports = new ImportJobStore({
    seed: o.seed,
    perCluster: o.importJobsPerCluster,
    timeScale: o.timeScale,
    startMs,
  });
  if (o.unfinishedImports !== undefined) {
    const { every, perCluster } = o.unfinishedImports;
    for (const { clusterId, job } of unfinishedImportJobs(world.clusters, o.seed, every, perCluster))
      imports.add(clusterId, job);
  }
  const cloudJobs = new CloudJobStore();
  for (const job of generateCloudJobs(o.seed, startMs)) cloudJobs.add(job);
  const stats = new StatsRecorder(o.countDistinctRequests);
  const account: SimAccount = {
    canary: new SimCanary(world.clusters, o.seed, o.canary.paramsShape, o.canary.profiles),
    dataProtection: new DataProtection(world.clusters, startMs, o.globalClusters),
    onDemandClusters: generateOnDemandClusters(world, o.seed, startMs),
    onDemandCompute: generateOnDemandCompute(world, o.onDemandComputeAbnormal),
    alertRules: generateAlertRules(world, o.seed, o.alertRulesPerProject),
    privateEndpoints: generatePrivateEndpoints(
      world,
      o.seed,
      o.privateEndpointsPerProject,
      o.privateEndpointPending,
    ),
    storageIntegrations: generateStorageIntegrations(
      world,
      o.seed,
      o.storageIntegrationsPerProject,
      o.storageIntegrationError,
    ),
  };
  const ctx: SimContext = {
    seed: o.seed,
    now: o.now,
    timeScale: o.timeScale,
    listClustersShape: o.listClustersShape,
    rejectMixedMetricForms: o.rejectMixedMetricForms,
    metricCatalog: o.metricCatalog,
    metricStat: o.metricStat,
    metricRetentionMs: o.metricRetentionMs,
    maxMetricPoints: o.maxMetricPoints,
    quirks: o.quirks,
    world,
    clusterById: new Map(world.clusters.map((c) => [c.id, c])),
    profiles: new Map(world.clusters.map((c) => [c.id, buildProfile(o.seed, c)])),
    spark,
    cloudJobs,
    imports,
    dataPlanes: buildDataPlanes(world.clusters, {
      seed: o.seed,
      churnMs: o.collectionChurnMs,
      startMs,
      timeScale: o.timeScale,
    }),
    ...account,
    apiKeys: {
      keys: generateApiKeys(world, o.seed, startMs, { badCases: o.apiKeysBadCases, extra: o.apiKeysExtra }),
      shape: o.apiKeysShape,
      refused: o.apiKeysRefused,
      listers: o.apiKeysListers === undefined ? undefined : new Set(o.apiKeysListers),
      path: o.apiKeysPath,
    },
    pipelines: {
      pipelines: generatePipelines(world, o.seed, startMs, o.pipelineNotServing),
      shape: o.pipelineShape,
      gone: o.noPipelines,
    },
    retired: { retireV1: o.retireV1, removeV2ImportList: o.removeV2ImportList },
    nulledMetrics: new Set(),
    native: {
      orgId: `org-${hexFromHash(mix(o.seed, 0x0a9), 16)}`,
      sumAndCount: o.nativeHistogramSumCount,
      guard: new NativeScrapeGuard((clusterId) => stats.nativeScrapeRefused(clusterId)),
    },
    server: { baseUrl: "" },
  };
  const faults = new Faults(o.seed);
  const life = new Lifecycle();
  const app = createApp({
    ctx,
    stats,
    faults,
    limiter: createRateLimiter(o.rateLimitMode, o.rateLimitPerSecond, o.now),
    apiKeys: o.apiKeys === undefined ? undefined : new Set(o.apiKeys),
    backupDeniedKeys: new Set(o.backupDeniedKeys),
    billingKeys: o.billingKeys === undefined ? undefined : new Set(o.billingKeys),
    life,
    log: o.logger,
    onRequestDone: o.onRequestDone,
    dataPlaneAuthorized: (clusterId, key, apiKeyOk) =>
      dataPlaneAuthorized(ctx.dataPlanes, clusterId, key, apiKeyOk),
  });
  const server = createServer(app);
  if (opts?.logger) {
    server.on("request", (req, res) => {
      res.on("finish", () => o.logger(`${req.method} ${req.url} ${res.statusCode}`));
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(":") ? `[${o.host}]` : o.host;
  const baseUrl = `http://${host}:${port}`;
  ctx.server.baseUrl = baseUrl;
  for (const region of world.regions) region.domain = `${host}:${port}`;
  for (const cluster of world.clusters) cluster.connectAddress = `${baseUrl}/dp/${cluster.id}`;

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    controllerUrlTemplate: `${baseUrl}/ctl/{region}`,
    clusters: world.clusters,
    projects: world.projects,
    regions: world.regions,
    groups: SIM_GROUPS,
    ...account,
    pipelines: ctx.pipelines.pipelines,
    apiKeys: ctx.apiKeys.keys,
    billing: {
      usageRows: (start, end, nowMs = o.now()) => usageRows(o.seed, world.clusters, start, end, nowMs),
      invoices: (nowMs = o.now()) => simInvoices(o.seed, nowMs),
    },
    stats,
    faults,
    state: new SimStateImpl(ctx),
    close() {
      closing ??= new Promise<void>((resolve) => {
        life.shutdown();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
