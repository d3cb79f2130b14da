/**
 * A list file the exporter follows (`spark_jobs.jobs_file`, `jobs.ids_file`): read at start
 * and on every config reload, re-read whenever it changes on disk. A broken file keeps the
 * previous list, as an invalid reload keeps the running config.
 */
import type { Logger } from "pino";
import { watchPath } from "../config/watch.js";
import { describeError } from "../polling/errors.js";

interface WatchedListOptions<T> {
  /** Names the file in log messages ("spark jobs file" -> "spark jobs file reloaded"). */
  readonly what: string;
  /** The log field holding the list's length ("jobs", "ids"). */
  readonly countField: string;
  readonly load: (path: string) => Promise<T[]>;
  readonly pollMs: number;
  readonly logger: Logger;
  /** After a change on disk was read successfully. */
  readonly onChange: () => void;
  /** Background work failed unexpectedly (not a broken file: that is logged and kept). */
  readonly onError: (err: unknown) => void;
}

/** One watched list file; `values` is its last good content (empty without a file). */
export class WatchedList<T> {
  #values: readonly T[] = [];
  #watched: string | undefined;
  #unwatch: (() => void) | undefined;

  constructor(private readonly opts: WatchedListOptions<T>) {}

  get values(): readonly T[] {
    return this.#values;
  }

  /**
   * Reads `path` (absent: the list is empty) and watches it from now on, in place of any file
   * watched before. False (and the previous list kept) when the file is broken.
   */
  async follow(path: string | undefined): Promise<boolean> {
    const ok = await this.#read(path);
    this.#watch(path);
    return ok;
  }

  /** Stops watching. */
  stop(): void {
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#watched = undefined;
  }

  async #read(path: string | undefined): Promise<boolean> {
    if (path === undefined) {
      this.#values = [];
      return true;
    }
    try {
      this.#values = await this.opts.load(path);
      return true;
    } catch (err) {
      this.opts.logger.error({ file: path, err: describeError(err).message }, `${this.opts.what} rejected`);
      return false;
    }
  }

  #watch(path: string | undefined): void {
    if (path === this.#watched) return;
    this.stop();
    this.#watched = path;
    if (path === undefined) return;
    this.#unwatch = watchPath(path, this.opts.pollMs, () => {
      this.#read(path)
        .then((ok) => {
          if (!ok) return;
          this.opts.logger.info(
            { file: path, [this.opts.countField]: this.#values.length },
            `${this.opts.what} reloaded`,
          );
          this.opts.onChange();
        })
        .catch((err: unknown) => this.opts.onError(err));
    });
  }
}
