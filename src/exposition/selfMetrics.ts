import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from "prom-client";
import { PROCESS_SELF_FAMILIES as F, PROCESS_SELF_HISTOGRAMS as H } from "../metrics/families.js";
import { DROP_REASONS, type DropReason } from "../metrics/sample.js";
import {
  type CallOutcome,
  type ClientObserver,
  ENDPOINTS,
  type EndpointTemplate,
  OUTCOMES,
  PAGED_ENDPOINTS,
  PAGING_ERROR_REASONS,
  type PagingErrorReason,
} from "../upstream/types.js";
import { textToOpenMetrics } from "./openMetrics.js";

/** Where background work can fail; each is a `where` label value of vdbcloud_internal_errors_total. */
export const INTERNAL_ERROR_SITES = ["publish", "first_cycle", "jobs_file", "client_close"] as const;
export type InternalErrorSite = (typeof INTERNAL_ERROR_SITES)[number];

/** Which families are rendered: the config's family lists (metrics/familyFilter.ts). */
interface FamilySelection {
  exposes(name: string): boolean;
}

/** A registered metric and its family name. */
interface Named {
  readonly name: string;
  readonly metric: Metric;
}

/**
 * prom-client's default gauges whose names end in `_total` (promtool: "non-counter metrics
 * should not have _total suffix"); not exposed. docs/metrics.md says so.
 */
export const DROPPED_PROCESS_METRICS: readonly string[] = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
];

/** Every metric of `registry`, in registration order. */
function metricsOf(registry: Registry): Named[] {
  return registry.getMetricsAsArray().flatMap(({ name }) => {
    const metric = registry.getSingleMetric(name);
    return metric === undefined ? [] : [{ name, metric }];
  });
}

/** Registers in `registry` those of `metrics` that `selection` exposes, in their order, and no other. */
function keepOnly(registry: Registry, metrics: readonly Named[], selection: FamilySelection): void {
  registry.clear();
  for (const { name, metric } of metrics) if (selection.exposes(name)) registry.registerMetric(metric);
}

/** How long one rendering of the process metrics is served (well under any scrape interval). */
export const PROCESS_RENDER_TTL_MS = 1000;

/** The names of the self-metric histograms (declared in metrics/families.ts). */
export const HISTOGRAM_FAMILIES = Object.values(H).map((h) => h.name);

/**
 * The exporter's own fixed-cardinality metrics, kept in prom-client (label sets are bounded by
 * the constants above). Per-target health lives in the sample store instead, because its
 * cardinality grows with the targets. Implements `ClientObserver`, so the cloud client can
 * report to it without knowing of Prometheus.
 */
export class SelfMetrics implements ClientObserver {
  private readonly registry = new Registry();
  /**
   * prom-client's default process and Node.js metrics, apart: collecting them costs more than
   * all of our own families together, and they are samples of the process anyway, so their
   * rendering is reused for up to PROCESS_RENDER_TTL_MS across scrapes.
   */
  private readonly processRegistry: Registry | null;
  private processCache: ProcessRendering | null = null;
  /**
   * Bumped by every change of an own metric (all of them go through the methods below), so a
   * rendering is redone only when something changed: rendering the same lines through
   * prom-client at every scrape was most of a gzip scrape's cost (docs/performance.md).
   */
  private changes = 0;
  private ownCache: OwnRendering | null = null;
  private readonly lastOut: [Rendered | null, Rendered | null] = [null, null];
  private readonly now: () => number;
  private readonly apiRequests: Counter<"endpoint" | "outcome">;
  private readonly apiDuration: Histogram<"endpoint">;
  private readonly apiRetries: Counter<"endpoint">;
  private readonly apiRateLimited: Counter<"endpoint">;
  private readonly apiSchemaErrors: Counter<"endpoint">;
  private readonly apiInvalidIds: Counter<"endpoint">;
  /** Endpoints whose invalid-ID series exists already. */
  private readonly invalidIdEndpoints = new Set<string>();
  private readonly apiPagingErrors: Counter<"endpoint" | "reason">;
  private readonly samplesDropped: Counter<"reason">;
  private readonly collectorDuration: Histogram<"collector">;
  private readonly skippedRuns: Counter<"collector">;
  private readonly internalErrors: Counter<"where">;
  private readonly reloadSuccessful: Gauge;
  private readonly reloadTimestamp: Gauge;
  private readonly shardOrdinal: Gauge;
  private readonly totalShards: Gauge;
  private readonly seriesGauge: Gauge;
  private seriesValue: number | undefined;
  /** Every metric of each registry, denied or not: a change of the family lists may bring one back. */
  private readonly ownMetrics: readonly Named[];
  private readonly processMetrics: readonly Named[];

  /** `now` (monotonic milliseconds) times the process-metrics reuse; tests inject it. */
  /**
   * `collectors` are the values of the `collector` label (from the collector registry): their
   * series exist at 0 from the start.
   */
  constructor(opts: {
    version: string;
    collectors?: readonly string[];
    defaultMetrics?: boolean;
    now?: () => number;
  }) {
    this.now = opts.now ?? (() => performance.now());
    const registers = [this.registry];
    this.apiRequests = new Counter({
      name: F.apiRequests.name,
      help: F.apiRequests.help,
      labelNames: ["endpoint", "outcome"],
      registers,
    });
    this.apiDuration = new Histogram({
      name: H.apiDuration.name,
      help: H.apiDuration.help,
      labelNames: ["endpoint"],
      buckets: [...H.apiDuration.buckets],
      registers,
    });
    this.apiRetries = new Counter({
      name: F.apiRetries.name,
      help: F.apiRetries.help,
      labelNames: ["endpoint"],
      registers,
    });
    this.apiRateLimited = new Counter({
      name: F.apiRateLimited.name,
      help: F.apiRateLimited.help,
      labelNames: ["endpoint"],
      registers,
    });
    this.apiInvalidIds = new Counter({
      name: F.apiInvalidIds.name,
      help: F.apiInvalidIds.help,
      labelNames: ["endpoint"],
      registers,
    });
    this.apiSchemaErrors = new Counter({
      name: F.apiSchemaErrors.name,
      help: F.apiSchemaErrors.help,
      labelNames: ["endpoint"],
      registers,
    });
    this.apiPagingErrors = new Counter({
      name: F.apiPagingErrors.name,
      help: F.apiPagingErrors.help,
      labelNames: ["endpoint", "reason"],
      registers,
    });
    this.samplesDropped = new Counter({
      name: F.samplesDropped.name,
      help: F.samplesDropped.help,
      labelNames: ["reason"],
      registers,
    });
    this.collectorDuration = new Histogram({
      name: H.collectorDuration.name,
      help: H.collectorDuration.help,
      labelNames: ["collector"],
      buckets: [...H.collectorDuration.buckets],
      registers,
    });
    this.skippedRuns = new Counter({
      name: F.schedulerSkippedRuns.name,
      help: F.schedulerSkippedRuns.help,
      labelNames: ["collector"],
      registers,
    });
    this.internalErrors = new Counter({
      name: F.internalErrors.name,
      help: F.internalErrors.help,
      labelNames: ["where"],
      registers,
    });
    this.reloadSuccessful = new Gauge({
      name: F.configLastReloadSuccessful.name,
      help: F.configLastReloadSuccessful.help,
      registers,
    });
    this.reloadTimestamp = new Gauge({
      name: F.configLastReloadSuccessTimestamp.name,
      help: F.configLastReloadSuccessTimestamp.help,
      registers,
    });
    this.shardOrdinal = new Gauge({
      name: F.shardOrdinal.name,
      help: F.shardOrdinal.help,
      registers,
    });
    this.totalShards = new Gauge({
      name: F.totalShards.name,
      help: F.totalShards.help,
      registers,
    });
    this.seriesGauge = new Gauge({
      name: F.exporterSeries.name,
      help: F.exporterSeries.help,
      registers,
    });
    new Gauge({
      name: F.buildInfo.name,
      help: F.buildInfo.help,
      labelNames: ["version", "nodejs_version"],
      registers,
    })
      .labels({ version: opts.version, nodejs_version: process.version })
      .set(1);

    for (const endpoint of ENDPOINTS) {
      for (const outcome of OUTCOMES) this.apiRequests.inc({ endpoint, outcome }, 0);
      this.apiRetries.inc({ endpoint }, 0);
      this.apiRateLimited.inc({ endpoint }, 0);
      this.apiSchemaErrors.inc({ endpoint }, 0);
      this.apiDuration.zero({ endpoint });
    }
    for (const endpoint of PAGED_ENDPOINTS) {
      for (const reason of PAGING_ERROR_REASONS) this.apiPagingErrors.inc({ endpoint, reason }, 0);
    }
    for (const reason of DROP_REASONS) this.samplesDropped.inc({ reason }, 0);
    for (const where of INTERNAL_ERROR_SITES) this.internalErrors.inc({ where }, 0);
    for (const collector of opts.collectors ?? []) {
      this.skippedRuns.inc({ collector }, 0);
      this.collectorDuration.zero({ collector });
    }
    this.processRegistry = opts.defaultMetrics === false ? null : new Registry();
    if (this.processRegistry) {
      collectDefaultMetrics({ register: this.processRegistry });
      // Gauges named like counters fail `promtool check metrics`; each is the sum over `type` of
      // the same family without `_total` (nodejs_active_handles{type}), which stays.
      for (const name of DROPPED_PROCESS_METRICS) this.processRegistry.removeSingleMetric(name);
    }
    this.ownMetrics = metricsOf(this.registry);
    this.processMetrics = this.processRegistry ? metricsOf(this.processRegistry) : [];
  }

  /** The name of every family it can render: its own, then the process's (prom-client's). */
  familyNames(): string[] {
    return [...this.ownMetrics, ...this.processMetrics].map((m) => m.name);
  }

  /**
   * Renders from now on only the families `selection` exposes (the config's family lists): the
   * denied metrics leave the registries, so a scrape renders nothing it would then drop. They
   * keep counting, and show their totals again if a later selection admits them.
   */
  setFamilySelection(selection: FamilySelection): void {
    keepOnly(this.registry, this.ownMetrics, selection);
    if (this.processRegistry) keepOnly(this.processRegistry, this.processMetrics, selection);
    this.changes++;
    this.processCache = null;
  }

  attempt(endpoint: EndpointTemplate, outcome: CallOutcome, durationSeconds: number): void {
    this.changes++;
    this.apiRequests.inc({ endpoint, outcome });
    this.apiDuration.observe({ endpoint }, durationSeconds);
  }
  retry(endpoint: EndpointTemplate): void {
    this.changes++;
    this.apiRetries.inc({ endpoint });
  }
  rateLimited(endpoint: EndpointTemplate): void {
    this.changes++;
    this.apiRateLimited.inc({ endpoint });
  }
  schemaError(endpoint: EndpointTemplate): void {
    this.changes++;
    this.apiSchemaErrors.inc({ endpoint });
  }
  /** `count` items of a listing dropped for an ID that fails the ID rule (0: the series starts). */
  invalidIds(endpoint: EndpointTemplate, count: number): void {
    if (count < 0) return;
    if (count > 0 || !this.invalidIdEndpoints.has(endpoint)) this.changes++;
    this.invalidIdEndpoints.add(endpoint);
    this.apiInvalidIds.inc({ endpoint }, count);
  }
  /** A listing's pages did not add up (the pager's PagingError). */
  pagingError(endpoint: EndpointTemplate, reason: PagingErrorReason): void {
    this.changes++;
    this.apiPagingErrors.inc({ endpoint, reason });
  }
  dropped(counts: Partial<Record<DropReason, number>>): void {
    for (const [reason, n] of Object.entries(counts)) {
      if (!n) continue;
      this.changes++;
      this.samplesDropped.inc({ reason }, n);
    }
  }
  collectorRun(collector: string, seconds: number): void {
    this.changes++;
    this.collectorDuration.observe({ collector }, seconds);
  }
  internalError(where: InternalErrorSite): void {
    this.changes++;
    this.internalErrors.inc({ where });
  }
  skipped(collector: string): void {
    this.changes++;
    this.skippedRuns.inc({ collector });
  }
  configLoaded(ok: boolean, atMs: number): void {
    this.changes++;
    this.reloadSuccessful.set(ok ? 1 : 0);
    if (ok) this.reloadTimestamp.set(atMs / 1000);
  }
  shard(index: number, total: number): void {
    this.changes++;
    this.shardOrdinal.set(index);
    this.totalShards.set(total);
  }
  series(n: number): void {
    // Set every few seconds, mostly to the same value: only a new value is a change.
    if (n === this.seriesValue) return;
    this.seriesValue = n;
    this.changes++;
    this.seriesGauge.set(n);
  }

  /**
   * Renders the self-metrics as UTF-8; OpenMetrics output has no `# EOF` (the caller ends the
   * body). The same Buffer comes back for as long as nothing changed (see ScrapeTimeMetrics).
   */
  async render(openMetrics: boolean): Promise<Buffer> {
    const own = await this.renderOwn();
    const proc = await this.renderProcess();
    const slot = openMetrics ? 1 : 0;
    const last = this.lastOut[slot];
    if (last !== null && last.own === own && last.proc === proc) return last.bytes;
    if (openMetrics) own.openMetrics ??= textToOpenMetrics(own.text);
    const text = openMetrics ? `${own.openMetrics}${proc.openMetrics}` : own.text + proc.text;
    const bytes = Buffer.from(text, "utf8");
    this.lastOut[slot] = { own, proc, bytes };
    return bytes;
  }

  private async renderOwn(): Promise<OwnRendering> {
    if (this.ownCache !== null && this.ownCache.changes === this.changes) return this.ownCache;
    // Taken before rendering: a change made while it awaits makes the next scrape render again.
    const changes = this.changes;
    const text = await this.registry.metrics();
    this.ownCache = { changes, text, openMetrics: undefined };
    return this.ownCache;
  }

  private async renderProcess(): Promise<ProcessRendering> {
    if (!this.processRegistry) return NO_PROCESS_METRICS;
    const now = this.now();
    if (this.processCache && now - this.processCache.atMs < PROCESS_RENDER_TTL_MS) return this.processCache;
    const text = await this.processRegistry.metrics();
    this.processCache = { atMs: now, text, openMetrics: textToOpenMetrics(text) };
    return this.processCache;
  }
}

interface ProcessRendering {
  readonly atMs: number;
  readonly text: string;
  readonly openMetrics: string;
}

const NO_PROCESS_METRICS: ProcessRendering = { atMs: 0, text: "", openMetrics: "" };

/** The own families' text as of `changes`; their OpenMetrics form is made when first asked. */
interface OwnRendering {
  readonly changes: number;
  readonly text: string;
  openMetrics: string | undefined;
}

/** The bytes last returned for one format, and the renderings they were made of. */
interface Rendered {
  readonly own: OwnRendering;
  readonly proc: ProcessRendering;
  readonly bytes: Buffer;
}
