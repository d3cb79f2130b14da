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

import type { ConfigSection } from "../config/section.js";
import type { Shard } from "../config/shard.js";
import type { ClusterConfig, Config, ScopeConfig } from "../config/types.js";
import { familyFilter } from "../metrics/familyFilter.js";
import type { FamilyDef } from "../metrics/sample.js";
import type { ScheduledTask } from "../scheduler/scheduler.js";
import type { DataPlaneApi } from "../upstream/dataPlane.js";
import type { CloudApi, ClusterDescription, EndpointTemplate } from "../upstream/types.js";
import type { PollContext } from "./runtime.js";
import type { ListedTargets, TargetList } from "./targetLists.js";
import type { TaskId } from "./taskId.js";

/**
 * Scopes a collector finds at run time for the cluster metrics to poll beside the configured
 * ones (the collections collector's per-collection scopes).
 */
export interface ScopeSource {
  /** What it found, by cluster ID, from its state; empty while it is off. */
  found(config: Config, state: CollectorStates): ReadonlyMap<string, readonly ScopeConfig[]>;
  /** The most it may find for one cluster, as stand-ins the polling schedule counts. */
  planned(config: Config): readonly ScopeConfig[];
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

/**
 * What a collector's part of the demo may use. The demo runs the simulator; a collector reads it
 * by the shape it declares (the framework never looks inside).
 */
export interface DemoWorld {
  /** The demo's simulator; undefined while the simulator's own options are chosen. */
  readonly simulator: unknown;
  /** `--demo` itself: every optional collector on. Tests run a smaller demo. */
  readonly full: boolean;
  /** What a scope of the demo carries besides its names (`{ queries }`), or nothing. */
  readonly scopeSettings: Readonly<Record<string, unknown>>;
  /** A key the full demo gives its last cluster, which one collector's simulator may refuse. */
  readonly restrictedKey: string;
}

/** A collector's part of the demo. */
export interface CollectorDemo {
  /** Its section of the demo's config (YAML-shaped), or undefined to leave the defaults. */
  readonly settings?: (world: DemoWorld) => Readonly<Record<string, unknown>> | undefined;
  /** Start options it adds to the demo's simulator (by the simulator's option names). */
  readonly simulator?: (world: DemoWorld) => Readonly<Record<string, unknown>>;
  /**
   * Keys it adds to the demo's `api` section (YAML-shaped: the ID of the demo's own key, which
   * only the simulator's world knows); the demo's URLs and key stay the demo's.
   */
  readonly api?: (world: DemoWorld) => Readonly<Record<string, unknown>>;
}

/** What a collector's schedule notes may read besides the config. */
export interface ScheduleView {
  /** The configured clusters this replica polls. */
  readonly clusters: readonly ClusterConfig[];
  /** Stand-ins counted for what cluster discovery would find. */
  readonly discovered: number;
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
   * The client of `section`'s own key (a `credential` section; its label is ownKeyCredential's):
   * the only one that section's endpoints are called with, and used for nothing else.
   */
  ownKey(section: ConfigSection): CloudApi;
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
  /** The targets the collectors' lists hold (config and followed file), of every shard and of this one. */
  readonly lists: ListedTargets;
  readonly shard: Shard;
  readonly ctx: PollContext;
  readonly clients: Clients;
  readonly state: CollectorStates;
  /** Cluster discovery hands every listing here; the exporter rebuilds the tasks when the set changed. */
  readonly onClustersDiscovered: (found: ClusterDescription[]) => void;
  /** A collector whose found scopes changed says so here; the exporter rebuilds the tasks. */
  readonly onScopesChanged: () => void;
}

/** A family as a collector declares it: a FamilyDef, or its name alone. */
type FamilyRef = string | { readonly name: string };

/**
 * One area of the metrics reference (docs/metrics.md): a title and the fixed families under it,
 * in the order they are listed. A collector declares the areas of its folder's families.
 */
export interface FamilyArea {
  readonly title: string;
  readonly families: Readonly<Record<string, FamilyDef>>;
}

const nameOf = (f: FamilyRef): string => (typeof f === "string" ? f : f.name);

/**
 * The families a collector's polls can write, for the config it runs with: a fixed list (its
 * folder's families), or a function of the config for a collector whose
 * families follow it (cluster metrics: the names of configured metrics outside the catalog).
 * The health families are not listed: the framework writes them, and they cannot be denied.
 */
type FamilyList = readonly FamilyRef[] | ((config: Config) => readonly FamilyRef[]);

/**
 * What `defineCollector` is told besides the name and tasks: `families`, every family its polls
 * can write (a test runs the collectors against the simulator and fails on a family missing
 * here; without it, the families of its `areas`), or `feedsOthers` for a collector that writes
 * none of its own but finds the targets the others poll (cluster discovery); `areas`, where its
 * folder's families stand in the metrics reference; and `label` when it reports under another
 * collector's name.
 */
type CollectorDeclaration<L extends string, S extends ConfigSection | undefined> = {
  readonly label?: L;
  readonly areas?: readonly FamilyArea[];
  /** Its section of the config file (collectors that share one name the same object). */
  readonly config?: S;
  /** The targets its section lists by hand, whose files the exporter follows. */
  readonly lists?: readonly TargetList<unknown>[];
  /** What `--check-config` says of it beside the rows (see `Collector.notes`). */
  readonly notes?: (config: Config, view: ScheduleView) => readonly string[];
  /** Scopes it finds for the cluster metrics. */
  readonly scopes?: ScopeSource;
  /** Its part of the demo: its section's settings and the simulator's options it needs. */
  readonly demo?: CollectorDemo;
  /** What it polls, in a line, for the landing page ("Query Cluster Metrics per cluster and scope"). */
  readonly polls: string;
} & (
  | { readonly families: FamilyList }
  | { readonly areas: readonly FamilyArea[] }
  // `families` of a collector that feeds others: what it reports of its own finding (a cap),
  // which never decides whether it runs.
  | { readonly feedsOthers: true; readonly families?: FamilyList }
);

/**
 * One collector. `name` is its registry name; `label` is the value of the `collector` label of
 * its self-metrics (cluster discovery reports under "inventory", as it always has).
 */
export interface Collector<
  N extends string = string,
  L extends string = string,
  S extends ConfigSection | undefined = ConfigSection | undefined,
> {
  readonly name: N;
  readonly label: L;
  /**
   * Every family its polls can write for `config`, by name; for a collector that feeds others,
   * only what it reports of its finding (cluster discovery's cap), which never decides whether it runs.
   */
  families(config: Config): readonly string[];
  /** Its folder's fixed families by reference area (empty for one whose families are another's). */
  readonly areas: readonly FamilyArea[];
  /** Its section of the config file, if it has one. */
  readonly config: S;
  /** The targets its section lists by hand (see targetLists.ts). */
  readonly lists: readonly TargetList<unknown>[];
  /**
   * What the polling schedule of `--check-config` says of it beside its rows, for `config`:
   * which calls are counted at a bound, which targets it leaves out and why.
   */
  notes(config: Config, view: ScheduleView): readonly string[];
  /** Scopes it finds for the cluster metrics, if it finds any. */
  readonly scopes: ScopeSource | undefined;
  /** Its part of the demo, if it has one. */
  readonly demo: CollectorDemo | undefined;
  /** What it polls, in a line (the landing page shows it beside the collector's label). */
  readonly polls: string;
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
export function defineCollector<
  const N extends string,
  const L extends string = N,
  S extends ConfigSection | undefined = undefined,
>(
  name: N,
  tasks: (env: CollectorEnv) => CollectorTask[],
  declaration: CollectorDeclaration<L, S>,
): Collector<N, L, S> {
  const label = (declaration.label ?? name) as L;
  const areas = declaration.areas ?? [];
  const list =
    "families" in declaration && declaration.families !== undefined
      ? declaration.families
      : areas.flatMap((a) => Object.values(a.families));
  const families =
    typeof list === "function" ? (config: Config) => list(config).map(nameOf) : () => list.map(nameOf);
  const feedsOthers = "feedsOthers" in declaration;
  const lists = declaration.lists ?? [];
  const notes = declaration.notes ?? (() => []);
  const { scopes, demo, polls } = declaration;
  // A collector without a section declares none: its `S` is `undefined`.
  const config = declaration.config as S;
  return { name, label, families, areas, config, lists, notes, scopes, demo, polls, feedsOthers, tasks };
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
