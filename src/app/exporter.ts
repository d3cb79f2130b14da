import type { Logger } from "pino";
import type { Dispatcher } from "undici";
import { ApiClients } from "../api-clients/apiClients.js";
import { COLLECTOR_LABELS, COLLECTOR_POLLS, COLLECTORS, TARGET_LISTS } from "../collectors/registry.js";
import type { Shard } from "../config/shard.js";
import type { ClusterConfig, Config } from "../config/types.js";
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
import { CollectorStates, type CollectorTask, tasksOf } from "../polling/model.js";
import type { PollContext } from "../polling/runtime.js";
import { listedTargets, type TargetList } from "../polling/targetLists.js";
import { foundScopes, replicaClusters, withFoundScopes } from "../polling/targets.js";
import { type Clock, Scheduler, systemClock } from "../scheduler/scheduler.js";
import { ChangeLog } from "../shared/changeLog.js";
import { Foreground } from "../shared/foreground.js";
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
  private config: Config;
  private discovered: readonly ClusterDescription[] = [];
  /** The file of each list of targets the collectors declare, followed while the config names it. */
  private readonly listFiles: ReadonlyMap<TargetList<unknown>, WatchedList<unknown>>;
  private readonly native: NativeTargets;
  private sweeper: NodeJS.Timeout | undefined;
  private readyFlag = false;
  private readonly startedAtMs: number;
  /** The clusters and credential labels of the last rebuild (the landing page's budget lines). */
  private polledClusters: readonly ClusterConfig[] = [];
  private credentialOf: (cluster: Pick<ClusterConfig, "apiKey">) => string = () => "default";
  /** The budget problems last logged, so each is logged once per change. */
  private readonly budgetLog = new ChangeLog<string>({ quiet: "" });

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
    this.listFiles = new Map(
      TARGET_LISTS.map((list) => [
        list,
        new WatchedList<unknown>({
          ...listFile,
          what: list.fileName,
          countField: list.countField,
          load: (path) => list.load(path),
          onChange: () => this.rebuildTasks(),
          onError,
        }),
      ]),
    );
  }

  /** Reads (and from now on watches) the list files the current config names. */
  private async followListFiles(): Promise<void> {
    for (const [list, file] of this.listFiles) await file.follow(list.file(this.config));
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
      collectors: COLLECTOR_POLLS,
      budgets: this.clients.budgets().lines(this.polledClusters, this.credentialOf),
    };
  }

  async stop(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.native.close();
    for (const file of this.listFiles.values()) file.stop();
    await this.scheduler.stop();
    this.store.close();
    await this.clients.closeAll();
  }

  /**
   * Every cluster this replica polls: configured ones, then discovered ones, in this shard, each
   * with the scopes collectors found for it (per-collection scopes) after its configured ones.
   */
  clusters(): ClusterConfig[] {
    const clusters = replicaClusters(this.config, this.discovered, this.shard);
    return withFoundScopes(clusters, foundScopes(COLLECTORS, this.config, this.state));
  }

  /** Rebuilds the task set from the current config, discovered clusters and jobs file. */
  private rebuildTasks(): void {
    const config = this.config;
    this.clients.retireStale(config);
    const clusters = this.clusters();
    const credentialOf = credentialLabeler(config.api.apiKey, clusters);
    this.polledClusters = clusters;
    this.credentialOf = credentialOf;
    this.warnBudgetProblems();
    const tasks = tasksOf(COLLECTORS, {
      config,
      clusters,
      lists: listedTargets(
        config,
        new Map([...this.listFiles].map(([list, file]) => [list, file.values])),
        this.shard,
      ),
      shard: this.shard,
      ctx: this.ctx,
      clients: {
        forCluster: this.clients.forCluster,
        credentialOf,
        rateOf: this.clients.rateOf,
        ownKey: this.clients.ownKey,
        dataPlane: this.clients.dataPlane,
      },
      state: this.state,
      onClustersDiscovered: (found) => this.onClustersDiscovered(found),
      onScopesChanged: () => this.rebuildTasks(),
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
