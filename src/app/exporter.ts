import type { Logger } from "pino";
import type { Dispatcher } from "undici";
import { ApiClients } from "../api-clients/apiClients.js";
import { COLLECTOR_LABELS, COLLECTORS } from "../collectors/registry.js";
import { loadJobIdsFile } from "../config/jobIdsFile.js";
import type { Shard } from "../config/shard.js";
import { loadSparkJobsFile } from "../config/sparkJobsFile.js";
import type { ClusterConfig, Config, SparkJobRef } from "../config/types.js";
import { type MetricsResponse, metricsResponse } from "../exposition/exposition.js";
import type { DeflatedHead } from "../exposition/gzipJoin.js";
import { type InternalErrorSite, SelfMetrics } from "../exposition/selfMetrics.js";
import { SampleStore } from "../exposition/store.js";
import type { LandingInfo } from "../http/landing.js";
import { byTarget } from "../http/landingRows.js";
import { familyFilter } from "../metrics/familyFilter.js";
import { CLUSTER_KINDS } from "../polling/clusterKinds.js";
import { credentialLabeler } from "../polling/credentials.js";
import { describeError } from "../polling/errors.js";
import { HealthTracker } from "../polling/health.js";
import type { CollectionsFound } from "../polling/model.js";
import { CollectorStates, type CollectorTask, tasksOf } from "../polling/model.js";
import type { PollContext } from "../polling/runtime.js";
import {
  configuredSparkJobs,
  replicaClusters,
  replicaJobIds,
  replicaSparkJobs,
  withCollectionScopes,
} from "../polling/targets.js";
import { type Clock, Scheduler, systemClock } from "../scheduler/scheduler.js";
import { ChangeLog } from "../shared/changeLog.js";
import { Foreground } from "../shared/foreground.js";
import type { CollectionRef } from "../upstream/dataPlane.js";
import type { ClusterDescription } from "../upstream/types.js";
import { NativeTargets, type NativeTargetsAnswer } from "./nativeTargets.js";
import { WatchedList } from "./watchedList.js";

export interface ExporterOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly version: string;
  readonly shard?: Shard;
  /** Injected for tests: clock for scheduling and the store, and an undici dispatcher. */
  readonly clock?: Clock;
  /**
   * The cloud clients' clock (rate-limit waits and pacing, retry backoff). Default: `clock`,
   * so one clock drives the exporter. Tests that step a manual `clock` keep real time here:
   * a client wait that starts after a step has ended (a retry after a failed answer, a paced
   * follow-up call) would otherwise hang until the test's next step.
   */
  readonly clientClock?: Clock;
  readonly dispatcher?: Dispatcher;
  readonly publishDelayMs?: number;
  /** How often expired series are swept. Default 5 s. */
  readonly sweepEveryMs?: number;
  /** How often the Spark jobs file and the job IDs file are checked for changes. Default 5 s. */
  readonly jobsFilePollMs?: number;
  readonly defaultMetrics?: boolean;
  /** Injected for tests: the store's compressor (to make a publish fail). */
  readonly compress?: (body: Buffer) => Promise<DeflatedHead>;
}

/**
 * The running exporter: owns the store, the self-metrics, the scheduler and one API client per
 * credential, and rebuilds the polling tasks when the configuration, the discovered clusters,
 * the Spark jobs file or the job IDs file change. Process-level concerns (argv, signals, listening) stay in main.
 */
export class Exporter {
  readonly store: SampleStore;
  readonly self: SelfMetrics;
  readonly health: HealthTracker;
  readonly scheduler: Scheduler;
  /** Scrapes being answered: the clients' work waits for them (shared/foreground.ts). */
  readonly foreground = new Foreground();
  private readonly logger: Logger;
  private readonly version: string;
  private readonly shard: Shard;
  private readonly clock: Clock;
  private readonly ctx: PollContext;
  private readonly state = new CollectorStates();
  private scheduled: readonly CollectorTask[] = [];
  private readonly clients: ApiClients;
  /** Per cluster: the collections its last collections poll kept (they become scopes). */
  private readonly collections = new Map<string, CollectionsFound>();
  private config: Config;
  private discovered: readonly ClusterDescription[] = [];
  private readonly sparkJobsFile: WatchedList<SparkJobRef>;
  private readonly jobIdsFile: WatchedList<string>;
  private readonly native: NativeTargets;
  private sweeper: NodeJS.Timeout | undefined;
  private readyFlag = false;
  private readonly startedAtMs: number;
  /** The clusters and credential labels of the last rebuild (the landing page's budget lines). */
  private polledClusters: readonly ClusterConfig[] = [];
  private credentialOf: (cluster: Pick<ClusterConfig, "apiKey">) => string = () => "default";
  /** The budget problems last logged, so each is logged once per change. */
  private readonly budgetLog = new ChangeLog<string>({ quiet: "" });
  /** Per cluster, the number of its collections beyond max_per_cluster last logged. */
  private readonly notPolledLog = new ChangeLog<number>({ quiet: 0 });

  constructor(private readonly opts: ExporterOptions) {
    this.config = opts.config;
    this.logger = opts.logger;
    this.version = opts.version;
    this.shard = opts.shard ?? { index: 0, total: 1 };
    this.clock = opts.clock ?? systemClock;
    const now = () => this.clock.now();
    this.startedAtMs = now();
    this.store = new SampleStore({
      now,
      ...(opts.publishDelayMs !== undefined ? { publishDelayMs: opts.publishDelayMs } : {}),
      ...(opts.compress !== undefined ? { compress: opts.compress } : {}),
      onError: (where, err) => this.internalError(where, err),
      turn: () => this.foreground.turn(),
    });
    this.self = new SelfMetrics({
      version: opts.version,
      collectors: COLLECTOR_LABELS,
      defaultMetrics: opts.defaultMetrics ?? true,
    });
    this.applyFamilyLists();
    this.self.shard(this.shard.index, this.shard.total);
    this.self.configLoaded(true, now());
    this.health = new HealthTracker(this.store, this.logger, now);
    this.scheduler = new Scheduler({ clock: this.clock, onSkip: (t) => this.self.skipped(t.collector) });
    this.ctx = { store: this.store, health: this.health, self: this.self, now, logger: this.logger };
    this.clients = new ApiClients({
      config: () => this.config,
      shard: this.shard,
      version: opts.version,
      observer: this.self,
      clock: opts.clientClock ?? this.clock,
      dispatcher: opts.dispatcher,
      turn: () => this.foreground.turn(),
      onCloseError: (err) => this.internalError("client_close", err),
    });
    this.native = new NativeTargets({
      config: () => this.config,
      clusters: () => replicaClusters(this.config, this.discovered, this.shard),
      known: this.state.get(CLUSTER_KINDS),
    });
    const listFile = { pollMs: opts.jobsFilePollMs ?? 5000, logger: this.logger };
    const onError = (err: unknown) => this.internalError("jobs_file", err);
    this.sparkJobsFile = new WatchedList({
      ...listFile,
      what: "spark jobs file",
      countField: "jobs",
      load: (path) => loadSparkJobsFile(path),
      onChange: () => this.rebuildTasks(),
      onError,
    });
    this.jobIdsFile = new WatchedList({
      ...listFile,
      what: "job IDs file",
      countField: "ids",
      load: (path) => loadJobIdsFile(path),
      onChange: () => this.rebuildTasks(),
      onError,
    });
  }

  /** Reads (and from now on watches) the list files the current config names. */
  private async followListFiles(): Promise<void> {
    await this.sparkJobsFile.follow(this.config.sparkJobs.jobsFile);
    await this.jobIdsFile.follow(this.config.jobs.idsFile);
  }

  /** Builds the tasks and starts polling. Ready once every task completed one run. */
  async start(): Promise<void> {
    await this.followListFiles();
    this.rebuildTasks();
    this.scheduler.start();
    this.sweeper = setInterval(() => {
      this.store.sweep();
      this.self.series(this.store.seriesCount());
    }, this.opts.sweepEveryMs ?? 5000);
    this.sweeper.unref();
    this.scheduler
      .firstCycle()
      .then(async () => {
        try {
          await this.store.publishNow();
        } catch (err) {
          // The samples are in the store; the next publish retries. Readiness means "polled once".
          this.internalError("publish", err);
        }
        this.self.series(this.store.seriesCount());
        if (!this.readyFlag)
          this.logger.info({ series: this.store.seriesCount() }, "first collection cycle complete");
        this.readyFlag = true;
      })
      .catch((err: unknown) => this.internalError("first_cycle", err));
  }

  /** Logs and counts a failure of background work; the exporter keeps serving. */
  private internalError(where: InternalErrorSite, err: unknown): void {
    this.self.internalError(where);
    this.logger.error({ where, err: describeError(err).message }, "background work failed");
  }

  /** Applies a new, already validated configuration. The previous one keeps running until then. */
  async applyConfig(config: Config): Promise<void> {
    this.config = config;
    await this.followListFiles();
    this.applyFamilyLists();
    this.rebuildTasks();
    // A reload may have fixed what failed permanently (a rotated key, a corrected cluster ID).
    this.scheduler.resetBackoff();
    this.self.configLoaded(true, this.clock.now());
  }

  /**
   * Applies the config's family lists where they cost nothing per scrape: the store leaves out
   * denied families as polls land (and drops the ones a reload newly denies at once), the
   * self-metrics unregister them; `tasksOf` then builds no task for a collector whose families
   * are all denied.
   */
  private applyFamilyLists(): void {
    const selection = familyFilter(this.config.families);
    this.store.setFamilySelection(selection);
    this.self.setFamilySelection(selection);
  }

  /** Records a rejected reload (the running configuration stays). */
  rejectedConfig(): void {
    this.self.configLoaded(false, this.clock.now());
  }

  /** The tasks the scheduler runs now (what `--check-config` prints the polling schedule of). */
  scheduledTasks(): readonly CollectorTask[] {
    return this.scheduled;
  }

  ready(): boolean {
    return this.readyFlag;
  }

  /** GET /sd/native-export: the natively served clusters of this replica, made ahead of requests. */
  nativeTargets(): NativeTargetsAnswer {
    return this.native.answer();
  }

  metrics(headers: {
    accept?: string | undefined;
    acceptEncoding?: string | undefined;
  }): Promise<MetricsResponse> {
    return metricsResponse(this.store, this.self, headers);
  }

  landing(): LandingInfo {
    const published = this.store.latest();
    return {
      version: this.version,
      startedAtMs: this.startedAtMs,
      nowMs: this.clock.now(),
      ready: this.readyFlag,
      series: this.store.seriesCount(),
      publishedAtMs: published.builtAtMs,
      shard: this.shard,
      targets: this.health.listScheduled(),
      budgets: this.clients.budgets().lines(this.polledClusters, this.credentialOf),
    };
  }

  async stop(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.native.close();
    this.sparkJobsFile.stop();
    this.jobIdsFile.stop();
    await this.scheduler.stop();
    this.store.close();
    await this.clients.closeAll();
  }

  /**
   * Every cluster this replica polls: configured ones, then discovered ones, in this shard, each
   * with its discovered collections as scopes when `collections.scopes` is on.
   */
  clusters(): ClusterConfig[] {
    const clusters = replicaClusters(this.config, this.discovered, this.shard);
    const cfg = this.config.collections;
    if (!cfg.enabled || !cfg.scopes) return clusters;
    const scopes = new Map<string, readonly CollectionRef[]>();
    for (const [id, found] of this.collections) scopes.set(id, found.polled);
    return withCollectionScopes(clusters, scopes, cfg.queries);
  }

  /**
   * A collections poll's result: the scopes change when the kept collections do (a vanished
   * collection's scope, and with it every series, goes at once); collections beyond
   * max_per_cluster are logged once per change of their number.
   */
  private onCollections(clusterId: string, found: CollectionsFound): void {
    const before = this.collections.get(clusterId);
    this.collections.set(clusterId, found);
    if (this.notPolledLog.changed(clusterId, found.notPolled) && found.notPolled > 0) {
      this.logger.warn(
        {
          cluster_id: clusterId,
          not_polled: found.notPolled,
          max_per_cluster: this.config.collections.maxPerCluster,
        },
        "collections beyond collections.max_per_cluster are not polled (sorted by name, the first are kept)",
      );
    }
    const paths = (f: CollectionsFound | undefined) =>
      (f?.polled ?? []).map((c) => `${c.dbName}/${c.collectionName}`).join("\n");
    if (this.config.collections.scopes && paths(before) !== paths(found)) {
      this.logger.info({ cluster_id: clusterId, collections: found.polled.length }, "collections changed");
      this.rebuildTasks();
    }
  }

  /** Rebuilds the task set from the current config, discovered clusters and jobs file. */
  private rebuildTasks(): void {
    const config = this.config;
    this.clients.retireStale(config);
    const polled = new Set(replicaClusters(config, this.discovered, this.shard).map((c) => c.id));
    for (const id of this.collections.keys()) {
      if (config.collections.enabled && polled.has(id)) continue;
      this.collections.delete(id);
      this.notPolledLog.forget(id);
    }
    const clusters = this.clusters();
    const credentialOf = credentialLabeler(config.api.apiKey, clusters);
    this.polledClusters = clusters;
    this.credentialOf = credentialOf;
    this.warnBudgetProblems();
    const tasks = tasksOf(COLLECTORS, {
      config,
      clusters,
      sparkJobs: replicaSparkJobs(config, this.sparkJobsFile.values, this.shard),
      configuredSparkJobs: configuredSparkJobs(config, this.sparkJobsFile.values),
      jobIds: replicaJobIds(config, this.jobIdsFile.values, this.shard),
      shard: this.shard,
      ctx: this.ctx,
      clients: {
        forCluster: this.clients.forCluster,
        credentialOf,
        rateOf: this.clients.rateOf,
        billing: this.clients.forBilling,
        dataPlane: this.clients.dataPlane,
      },
      state: this.state,
      onClustersDiscovered: (found) => this.onClustersDiscovered(found),
      onCollections: (clusterId, found) => this.onCollections(clusterId, found),
    });
    this.scheduled = tasks;
    // In the landing page's order, sorted once per rebuild rather than on each request.
    this.health.setScheduled(tasks.map((t) => t.id).sort(byTarget));
    this.health.setCredentials(tasks);
    this.scheduler.setTasks(tasks);
    this.forgetRemovedTargets(tasks);
    this.clients.closeUnused(config, clusters);
    this.native.refresh();
  }

  /** Logs, once per change, replicas sharing a key that cannot get a whole request each. */
  private warnBudgetProblems(): void {
    const problems = this.clients.budgets().problems;
    if (!this.budgetLog.changed("budgets", problems.join("\n"))) return;
    for (const problem of problems) this.logger.warn({ shard: this.shard }, problem);
  }

  private onClustersDiscovered(found: ClusterDescription[]): void {
    const before = new Set(this.discovered.map((c) => c.clusterId));
    const same = found.length === before.size && found.every((c) => before.has(c.clusterId));
    this.discovered = found;
    if (!same) {
      this.logger.info({ clusters: found.length }, "discovered clusters changed");
      this.rebuildTasks();
    }
  }

  /** Drops the samples and health of targets that are no longer polled. */
  private forgetRemovedTargets(tasks: readonly CollectorTask[]): void {
    const byCollector = new Map<string, Set<string>>(COLLECTOR_LABELS.map((label) => [label, new Set()]));
    for (const { id } of tasks) byCollector.get(id.collector)?.add(id.target);
    for (const [collector, keep] of byCollector) {
      this.health.retain(collector, keep);
      for (const target of this.store.targets(collector)) {
        if (!keep.has(target)) this.store.deleteTarget(collector, target);
      }
    }
  }
}
