/**
 * The tasks the polling schedule of `--check-config` is read from: the very tasks the exporter would run on
 * this replica, built with stand-in clients that are never called.
 */
import type { Shard } from "../config/shard.js";
import type { ClusterConfig, Config } from "../config/types.js";
import type { DataPlaneApi } from "../upstream/dataPlane.js";
import type { CloudApi } from "../upstream/types.js";
import { replicaBudgets } from "./budgets.js";
import { credentialLabeler } from "./credentials.js";
import { type Collector, type CollectorEnv, CollectorStates, type CollectorTask, tasksOf } from "./model.js";
import type { PollContext } from "./runtime.js";
import { type ListFiles, listedTargets, type TargetList } from "./targetLists.js";
import { replicaClusters, withFoundScopes } from "./targets.js";

/** What a schedule is for: this replica's shard, clusters that cluster discovery would add, the list files' items. */
export interface ScheduleOptions {
  readonly shard?: Shard;
  readonly discoveredClusters?: number;
  /** What was read of each list's file; a list without an entry: its file was not read. */
  readonly files?: ListFiles;
}

/** One list's targets on this replica, for the schedule's target lines. */
export interface ListedOnReplica {
  readonly list: TargetList<unknown>;
  readonly items: readonly unknown[];
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
  readonly listed: ListedOnReplica[];
} {
  const shard = opts.shard ?? { index: 0, total: 1 };
  const configured = replicaClusters(config, [], shard);
  const discovered = Array.from(
    { length: opts.discoveredClusters ?? 0 },
    (_, i): ClusterConfig => ({ id: `discovered-${i + 1}`, region: "discovered", scopes: [] }),
  );
  const clusters = [...configured, ...discovered];
  const lists = listedTargets(config, opts.files ?? new Map(), shard);
  const declared = [...new Set(collectors.flatMap((c) => c.lists))];
  const listed = declared.map((list) => ({ list, items: lists.mine(list) }));
  const env: CollectorEnv = {
    config,
    clusters: withPlannedScopes(collectors, config, clusters),
    lists,
    shard,
    ctx: NO_CONTEXT,
    clients: {
      forCluster: () => NO_CLIENT,
      credentialOf: credentialLabeler(config.api.apiKey, clusters),
      rateOf: replicaBudgets(config, shard).rateOf,
      ownKey: () => NO_CLIENT,
      dataPlane: () => NO_DATA_PLANE,
    },
    state: new CollectorStates(),
    onClustersDiscovered: () => {},
    onScopesChanged: () => {},
  };
  return { tasks: tasksOf(collectors, env), env, clusters: configured, listed };
}

/**
 * Found scopes are only known at run time: the schedule counts the most each collector may find,
 * its planned stand-ins for every cluster, so the metric calls are those at the cap.
 */
function withPlannedScopes(
  collectors: readonly Collector[],
  config: Config,
  clusters: readonly ClusterConfig[],
): ClusterConfig[] {
  const planned = collectors.flatMap((c) => c.scopes?.planned(config) ?? []);
  return withFoundScopes(clusters, new Map(clusters.map((c) => [c.id, planned])));
}
