/**
 * Targets a collector's section lists by hand: in the config, and in a file the exporter follows
 * (read at start and on reload, re-read when it changes on disk). The collector declares the
 * list once (what it is called, where the config and the file hold it, each item's key); the
 * exporter follows its file, `--check-config` counts it, and the collector reads what both hold
 * through `CollectorEnv.lists`.
 */
import { inShard, type Shard } from "../config/shard.js";
import type { Config } from "../config/types.js";

/**
 * One kind of listed target. Its functions are methods so that a list of any item type is a
 * `TargetList<unknown>` where lists are handled together.
 */
export interface TargetList<T> {
  /** What the items are, plural, as a sentence names them ("Spark jobs", "job IDs"). */
  readonly title: string;
  /** One item as a `--check-config` target line ("spark job p/j"). */
  line(item: T): string;
  /** Names the file in log messages ("spark jobs file" -> "spark jobs file reloaded"). */
  readonly fileName: string;
  /** The log field holding the file's count of items ("jobs", "ids"). */
  readonly countField: string;
  /** Where the config lists them, as the file spells it ("spark_jobs.jobs"). */
  readonly configuredAt: string;
  /** The items the config lists. */
  configured(config: Config): readonly T[];
  /** The absolute path of the file the config names, if any. */
  file(config: Config): string | undefined;
  /**
   * Reads and validates the file (an empty file is an empty list).
   * @throws ConfigError naming the file and the item.
   */
  load(path: string): Promise<T[]>;
  /** An item's identity: items with one key are one target, and it places the item on a shard. */
  key(item: T): string;
}

/** Declares a list (typed by its items). */
export function targetList<T>(list: TargetList<T>): TargetList<T> {
  return list;
}

/** What was read of each list's file, by list (a list without an entry: nothing read). */
export type ListFiles = ReadonlyMap<TargetList<unknown>, readonly unknown[]>;

/** The items of `list` as the config and the file give them, each once (every shard). */
export function allListed<T>(list: TargetList<T>, config: Config, files: ListFiles): T[] {
  const fromFile = (files.get(list as TargetList<unknown>) ?? []) as readonly T[];
  const byKey = new Map<string, T>();
  for (const item of [...list.configured(config), ...fromFile]) byKey.set(list.key(item), item);
  return [...byKey.values()];
}

/** The items of `list` this replica polls: those of `allListed` on its shard. */
export function shardListed<T>(list: TargetList<T>, config: Config, files: ListFiles, shard: Shard): T[] {
  return allListed(list, config, files).filter((item) => inShard(list.key(item), shard));
}

/** The listed targets as a collector reads them. */
export interface ListedTargets {
  /** Every item of every shard (a discovery that must leave listed targets to their own task). */
  all<T>(list: TargetList<T>): readonly T[];
  /** The items this replica polls. */
  mine<T>(list: TargetList<T>): readonly T[];
}

/** `ListedTargets` over a config, what was read of the files, and a shard. */
export function listedTargets(config: Config, files: ListFiles, shard: Shard): ListedTargets {
  return {
    all: (list) => allListed(list, config, files),
    mine: (list) => shardListed(list, config, files, shard),
  };
}

/**
 * Reads the file of each list that names one (a list without a file: no entry), as the run
 * would at its start.
 * @throws ConfigError of the first file that cannot be read or is invalid.
 */
export async function readListFiles(
  lists: readonly TargetList<unknown>[],
  config: Config,
): Promise<ListFiles> {
  const files = new Map<TargetList<unknown>, readonly unknown[]>();
  for (const list of lists) {
    const path = list.file(config);
    if (path !== undefined) files.set(list, await list.load(path));
  }
  return files;
}
