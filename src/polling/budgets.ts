/**
 * Which share of each key's rate budget this replica spends. The service allows `rate_limit`
 * requests per second per endpoint and key, whoever sends them: replicas that share a key (the
 * sharded StatefulSet with one Secret) must split that budget, or together they send N times
 * what the service allows.
 *
 * The formula, per key and endpoint, for a replica that is shard I of N:
 * - an endpoint only shard 0 calls (SHARD_ZERO_ENDPOINTS: the account-wide listings of the
 *   collectors that run on shard 0 only) keeps the whole `rate_limit` on shard 0 (unless
 *   `api.replicas_per_key` says more processes use the default key than there are shards);
 * - every other endpoint is shared by the replicas that use the key: the default key by
 *   `api.replicas_per_key` replicas (default N, every replica), a cluster's own key by the
 *   shards its clusters hash to. Each takes `rate_limit` / sharers in whole requests, and when
 *   the sharers are known by shard (every replica, or a cluster key's shards) the first
 *   `rate_limit` mod sharers of them take one more, so that the shares add up to the budget;
 * - a key one replica uses keeps the whole budget.
 *
 * Whole requests per window keep the sum exact: each replica's limiter holds at most its share
 * in any window of 1 s + margin, so the replicas together hold at most `rate_limit`.
 */

import { ownKeySections } from "../config/section.js";
import { declaredDataPlane, sectionOn } from "../config/sectionSettings.js";
import { type Shard, shardOf } from "../config/shard.js";
import type { ClusterConfig, Config } from "../config/types.js";
import { DEFAULT_DATA_PLANE_RATE_LIMIT } from "../upstream/dataPlane.js";
import { SHARD_ZERO_ENDPOINTS } from "../upstream/endpoints/table.js";
import { ENDPOINT, type EndpointTemplate } from "../upstream/types.js";
import { ownKeyCredential } from "./credentials.js";

/** The endpoints only shard 0 calls: those the table declares account-wide (`shardZero`). */
export { SHARD_ZERO_ENDPOINTS };

/** One line of "which budget this replica uses, and why": never a key, only its label. */
export interface BudgetLine {
  /** The credential's label ("default", "cluster key #1", a section's own key, "data plane"). */
  readonly credential: string;
  /** Which endpoints the line covers, in words. */
  readonly endpoints: string;
  /** Requests per second per endpoint this replica may send (its share of the budget). */
  readonly perSecond: number;
  readonly why: string;
}

/** How many replicas share a key, and whether this replica's place among them is known. */
interface Sharing {
  readonly sharers: number;
  /** This replica's rank among the sharers (they split the remainder by rank); unknown: none. */
  readonly rank: number | undefined;
  readonly why: string;
}

/**
 * Requests per second every data-plane client may send to its cluster endpoint: the rate the
 * section that declares one holds, else DEFAULT_DATA_PLANE_RATE_LIMIT. Each cluster is polled by
 * one replica, so no replica shares it.
 */
export function dataPlaneRateLimit(config: Config): number {
  return declaredDataPlane(config)?.rateLimit ?? DEFAULT_DATA_PLANE_RATE_LIMIT;
}

/** Whole requests per second of one of `sharers`: the remainder goes to the lowest ranks. */
export function shareOf(rate: number, sharers: number, rank: number | undefined): number {
  const base = Math.floor(rate / sharers);
  const extra = rank !== undefined && rank < rate % sharers ? 1 : 0;
  return Math.max(1, base + extra);
}

/** The budgets of one replica: a rate per key and endpoint, and the reasons in words. */
export interface ReplicaBudgets {
  /** Requests per second this replica may send on `endpoint` with the cluster's key. */
  rateOf(cluster: Pick<ClusterConfig, "apiKey">, endpoint: EndpointTemplate): number;
  /** The rates of a key's client where they differ from `api.rate_limit`. */
  endpointRates(cluster: Pick<ClusterConfig, "apiKey">): Partial<Record<EndpointTemplate, number>>;
  /**
   * Which budget each credential of `clusters` uses, and why; then each section's own key that
   * is on (shard 0), and the data planes when they are polled.
   */
  lines(
    clusters: readonly Pick<ClusterConfig, "apiKey">[],
    credentialOf: (cluster: Pick<ClusterConfig, "apiKey">) => string,
  ): BudgetLine[];
  /** Replicas that cannot get a whole request per second each: the config to change. */
  readonly problems: readonly string[];
}

const EVERY_ENDPOINT = "every endpoint";

function describeEndpoints(endpoints: ReadonlySet<EndpointTemplate>): string {
  return [...endpoints].join(", ");
}

/** The budgets of shard `shard` under `config` (every configured cluster counts, of every shard). */
export function replicaBudgets(config: Config, shard: Shard): ReplicaBudgets {
  const rate = config.api.rateLimit;
  const defaultKey = config.api.apiKey;
  const total = shard.total;
  const declared = config.api.replicasPerKey;
  const problems: string[] = [];

  const sharingOf = (key: string): Sharing => {
    if (key === defaultKey) {
      if (declared !== undefined && declared !== total) {
        return {
          sharers: declared,
          rank: undefined,
          why:
            declared === 1
              ? "api.replicas_per_key is 1: this replica has a key of its own"
              : `api.replicas_per_key: ${declared} replicas share the key`,
        };
      }
      return {
        sharers: total,
        rank: shard.index,
        why: total === 1 ? "one replica" : `--total-shards ${total}: every replica uses the key`,
      };
    }
    // A cluster's own key is used by the shards its clusters hash to, and by no other replica.
    const shards = [
      ...new Set(config.clusters.filter((c) => c.apiKey === key).map((c) => shardOf(c.id, total))),
    ].sort((a, b) => a - b);
    const rank = shards.indexOf(shard.index);
    return {
      sharers: Math.max(1, shards.length),
      rank: rank < 0 ? undefined : rank,
      why:
        shards.length <= 1
          ? "only this replica polls the clusters with this key"
          : `the clusters with this key hash to ${shards.length} of the ${total} shards`,
    };
  };

  const cache = new Map<string, { sharing: Sharing; share: number }>();
  const budgetOf = (key: string) => {
    let found = cache.get(key);
    if (found === undefined) {
      const sharing = sharingOf(key);
      if (sharing.sharers > rate) {
        problems.push(
          `${sharing.sharers} replicas share one key's ${rate} requests per second (${sharing.why}): fewer than one each; give replicas keys of their own (api.replicas_per_key, clusters[].api_key) or use at most ${rate} replicas per key`,
        );
      }
      found = { sharing, share: shareOf(rate, sharing.sharers, sharing.rank) };
      cache.set(key, found);
    }
    return found;
  };
  // Only shard 0 calls these, so it spends the whole budget on them whoever shares the key;
  // unless more processes use the key than this deployment has replicas (another exporter's
  // shard 0 makes the same calls).
  const othersUseKey = declared !== undefined && declared > total;
  const wholeOnShardZero = (endpoint: EndpointTemplate): boolean =>
    shard.index === 0 && !othersUseKey && SHARD_ZERO_ENDPOINTS.has(endpoint);
  const keyOf = (cluster: Pick<ClusterConfig, "apiKey">): string => cluster.apiKey ?? defaultKey;
  budgetOf(defaultKey);
  for (const c of config.clusters)
    if (c.apiKey !== undefined && shardOf(c.id, total) === shard.index) budgetOf(c.apiKey);

  return {
    problems,
    rateOf: (cluster, endpoint) => (wholeOnShardZero(endpoint) ? rate : budgetOf(keyOf(cluster)).share),
    endpointRates: (cluster) => {
      const { share } = budgetOf(keyOf(cluster));
      if (share === rate) return {};
      const rates: Partial<Record<EndpointTemplate, number>> = {};
      for (const endpoint of Object.values(ENDPOINT))
        rates[endpoint] = wholeOnShardZero(endpoint) ? rate : share;
      return rates;
    },
    lines: (clusters, credentialOf) => {
      const lines: BudgetLine[] = [];
      const seen = new Set<string>();
      for (const cluster of [{}, ...clusters]) {
        const key = keyOf(cluster);
        if (seen.has(key)) continue;
        seen.add(key);
        const credential = credentialOf(cluster);
        const { sharing, share } = budgetOf(key);
        if (share === rate) {
          lines.push({
            credential,
            endpoints: EVERY_ENDPOINT,
            perSecond: rate,
            why: `the whole budget: ${sharing.why}`,
          });
          continue;
        }
        const wholeListings = key === defaultKey && shard.index === 0 && !othersUseKey;
        if (wholeListings) {
          lines.push({
            credential,
            endpoints: describeEndpoints(SHARD_ZERO_ENDPOINTS),
            perSecond: rate,
            why: "the whole budget: only shard 0 makes these account-wide calls",
          });
        }
        const remainder =
          sharing.rank === undefined ? "" : `, the first ${rate % sharing.sharers} by shard taking one more`;
        lines.push({
          credential,
          endpoints: wholeListings ? "every other endpoint" : EVERY_ENDPOINT,
          perSecond: share,
          why: `${sharing.why}: ${rate} / ${sharing.sharers} in whole requests${rate % sharing.sharers === 0 ? "" : remainder}`,
        });
      }
      for (const section of ownKeySections()) {
        if (shard.index !== 0 || !sectionOn(config, section)) continue;
        lines.push({
          credential: ownKeyCredential(section),
          endpoints: section.key,
          perSecond: rate,
          why: `the whole budget: only shard 0 reads ${section.key}, with a client of its own`,
        });
      }
      const dataPlane = declaredDataPlane(config);
      if (dataPlane?.inUse) {
        lines.push({
          credential: "data plane",
          endpoints: "each polled cluster's data plane",
          perSecond: dataPlane.rateLimit,
          why: `${dataPlane.setting} per cluster endpoint: each cluster is polled by one replica`,
        });
      }
      return lines;
    },
  };
}
