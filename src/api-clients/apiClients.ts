/**
 * The exporter's API clients: one control-plane client per API key, one per config section with
 * a key of its own, one data-plane client per cluster endpoint and credential (each with its own rate budget). A
 * control-plane client spends this replica's share of its key's budget (polling/budgets.ts). A
 * client bakes in every `api` setting and its share, so a config whose settings or shares
 * differ retires them all; in-flight requests of a retired client finish.
 */
import type { Dispatcher } from "undici";
import type { ConfigSection } from "../config/section.js";
import { ownKeyOf, sectionOn } from "../config/sectionSettings.js";
import type { Shard } from "../config/shard.js";
import type { ClusterConfig, Config } from "../config/types.js";
import { dataPlaneRateLimit, type ReplicaBudgets, replicaBudgets } from "../polling/budgets.js";
import type { Clock } from "../scheduler/scheduler.js";
import { fnv1a32 } from "../shared/hash.js";
import { type CloudClient, createCloudClient } from "../upstream/client.js";
import { createDataPlaneClient, type DataPlaneClient } from "../upstream/dataPlane.js";
import { sleepOn } from "../upstream/sleep.js";
import type { ClientObserver, EndpointTemplate } from "../upstream/types.js";
import { cloudClientOptions } from "./clientOptions.js";

/**
 * A clock for one-shot commands (--probe, backfill). Unlike the scheduler's, its timers keep the
 * process alive: the clients' calls are all there is, and a rate-limit or backoff wait must not
 * let the process end early.
 */
export const FOREGROUND_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** What the API clients are built from; `config()` is read at each build, so reloads apply. */
interface ApiClientsOptions {
  readonly config: () => Config;
  /** This replica's shard: which share of each key's budget its clients spend. */
  readonly shard: Shard;
  readonly version: string;
  readonly observer: ClientObserver;
  /** The clients' clock: rate-limit pacing, Retry-After and backoff waits. */
  readonly clock: Clock;
  readonly dispatcher?: Dispatcher | undefined;
  /** Awaited by every client before each request and each answer's parsing (shared/foreground.ts). */
  readonly turn?: (() => Promise<void> | undefined) | undefined;
  /** A failed close of a retired client (counted by the caller, never thrown). */
  readonly onCloseError: (err: unknown) => void;
}

/** Clients by credential, built on first use and closed when unused or stale. */
export class ApiClients {
  private readonly clients = new Map<string, CloudClient>();
  /**
   * Each own-key section's client, by its key in the file: apart from the others even when the
   * key is the same one.
   */
  private readonly ownKeyClients = new Map<
    string,
    { readonly section: ConfigSection; readonly key: string; readonly client: CloudClient }
  >();
  private readonly dataPlanes = new Map<string, DataPlaneClient>();
  /** The settings (keys aside) the clients were built with. */
  private settings = "";
  /** The budgets of the config they were computed for. */
  private computed: { readonly config: Config; readonly budgets: ReplicaBudgets } | undefined;

  constructor(private readonly opts: ApiClientsOptions) {}

  /** This replica's share of each key's budget under the current config. */
  budgets(): ReplicaBudgets {
    const config = this.opts.config();
    if (this.computed?.config !== config) {
      this.computed = { config, budgets: replicaBudgets(config, this.opts.shard) };
    }
    return this.computed.budgets;
  }

  /** Requests per second this replica may send on `endpoint` with the cluster's key. */
  rateOf = (cluster: Pick<ClusterConfig, "apiKey">, endpoint: EndpointTemplate): number =>
    this.budgets().rateOf(cluster, endpoint);

  /** The control-plane client of a cluster's credential (its own key, else the default). */
  forCluster = (cluster: Pick<ClusterConfig, "apiKey">): CloudClient => {
    const config = this.opts.config();
    const key = cluster.apiKey ?? config.api.apiKey;
    let client = this.clients.get(key);
    if (!client) {
      client = this.build(config, key, this.budgets().endpointRates(cluster));
      this.clients.set(key, client);
    }
    return client;
  };

  /**
   * The client of `section`'s own key (its `api_key`, else the default key): the only client
   * that calls that section's endpoints, and never used for anything else. Its own rate budget
   * and connections, so those calls neither carry another key nor spend another key's budget.
   */
  ownKey = (section: ConfigSection): CloudClient => {
    const config = this.opts.config();
    const key = ownKeyOf(config, section);
    const held = this.ownKeyClients.get(section.key);
    if (held?.key === key) return held.client;
    if (held) this.close(held.client);
    // Only shard 0 makes an own-key section's calls: its endpoints are its own, at the whole budget.
    const client = this.build(config, key, {});
    this.ownKeyClients.set(section.key, { section, key, client });
    return client;
  };

  private build(
    config: Config,
    key: string,
    endpointRateLimits: Partial<Record<EndpointTemplate, number>>,
  ): CloudClient {
    const clock = this.opts.clock;
    return createCloudClient({
      ...cloudClientOptions(config.api, key, this.opts.version),
      endpointRateLimits,
      observer: this.opts.observer,
      now: () => clock.now(),
      sleep: sleepOn(clock),
      ...(this.opts.dispatcher ? { dispatcher: this.opts.dispatcher } : {}),
      ...(this.opts.turn ? { turn: this.opts.turn } : {}),
    });
  }

  /** The data-plane client of one cluster endpoint and credential (its token, else its API key). */
  dataPlane = (
    endpoint: string,
    cluster: Pick<ClusterConfig, "apiKey" | "dataPlaneToken">,
  ): DataPlaneClient => {
    const config = this.opts.config();
    const token = cluster.dataPlaneToken ?? cluster.apiKey ?? config.api.apiKey;
    const key = `${endpoint}\u0000${token}`;
    let client = this.dataPlanes.get(key);
    if (!client) {
      const api = config.api;
      const clock = this.opts.clock;
      client = createDataPlaneClient({
        endpoint,
        token,
        rateLimit: dataPlaneRateLimit(config),
        rateLimitMarginMs: api.rateLimitMarginMs,
        requestTimeoutMs: api.requestTimeoutMs,
        maxRetries: api.maxRetries,
        maxResponseBytes: api.maxResponseBytes,
        maxInFlight: api.maxInFlight,
        userAgent: `vdbcloud-exporter/${this.opts.version}`,
        observer: this.opts.observer,
        now: () => clock.now(),
        sleep: sleepOn(clock),
        ...(this.opts.dispatcher ? { dispatcher: this.opts.dispatcher } : {}),
        ...(this.opts.turn ? { turn: this.opts.turn } : {}),
      });
      this.dataPlanes.set(key, client);
    }
    return client;
  };

  /**
   * When any setting a client bakes in (URLs, timeouts, retries, rate limits, in-flight cap) has
   * changed, every client is rebuilt: a cached one would keep the old settings for as long as
   * its key is in use.
   */
  retireStale(config: Config): void {
    const budgets = replicaBudgets(config, this.opts.shard);
    const keys = new Set([
      config.api.apiKey,
      ...config.clusters.flatMap((c) => (c.apiKey ? [c.apiKey] : [])),
    ]);
    const settings = JSON.stringify({
      ...config.api,
      apiKey: undefined,
      dataPlane: dataPlaneRateLimit(config),
      // Each key's share (keys by their hash: a key is not kept in this string).
      shares: [...keys].map((key) => [fnv1a32(key), budgets.endpointRates({ apiKey: key })]),
    });
    if (settings === this.settings) return;
    this.settings = settings;
    for (const client of [...this.clients.values(), ...this.dataPlanes.values()]) this.close(client);
    for (const { client } of this.ownKeyClients.values()) this.close(client);
    this.ownKeyClients.clear();
    this.clients.clear();
    this.dataPlanes.clear();
  }

  /**
   * Closes the control-plane clients of keys no polled cluster uses any more, and each own-key
   * section's client when its section is off or its key changed.
   */
  closeUnused(config: Config, clusters: readonly ClusterConfig[]): void {
    for (const [name, held] of this.ownKeyClients) {
      if (sectionOn(config, held.section) && held.key === ownKeyOf(config, held.section)) continue;
      this.ownKeyClients.delete(name);
      this.close(held.client);
    }
    const used = new Set([config.api.apiKey, ...clusters.map((c) => c.apiKey ?? config.api.apiKey)]);
    for (const [key, client] of this.clients) {
      if (!used.has(key)) {
        this.clients.delete(key);
        this.close(client);
      }
    }
  }

  /** Closes every client (shutdown); waits for them. */
  async closeAll(): Promise<void> {
    const all = [
      ...this.clients.values(),
      ...this.dataPlanes.values(),
      ...[...this.ownKeyClients.values()].map((held) => held.client),
    ];
    this.ownKeyClients.clear();
    this.clients.clear();
    this.dataPlanes.clear();
    await Promise.allSettled(all.map((c) => c.close()));
  }

  private close(client: { close(): Promise<void> }): void {
    client.close().catch((err: unknown) => this.opts.onCloseError(err));
  }
}
