/**
 * The tasks the polling schedule of `--check-config` is read from: the very tasks the exporter would run on
 * this replica, built with stand-in clients that are never called.
 */
import type { Shard } from "../config/shard.js";
import type { ClusterConfig, Config, SparkJobRef } from "../config/types.js";
import type { DataPlaneApi } from "../upstream/dataPlane.js";
import type { CloudApi } from "../upstream/types.js";
import { replicaBudgets } from "./budgets.js";
import { credentialLabeler } from "./credentials.js";
import { type Collector, type CollectorEnv, CollectorStates, type CollectorTask, tasksOf } from "./model.js";
import type { PollContext } from "./runtime.js";
import {
  configuredSparkJobs,
  replicaClusters,
  replicaJobIds,
  replicaSparkJobs,
  withCollectionScopes,
} from "./targets.js";

/** What a schedule is for: this replica's shard, clusters that cluster discovery would add, the jobs file's jobs. */
export interface ScheduleOptions {
  readonly shard?: Shard;
  readonly discoveredClusters?: number;
  readonly fileJobs?: readonly SparkJobRef[];
  /** The job IDs of `jobs.ids_file`. */
  readonly fileJobIds?: readonly string[];
}

/** A stand-in client: the schedule builds tasks but never runs them. */
const NO_CLIENT = new Proxy({} as CloudApi, {
  get: () => () => Promise.reject(new Error("schedule only: no upstream calls")),
});

/** A stand-in data-plane client: the schedule never calls it. */
const NO_DATA_PLANE = new Proxy({} as DataPlaneApi, {
  get: () => () => Promise.reject(new Error("schedule only: no data-plane calls")),
});

/** A stand-in poll context: the schedule never runs a task, so nothing is written. */
const NO_CONTEXT = new Proxy({} as PollContext, {
  get: () => {
    throw new Error("schedule only: no poll context");
  },
});

/**
 * The tasks `collectors` would run on this replica: configured clusters and Spark jobs of its
 * shard (plus the jobs file's, when given), `discoveredClusters` stand-ins for what cluster discovery
 * would find, and the credentials as the exporter labels them.
 */
export function scheduledTasks(
  collectors: readonly Collector[],
  config: Config,
  opts: ScheduleOptions,
): {
  readonly tasks: CollectorTask[];
  readonly env: CollectorEnv;
  readonly clusters: ClusterConfig[];
  readonly sparkJobs: SparkJobRef[];
  readonly jobIds: string[];
} {
  const shard = opts.shard ?? { index: 0, total: 1 };
  const configured = replicaClusters(config, [], shard);
  const discovered = Array.from(
    { length: opts.discoveredClusters ?? 0 },
    (_, i): ClusterConfig => ({ id: `discovered-${i + 1}`, region: "discovered", scopes: [] }),
  );
  const clusters = [...configured, ...discovered];
  const sparkJobs = replicaSparkJobs(config, opts.fileJobs ?? [], shard);
  const jobIds = replicaJobIds(config, opts.fileJobIds ?? [], shard);
  const env: CollectorEnv = {
    config,
    clusters: withDiscoveredCollections(config, clusters),
    sparkJobs,
    configuredSparkJobs: configuredSparkJobs(config, opts.fileJobs ?? []),
    jobIds,
    shard,
    ctx: NO_CONTEXT,
    clients: {
      forCluster: () => NO_CLIENT,
      credentialOf: credentialLabeler(config.api.apiKey, clusters),
      rateOf: replicaBudgets(config, shard).rateOf,
      billing: () => NO_CLIENT,
      dataPlane: () => NO_DATA_PLANE,
    },
    state: new CollectorStates(),
    onClustersDiscovered: () => {},
    onCollections: () => {},
  };
  return { tasks: tasksOf(collectors, env), env, clusters: configured, sparkJobs, jobIds };
}

/**
 * Collections discovery finds its scopes at run time: the schedule counts the most it may poll,
 * `max_per_cluster` stand-in scopes per cluster, so the metric calls are those at the cap.
 */
function withDiscoveredCollections(config: Config, clusters: readonly ClusterConfig[]): ClusterConfig[] {
  const cfg = config.collections;
  if (!cfg.enabled || !cfg.scopes) return [...clusters];
  const standIns = Array.from({ length: cfg.maxPerCluster }, (_, i) => ({
    dbName: "discovered",
    collectionName: `collection-${i + 1}`,
  }));
  return withCollectionScopes(clusters, new Map(clusters.map((c) => [c.id, standIns])), cfg.queries);
}
