/**
 * Which shard owns a target when several exporters split the work (`--shard I
 * --total-shards N`). Hash-based, so adding or removing one cluster moves only that cluster.
 */
import { fnv1a32 } from "../shared/hash.js";

/** Shard selection: this exporter is `index` (0-based) of `total`. */
export interface Shard {
  readonly index: number;
  readonly total: number;
}

/** The shard (0..total-1) that owns `key` (a cluster ID, or `projectId/jobId` for Spark jobs). */
export function shardOf(key: string, total: number): number {
  if (!Number.isInteger(total) || total < 1)
    throw new RangeError(`total shards must be a positive integer, got ${total}`);
  return fnv1a32(key) % total;
}

/** True when `shard` owns `key`; every key is owned when there is no sharding. */
export function inShard(key: string, shard: Shard | undefined): boolean {
  return shard === undefined || shardOf(key, shard.total) === shard.index;
}

/**
 * Account-wide calls (List Projects, List Regions, global clusters, groups, billing, on-demand
 * clusters, the console's alert rules) belong to shard 0 only, which spends the whole budget on them (polling/budgets.ts); cluster discovery's List
 * Clusters runs on every replica, each needing the whole list.
 */
export function ownsGlobalCalls(shard: Shard | undefined): boolean {
  return shard === undefined || shard.index === 0;
}
