/**
 * Reloading the config file into a running exporter (SIGHUP, POST /-/reload, a changed file).
 * A rejected file leaves the running config in place. Each reload logs what it changed; a bad
 * edit is logged once however many times it is noticed (the file watch and an HTTP reload
 * usually both see it), and again only when the file or its problems change.
 */
import type { Logger } from "pino";
import { configChanges } from "../config/diff.js";
import { ConfigError } from "../config/errors.js";
import { loadConfig, readConfigFile } from "../config/load.js";
import type { Config } from "../config/types.js";
import type { ReloadResult } from "../http/app.js";
import { ChangeLog } from "../shared/changeLog.js";
import { serialized } from "../shared/serialized.js";

/** What a reload needs of the exporter. */
interface Reloadable {
  applyConfig(config: Config): Promise<void>;
  rejectedConfig(): void;
}

/**
 * Returns the reload function for the file at `path`, starting from the running `initial`
 * config. Calls are serialized: a change seen during a reload may have been read too early by
 * it, so one more run follows.
 */
export function configReloader(
  path: string,
  exporter: Reloadable,
  logger: Logger,
  initial: Config,
): () => Promise<ReloadResult> {
  let running = initial;
  // The rejected edit last logged at error: the file's text and its problems.
  const rejected = new ChangeLog<string>();
  const reloadOnce = async (): Promise<ReloadResult> => {
    // Bounded as loadConfig is: a file swapped for a huge one is refused before it is read.
    const text = await readConfigFile(path).catch(() => undefined);
    try {
      // An empty file is valid at start-up (every default), but on a reload it is a file caught
      // while an editor rewrites it in place: applying it would drop every target.
      if ((text ?? "x").trim() === "") {
        throw new ConfigError("config_invalid", [{ path, message: "is empty; the running config is kept" }]);
      }
      const next = await loadConfig(path);
      await exporter.applyConfig(next);
      const changes = configChanges(running, next);
      running = next;
      rejected.forget(path);
      if (Object.keys(changes).length === 0)
        logger.info({ file: path }, "configuration reloaded; nothing changed");
      else logger.info({ file: path, ...changes }, "configuration reloaded");
      return { ok: true, problems: [] };
    } catch (err) {
      exporter.rejectedConfig();
      const problems =
        err instanceof ConfigError
          ? err.problems.map((p) => `${p.path}: ${p.message}`)
          : [(err as Error).message];
      const level = rejected.changed(path, JSON.stringify([text, problems])) ? "error" : "debug";
      logger[level]({ file: path, problems }, "configuration rejected; the previous one keeps running");
      return { ok: false, problems };
    }
  };
  return serialized(reloadOnce);
}
