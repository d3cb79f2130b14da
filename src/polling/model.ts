/**
 * What a collector is: a named builder of polling tasks. Each collector lives in its own folder
 * under src/collectors (its task builder in tasks.ts, its pure mapping to samples in
 * mapping.ts, any state it keeps across polls beside them) and is listed once in registry.ts.
 * This framework (model, runtime, targets, health, schedule) names no collector: a collector
 * declares its own state with `stateSlot` and reads it from `CollectorEnv.state`, and the
 * families it writes with `defineCollector`, so that `families.allow` / `families.deny` can
 * spare every call of a collector whose families are all denied.
 * The scheduler runs the tasks; `--check-config` prints a polling schedule computed from the very same
 * tasks, so the two cannot disagree.
 */

import type { Shard } from "../config/shard.js";
import type { ClusterConfig, Config, SparkJobRef } from "../config/types.js";
import { familyFilter } from "../metrics/familyFilter.js";
import type { ScheduledTask } from "../scheduler/scheduler.js";
import type { CollectionRef, DataPlaneApi } from "../upstream/dataPlane.js";
import type { CloudApi, ClusterDescription, EndpointTemplate } from "../upstream/types.js";
import type { PollContext } from "./runtime.js";
import type { TaskId } from "./taskId.js";

/** A cluster's collections as its collections collector found them: they become metric scopes. */
export interface CollectionsFound {
  /** The collections polled (after include/exclude and max_per_cluster), each a scope. */
  readonly polled: readonly CollectionRef[];
  /** Listed collections beyond max_per_cluster. */
  readonly notPolled: number;
}

/** Upstream calls one run of a task makes on one endpoint. */
export interface CallEstimate {
  readonly endpoint: EndpointTemplate;
  readonly count: number;
  /** More calls are possible (extra pages). */
  readonly atLeast: boolean;
}

/** A scheduled task with what the polling schedule needs to know about it. */
export interface CollectorTask extends ScheduledTask {
  readonly id: TaskId;
  /** Label of the credential its client uses ("default", "cluster key #1"), never the key. */
  readonly credential: string;
  readonly calls: readonly CallEstimate[];
  /**
   * The cluster whose metrics the service's own Prometheus endpoint can serve instead of this
   * task's Query Cluster Metrics calls (native_export): `--check-config` counts them as saved for
   * a cluster the config lists by ID. Absent for every other task.
   */
  readonly nativeCluster?: string;
}

/** One kind of state a collector keeps across polls and reloads, declared by that collector. */
export interface StateSlot<S> {
  /** For messages only; the slot object itself is the key. */
  readonly name: string;
  readonly create: () => S;
}

/** Declares a state slot; `create` makes its state on first use. */
export function stateSlot<S>(name: string, create: () => S): StateSlot<S> {
  return { name, create };
}

/**
 * The collectors' states, one per process (owned by the exporter, it survives reloads). Each
 * slot's state is made on first use and then the same object is returned for that slot.
 */
export class CollectorStates {
  readonly #states = new Map<StateSlot<unknown>, unknown>();

  get<S>(slot: StateSlot<S>): S {
    if (!this.#states.has(slot)) this.#states.set(slot, slot.create());
    return this.#states.get(slot) as S;
  }
}

/** The API clients of the exporter, one per credential. */
interface Clients {
  forCluster(cluster: Pick<ClusterConfig, "apiKey">): CloudApi;
  /** The credential's label: clusters sharing a key share a label and a rate budget. */
  credentialOf(cluster: Pick<ClusterConfig, "apiKey">): string;
  /**
   * Requests per second this replica may send on `endpoint` with the cluster's credential: its
   * share of `api.rate_limit` when replicas share the key (polling/budgets.ts).
   */
  rateOf(cluster: Pick<ClusterConfig, "apiKey">, endpoint: EndpointTemplate): number;
  /**
   * The client of the billing key (credential "billing"): the only one billing endpoints are
   * called with, and used for nothing else.
   */
  billing(): CloudApi;
  /**
   * The data-plane client of a cluster's endpoint, with its `dataPlaneToken` (else its API
   * key, else the default key); one per endpoint and credential, each with its own budget.
   */
  dataPlane(endpoint: string, cluster: Pick<ClusterConfig, "apiKey" | "dataPlaneToken">): DataPlaneApi;
}

/** Everything a task builder may use. The same environment serves the runtime and the polling schedule. */
export interface CollectorEnv {
  readonly config: Config;
  /** The clusters this replica polls: configured and discovered, already filtered by shard. */
  readonly clusters: readonly ClusterConfig[];
  /** The Spark jobs this replica polls (config and jobs file), already filtered by shard. */
  readonly sparkJobs: readonly SparkJobRef[];
  /**
   * Every configured Spark job (config and jobs file) of every shard: Spark job discovery leaves
   * these to their own task, so that no job is polled or exposed twice.
   */
  readonly configuredSparkJobs: readonly SparkJobRef[];
  /** The job IDs this replica polls (jobs.ids and jobs.ids_file), already filtered by shard. */
  readonly jobIds: readonly string[];
  readonly shard: Shard;
  readonly ctx: PollContext;
  readonly clients: Clients;
  readonly state: CollectorStates;
  /** Cluster discovery hands every listing here; the exporter rebuilds the tasks when the set changed. */
  readonly onClustersDiscovered: (found: ClusterDescription[]) => void;
  /** The collections collector hands each cluster's polled collections here (they become scopes). */
  readonly onCollections: (clusterId: string, found: CollectionsFound) => void;
}

/** A family as a collector declares it: a FamilyDef of metrics/families.ts, or its name alone. */
type FamilyRef = string | { readonly name: string };

const nameOf = (f: FamilyRef): string => (typeof f === "string" ? f : f.name);

/**
 * The families a collector's polls can write, for the config it runs with: a fixed list (the
 * family groups of metrics/families.ts), or a function of the config for a collector whose
 * families follow it (cluster metrics: the names of configured metrics outside the catalog).
 * The health families are not listed: the framework writes them, and they cannot be denied.
 */
type FamilyList = readonly FamilyRef[] | ((config: Config) => readonly FamilyRef[]);

/**
 * What `defineCollector` is told besides the name and tasks: `families`, every family its polls
 * can write (a test runs the collectors against the simulator and fails on a family missing
 * here), or `feedsOthers` for a collector that writes none of its own but finds the targets the
 * others poll (cluster discovery); and `label` when it reports under another collector's name.
 */
type CollectorDeclaration<L extends string> = { readonly label?: L } & (
  | { readonly families: FamilyList }
  // `families` of a collector that feeds others: what it reports of its own finding (a cap),
  // which never decides whether it runs.
  | { readonly feedsOthers: true; readonly families?: FamilyList }
);

/**
 * One collector. `name` is its registry name; `label` is the value of the `collector` label of
 * its self-metrics (cluster discovery reports under "inventory", as it always has).
 */
export interface Collector<N extends string = string, L extends string = string> {
  readonly name: N;
  readonly label: L;
  /**
   * Every family its polls can write for `config`, by name; for a collector that feeds others,
   * only what it reports of its finding (cluster discovery's cap), which never decides whether it runs.
   */
  families(config: Config): readonly string[];
  /**
   * It writes no family of its own but finds the targets the others poll (cluster discovery): it runs
   * while any collector that writes families runs, and makes no call once none does.
   */
  readonly feedsOthers: boolean;
  tasks(env: CollectorEnv): CollectorTask[];
}

/**
 * Declares a collector; its self-metrics `collector` label is its name unless `label` says
 * otherwise (a collector that reports as another one, as cluster discovery reports as inventory).
 * The literal name and label are kept, so the registry can type both.
 */
export function defineCollector<const N extends string, const L extends string = N>(
  name: N,
  tasks: (env: CollectorEnv) => CollectorTask[],
  declaration: CollectorDeclaration<L>,
): Collector<N, L> {
  const label = (declaration.label ?? name) as L;
  const list = declaration.families ?? [];
  const families =
    typeof list === "function" ? (config: Config) => list(config).map(nameOf) : () => list.map(nameOf);
  return { name, label, families, feedsOthers: "feedsOthers" in declaration, tasks };
}

/** Which collectors run under a config's family lists. */
export interface CollectorSelection {
  /** The collectors whose tasks are built, in their order. */
  readonly running: readonly Collector[];
  /**
   * Those that make no upstream call: every family they write is denied (or, for a collector
   * that feeds others, no collector that writes families runs).
   */
  readonly silenced: readonly Collector[];
}

/**
 * Splits `collectors` by `config.families`: a collector runs while one family it declares is
 * exposed; one that feeds others (cluster discovery) runs while any of those runs. Without a rule in
 * either list every collector runs.
 */
export function selectCollectors(collectors: readonly Collector[], config: Config): CollectorSelection {
  const filter = familyFilter(config.families);
  if (filter.everything) return { running: collectors, silenced: [] };
  const writes = new Set(
    collectors.filter((c) => !c.feedsOthers && c.families(config).some((name) => filter.exposes(name))),
  );
  const runs = (c: Collector): boolean => (c.feedsOthers ? writes.size > 0 : writes.has(c));
  return { running: collectors.filter(runs), silenced: collectors.filter((c) => !runs(c)) };
}

/** Every task of the collectors that run under `env.config`'s family lists, in their order. */
export function tasksOf(collectors: readonly Collector[], env: CollectorEnv): CollectorTask[] {
  return selectCollectors(collectors, env.config).running.flatMap((c) => c.tasks(env));
}

/** The scheduler's key of a task: stable across reloads, and the input of its slot hash. */
function taskKey(id: TaskId): string {
  return `${id.collector}/${id.target}`;
}

/** Builds a CollectorTask (the scheduler's `key` and `collector` follow from `id`). */
export function collectorTask(fields: Omit<CollectorTask, "key" | "collector">): CollectorTask {
  return { ...fields, key: taskKey(fields.id), collector: fields.id.collector };
}
