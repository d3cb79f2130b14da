/**
 * What the simulator's test hooks (state.ts) take: the jobs and collections a test adds, with
 * the defaults each leaves to the simulator.
 */
import type { CloudJobType } from "./cloud-jobs.js";
import type { SparkScenario, SparkStatus } from "./spark-jobs.js";

/** A Spark job to add. Defaults: a generated ID, scenario "succeeded", created now. */
export interface AddSparkJobInput {
  readonly projectId: string;
  readonly jobId?: string;
  readonly scenario?: SparkScenario;
  readonly createdAtMs?: number;
  /** A cluster of the world; its region becomes the job's region. */
  readonly clusterId?: string;
  readonly description?: string;
  /** Pins this status at once (as setSparkJobStatus would). */
  readonly status?: SparkStatus;
}

/** A job of Describe Job, as the exporter's `jobs.ids` names it. */
export interface CloudJobRef {
  readonly jobId: string;
  readonly type: CloudJobType;
}

/**
 * A job of Describe Job to add. Defaults: a generated ID, created now, 20 simulated seconds
 * pending, 300 running, successful.
 */
export interface AddCloudJobInput {
  readonly type: CloudJobType;
  readonly jobId?: string;
  readonly pendingS?: number;
  readonly runS?: number;
  /** Fails at `atPercent` with `reason` instead of succeeding. */
  readonly failure?: { readonly reason: string; readonly atPercent: number };
}

/** An import job to add at the top of a cluster's listing. Defaults: generated ID, ImportPending. */
export interface AddImportJobInput {
  readonly jobId?: string;
  readonly collectionName?: string;
  /** Any string: unknown states are allowed on purpose (clients must cope). */
  readonly state?: string;
}

/** A collection to add to a data plane. Defaults: loaded, 0 rows. */
export interface AddCollectionInput {
  readonly dbName: string;
  readonly collectionName: string;
  readonly loadState?: string;
  readonly loadProgress?: number;
  readonly rows?: number;
}
