/**
 * Test hooks: drive job states, cluster status and metric gaps of a running simulator.
 */
import { CLOUD_JOB_STATUSES, type CloudJobStatus, cloudJobView, type WireCloudJob } from "./cloud-jobs.js";
import { nulledKey, type RetiredEndpoints, type SimContext } from "./context.js";
import { collectionKey, collectionsAt, type SimDataCollection } from "./data-plane.js";
import { SimulatorError } from "./errors.js";
import type { ImportJobDetail, ImportProgressOverride, WireImportJob } from "./import-jobs.js";
import { indexView, pinnedIndex, type SetIndexInput, type SimIndex, type SimIndexView } from "./indexes.js";
import { FIRST_FORM_NAMES, SECOND_FORM_NAMES } from "./metric-catalog.js";
import { heldCompute } from "./on-demand-compute.js";
import { hexFromHash, mix } from "./random.js";
import {
  SPARK_STATUSES,
  type SparkJobRef,
  type SparkStatus,
  sparkJobView,
  type WireSparkJob,
} from "./spark-jobs.js";
import type {
  AddCloudJobInput,
  AddCollectionInput,
  AddImportJobInput,
  AddSparkJobInput,
  CloudJobRef,
} from "./state-inputs.js";
import type { MutableSimCluster } from "./world.js";
import { type AddClusterInput, addSimCluster, removeSimCluster } from "./world-changes.js";

/** Test hooks of a running simulator; changes apply to the next request. */
export interface SimState {
  /** Every Spark job, e.g. for the demo's `spark_jobs.jobs` configuration. */
  readonly sparkJobRefs: readonly SparkJobRef[];
  /** The Spark jobs of the option busyClusterSparkJobs (a config leaves them to discovery). */
  readonly busySparkJobRefs: readonly SparkJobRef[];
  /** The current Describe Spark Job payload. Throws UNKNOWN_JOB. */
  sparkJob(projectId: string, jobId: string): WireSparkJob;
  /** Adds a Spark job and returns its reference. Throws DUPLICATE_JOB or UNKNOWN_CLUSTER. */
  addSparkJob(input: AddSparkJobInput): SparkJobRef;
  /** Pins a job's status from now on, with consistent timestamps. Throws UNKNOWN_JOB. */
  setSparkJobStatus(projectId: string, jobId: string, status: SparkStatus): void;
  /** Every job of Describe Job (generated: a migration, a backup, a failing restore). */
  readonly cloudJobRefs: readonly CloudJobRef[];
  /** The current Describe Job payload. Throws UNKNOWN_JOB. */
  cloudJob(jobId: string): WireCloudJob;
  /** Adds a job of Describe Job and returns its reference. Throws DUPLICATE_JOB. */
  addCloudJob(input: AddCloudJobInput): CloudJobRef;
  /** Pins a job's status (and progress) from now on. Throws UNKNOWN_JOB or INVALID_OPTION. */
  setCloudJobStatus(jobId: string, status: CloudJobStatus, progress?: number): void;
  /** The current import job listing of a cluster (all pages). Throws UNKNOWN_CLUSTER. */
  importJobs(clusterId: string): WireImportJob[];
  /** Adds an import job and returns its ID. Throws UNKNOWN_CLUSTER. */
  addImportJob(clusterId: string, input?: AddImportJobInput): string;
  /** Fixes the state of an import job (added or generated). Throws UNKNOWN_CLUSTER or UNKNOWN_JOB. */
  setImportJobState(clusterId: string, jobId: string, state: string): void;
  /** The current listing with each job's progress (what Get Import Job Progress answers). */
  importJobDetails(clusterId: string): ImportJobDetail[];
  /** Pins an import job's progress, rows or failure reason. Throws UNKNOWN_CLUSTER or UNKNOWN_JOB. */
  setImportJobProgress(clusterId: string, jobId: string, progress: ImportProgressOverride): void;
  /** Which endpoints answer as removed ones now. */
  readonly retired: Readonly<RetiredEndpoints>;
  /** Retires (or brings back) the v1 endpoints and/or List Import Jobs (V2). */
  setRetired(switches: Partial<RetiredEndpoints>): void;
  /** Sets a cluster's status (any string). Throws UNKNOWN_CLUSTER. */
  setClusterStatus(clusterId: string, status: string): void;
  /** Sets an on-demand cluster's status (any string). Throws UNKNOWN_CLUSTER. */
  setOnDemandClusterStatus(clusterId: string, status: string): void;
  /** Sets the on-demand compute status of a held project and region (any string). Throws UNKNOWN_PROJECT. */
  setOnDemandComputeStatus(projectId: string, regionId: string, status: string): void;
  /**
   * Sets a private endpoint's status and, when given, its endpoint service's (any strings).
   * Throws UNKNOWN_PRIVATE_ENDPOINT.
   */
  setPrivateEndpointStatus(endpointId: string, endpointStatus: string, serviceStatus?: string): void;
  /**
   * Sets a storage integration's status and message (any strings; "" for no message). Throws
   * UNKNOWN_STORAGE_INTEGRATION.
   */
  setStorageIntegrationStatus(integrationId: string, status: string, message: string): void;
  /** The credential a cluster's data plane takes instead of the API key, if any. */
  dataPlaneCredential(clusterId: string): string | undefined;
  /** The collections of a cluster's data plane now (every database). Throws UNKNOWN_CLUSTER. */
  dataCollections(clusterId: string): SimDataCollection[];
  /** Adds (or replaces) a collection of a cluster's data plane. Throws UNKNOWN_CLUSTER. */
  addCollection(clusterId: string, c: AddCollectionInput): void;
  /** Drops a collection from a cluster's data plane (nothing if absent). Throws UNKNOWN_CLUSTER. */
  dropCollection(clusterId: string, dbName: string, collectionName: string): void;
  /**
   * What Describe Index answers now for every index of the cluster's collections (every
   * database), with the collection it belongs to. Throws UNKNOWN_CLUSTER.
   */
  dataIndexes(
    clusterId: string,
  ): Array<SimIndexView & { readonly dbName: string; readonly collectionName: string }>;
  /** Adds (or replaces) an index of a collection, pinned to what `index` says. Throws UNKNOWN_CLUSTER. */
  setIndex(clusterId: string, dbName: string, collectionName: string, index: SetIndexInput): void;
  /** Makes every bucket of one metric of one cluster null (or undoes it). Throws UNKNOWN_*. */
  setMetricNull(clusterId: string, metricName: string, allNull?: boolean): void;
  /**
   * Adds a cluster, created a day ago, with its metrics, collections and data plane (no backups,
   * jobs or backup policy), listed by List Clusters from now on; returns its ID. Throws
   * INVALID_OPTION for an ID in use.
   */
  addCluster(input?: AddClusterInput): string;
  /** Removes a cluster: Describe Cluster answers "not found" and List Clusters leaves it out. Throws UNKNOWN_CLUSTER. */
  removeCluster(clusterId: string): void;
}

const KNOWN_METRICS = new Set([...FIRST_FORM_NAMES, ...SECOND_FORM_NAMES]);

/** The `SimState` implementation over the shared context. */
export class SimStateImpl implements SimState {
  readonly #ctx: SimContext;
  #added = 0;

  constructor(ctx: SimContext) {
    this.#ctx = ctx;
  }

  dataPlaneCredential(clusterId: string): string | undefined {
    this.#cluster(clusterId);
    return this.#ctx.dataPlanes.userCredentials.get(clusterId);
  }

  dataCollections(clusterId: string): SimDataCollection[] {
    this.#cluster(clusterId);
    return collectionsAt(this.#ctx.dataPlanes, this.#ctx.world.clusters, clusterId, this.#ctx.now()).map(
      (c) => ({ ...c }),
    );
  }

  addCollection(clusterId: string, c: AddCollectionInput): void {
    this.#cluster(clusterId);
    const loadState = c.loadState ?? "LoadStateLoaded";
    this.#ctx.dataPlanes.collections.get(clusterId)?.set(collectionKey(c.dbName, c.collectionName), {
      dbName: c.dbName,
      collectionName: c.collectionName,
      loadState,
      loadProgress: c.loadProgress ?? (loadState === "LoadStateLoaded" ? 100 : 0),
      rows: c.rows ?? 0,
    });
  }

  dropCollection(clusterId: string, dbName: string, collectionName: string): void {
    this.#cluster(clusterId);
    this.#ctx.dataPlanes.collections.get(clusterId)?.delete(collectionKey(dbName, collectionName));
  }

  dataIndexes(clusterId: string) {
    const planes = this.#ctx.dataPlanes;
    const byKey = planes.indexes.get(this.#cluster(clusterId).id);
    return this.dataCollections(clusterId).flatMap((c) =>
      (byKey?.get(collectionKey(c.dbName, c.collectionName)) ?? []).map((index) => ({
        dbName: c.dbName,
        collectionName: c.collectionName,
        ...indexView(index, c.rows, this.#ctx.now(), planes.timeScale),
      })),
    );
  }

  setIndex(clusterId: string, dbName: string, collectionName: string, input: SetIndexInput): void {
    this.#cluster(clusterId);
    const key = collectionKey(dbName, collectionName);
    const rows = this.#ctx.dataPlanes.collections.get(clusterId)?.get(key)?.rows ?? 0;
    const byKey = this.#ctx.dataPlanes.indexes.get(clusterId) ?? new Map<string, SimIndex[]>();
    this.#ctx.dataPlanes.indexes.set(clusterId, byKey);
    const pinned = pinnedIndex(input, rows);
    const known = byKey.get(key) ?? [];
    byKey.set(
      key,
      known.some((i) => i.indexName === input.indexName)
        ? known.map((i) => (i.indexName === input.indexName ? pinned : i))
        : [...known, pinned],
    );
  }

  get sparkJobRefs(): readonly SparkJobRef[] {
    return this.#ctx.spark.refs();
  }

  get busySparkJobRefs(): readonly SparkJobRef[] {
    return this.#ctx.spark.refs(true);
  }

  #cluster(clusterId: string): MutableSimCluster {
    const cluster = this.#ctx.clusterById.get(clusterId);
    if (!cluster) throw new SimulatorError("UNKNOWN_CLUSTER", `unknown cluster: ${clusterId}`);
    return cluster;
  }

  #nextId(prefix: string, length: number): string {
    this.#added++;
    return `${prefix}${hexFromHash(mix(this.#ctx.seed ^ 0xadd, this.#added), length)}`;
  }

  sparkJob(projectId: string, jobId: string): WireSparkJob {
    const spec = this.#ctx.spark.get(projectId, jobId);
    if (!spec) throw new SimulatorError("UNKNOWN_JOB", `unknown Spark job: ${projectId}/${jobId}`);
    return sparkJobView(spec, this.#ctx.now(), this.#ctx.timeScale);
  }

  addSparkJob(input: AddSparkJobInput): SparkJobRef {
    const cluster = input.clusterId === undefined ? undefined : this.#cluster(input.clusterId);
    const jobId = input.jobId ?? this.#nextId("job-", 20);
    const collection = cluster?.collections[0];
    const now = this.#ctx.now();
    const ok = this.#ctx.spark.add({
      projectId: input.projectId,
      jobId,
      regionId: cluster?.regionId ?? this.#ctx.world.regions[0]?.regionId ?? "aws-us-west-2",
      clusterId: cluster?.id ?? null,
      scenario: input.scenario ?? "succeeded",
      createdAtMs: input.createdAtMs ?? now,
      description: input.description ?? "backfill added by a test",
      dbName: collection?.dbName ?? "default",
      collectionName: collection?.collectionName ?? "docs",
      volumeName: "vol-test",
      ...(input.status === undefined ? {} : { pinned: { status: input.status, atMs: now } }),
    });
    if (!ok) throw new SimulatorError("DUPLICATE_JOB", `Spark job exists: ${input.projectId}/${jobId}`);
    return { projectId: input.projectId, jobId };
  }

  setSparkJobStatus(projectId: string, jobId: string, status: SparkStatus): void {
    const spec = this.#ctx.spark.get(projectId, jobId);
    if (!spec) throw new SimulatorError("UNKNOWN_JOB", `unknown Spark job: ${projectId}/${jobId}`);
    if (!SPARK_STATUSES.includes(status)) {
      throw new SimulatorError("INVALID_OPTION", `unknown Spark status: ${String(status)}`);
    }
    spec.pinned = { status, atMs: this.#ctx.now() };
  }

  get cloudJobRefs(): readonly CloudJobRef[] {
    return this.#ctx.cloudJobs.list().map((j) => ({ jobId: j.jobId, type: j.type }));
  }

  cloudJob(jobId: string): WireCloudJob {
    const spec = this.#ctx.cloudJobs.get(jobId);
    if (!spec) throw new SimulatorError("UNKNOWN_JOB", `unknown job: ${jobId}`);
    return cloudJobView(spec, this.#ctx.now(), this.#ctx.timeScale);
  }

  addCloudJob(input: AddCloudJobInput): CloudJobRef {
    const jobId = input.jobId ?? this.#nextId("job-", 22);
    const ok = this.#ctx.cloudJobs.add({
      jobId,
      type: input.type,
      createdAtMs: this.#ctx.now(),
      pendingS: input.pendingS ?? 20,
      runS: input.runS ?? 300,
      ...(input.failure === undefined ? {} : { failure: input.failure }),
    });
    if (!ok) throw new SimulatorError("DUPLICATE_JOB", `job exists: ${jobId}`);
    return { jobId, type: input.type };
  }

  setCloudJobStatus(jobId: string, status: CloudJobStatus, progress?: number): void {
    const spec = this.#ctx.cloudJobs.get(jobId);
    if (!spec) throw new SimulatorError("UNKNOWN_JOB", `unknown job: ${jobId}`);
    if (!CLOUD_JOB_STATUSES.includes(status)) {
      throw new SimulatorError("INVALID_OPTION", `unknown job status: ${String(status)}`);
    }
    const now = this.#ctx.now();
    const current = Number(cloudJobView(spec, now, this.#ctx.timeScale).progress);
    spec.pinned = { status, atMs: now, progress: progress ?? (status === "SUCCESSFUL" ? 100 : current) };
  }

  importJobs(clusterId: string): WireImportJob[] {
    return this.#ctx.imports.list(this.#cluster(clusterId), this.#ctx.now());
  }

  addImportJob(clusterId: string, input: AddImportJobInput = {}): string {
    const cluster = this.#cluster(clusterId);
    const jobId = input.jobId ?? this.#nextId("job-", 22);
    this.#ctx.imports.add(cluster.id, {
      jobId,
      collectionName: input.collectionName ?? cluster.collections[0]?.collectionName ?? "docs",
      state: input.state ?? "ImportPending",
    });
    return jobId;
  }

  setImportJobState(clusterId: string, jobId: string, state: string): void {
    const cluster = this.#cluster(clusterId);
    const listed = this.#ctx.imports.list(cluster, this.#ctx.now()).some((j) => j.jobId === jobId);
    if (!listed)
      throw new SimulatorError("UNKNOWN_JOB", `import job ${jobId} is not listed for ${clusterId}`);
    this.#ctx.imports.setState(cluster.id, jobId, state);
  }

  setClusterStatus(clusterId: string, status: string): void {
    this.#cluster(clusterId).status = status;
  }

  setOnDemandClusterStatus(clusterId: string, status: string): void {
    const cluster = this.#ctx.onDemandClusters.find((c) => c.clusterId === clusterId);
    if (!cluster) throw new SimulatorError("UNKNOWN_CLUSTER", `unknown on-demand cluster ${clusterId}`);
    cluster.status = status;
  }

  setOnDemandComputeStatus(projectId: string, regionId: string, status: string): void {
    heldCompute(this.#ctx.onDemandCompute, projectId, regionId).status = status;
  }

  setPrivateEndpointStatus(endpointId: string, endpointStatus: string, serviceStatus?: string): void {
    const endpoint = this.#ctx.privateEndpoints.find((e) => e.endpointId === endpointId);
    if (!endpoint)
      throw new SimulatorError("UNKNOWN_PRIVATE_ENDPOINT", `unknown private endpoint ${endpointId}`);
    endpoint.endpointStatus = endpointStatus;
    if (serviceStatus !== undefined) endpoint.endpointServiceStatus = serviceStatus;
  }

  setStorageIntegrationStatus(integrationId: string, status: string, message: string): void {
    const found = this.#ctx.storageIntegrations.find((s) => s.integrationId === integrationId);
    if (!found) {
      throw new SimulatorError("UNKNOWN_STORAGE_INTEGRATION", `unknown storage integration ${integrationId}`);
    }
    found.status = status;
    found.message = message;
  }

  importJobDetails(clusterId: string): ImportJobDetail[] {
    return this.#ctx.imports.details(this.#cluster(clusterId), this.#ctx.now());
  }

  setImportJobProgress(clusterId: string, jobId: string, progress: ImportProgressOverride): void {
    const cluster = this.#cluster(clusterId);
    if (this.#ctx.imports.detail(cluster, jobId, this.#ctx.now()) === undefined)
      throw new SimulatorError("UNKNOWN_JOB", `import job ${jobId} is not listed for ${clusterId}`);
    this.#ctx.imports.setProgress(cluster.id, jobId, progress);
  }

  get retired(): Readonly<RetiredEndpoints> {
    return { ...this.#ctx.retired };
  }

  setRetired(switches: Partial<RetiredEndpoints>): void {
    if (switches.retireV1 !== undefined) this.#ctx.retired.retireV1 = switches.retireV1;
    if (switches.removeV2ImportList !== undefined)
      this.#ctx.retired.removeV2ImportList = switches.removeV2ImportList;
  }

  addCluster(input: AddClusterInput = {}): string {
    const id = input.id ?? this.#nextId("in01-", 16);
    if (this.#ctx.clusterById.has(id)) throw new SimulatorError("INVALID_OPTION", `cluster exists: ${id}`);
    addSimCluster(this.#ctx, id, input);
    return id;
  }

  removeCluster(clusterId: string): void {
    removeSimCluster(this.#ctx, this.#cluster(clusterId));
  }

  setMetricNull(clusterId: string, metricName: string, allNull = true): void {
    this.#cluster(clusterId);
    if (!KNOWN_METRICS.has(metricName))
      throw new SimulatorError("UNKNOWN_METRIC", `unknown metric: ${metricName}`);
    const key = nulledKey(clusterId, metricName);
    if (allNull) this.#ctx.nulledMetrics.add(key);
    else this.#ctx.nulledMetrics.delete(key);
  }
}
