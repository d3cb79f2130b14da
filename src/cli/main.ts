/**
 * The exporter's command line: main.ts loads this module once the launcher decided that this
 * process runs the command (src/runtime/launch.ts).
 */
import type { Server } from "node:http";
import { type Logger, pino } from "pino";
import { configReloader } from "../app/configReload.js";
import { Exporter } from "../app/exporter.js";
import { onSighup } from "../app/sighup.js";
import { COLLECTORS, TARGET_LISTS } from "../collectors/registry.js";
import { formatListen } from "../config/listen.js";
import { loadConfig } from "../config/load.js";
import type { Config } from "../config/types.js";
import { CONFIG_WATCH_INTERVAL_MS, watchPath } from "../config/watch.js";
import { loadWebConfig } from "../config/webConfig.js";
import type { ReloadResult } from "../http/app.js";
import { BasicAuth } from "../http/basicAuth.js";
import { readListFiles } from "../polling/targetLists.js";
import { printRuntimeSettings, runtimeInForce } from "../runtime/format.js";
import type { ProcessStartSnapshot } from "../runtime/launch.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../shared/exitCodes.js";
import { ArgsError, type CliArgs, parseCli, USAGE } from "./args.js";
import { reportConfigError, type Step, version } from "./outcome.js";
import { listenAddress, loadRunConfig, loadWeb } from "./runConfig.js";
import { createServer, describeListenError, listenOn, logListening } from "./server.js";

/** Secrets never reach the log, whatever object is logged. */
const REDACT_PATHS = [
  "apiKey",
  "api_key",
  "*.apiKey",
  "*.api_key",
  "api.apiKey",
  "config.api.apiKey",
  "authorization",
  "headers.authorization",
  "*.headers.authorization",
  "req.headers.authorization",
];

function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "vdbcloud-exporter" },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  });
}

/**
 * Each step of a run, in order; a step that ends the run says with which exit code. `start`:
 * how this process was started, for its runtime settings (src/runtime/).
 */
export async function main(argv: readonly string[], start: ProcessStartSnapshot): Promise<number> {
  if (argv[0] === "backfill") return backfill(argv.slice(1));
  if (argv[0] === "slo-rules") return sloRules(argv.slice(1));
  const parsed = parseArguments(argv);
  if ("exit" in parsed) return parsed.exit;
  const args = parsed.value;
  if (args.mode === "help" || args.mode === "version") return printInfo(args.mode);
  if (args.mode === "check") return checkConfig(args, start);
  if (args.mode === "probe") return probe(args);

  const logger = createLogger(args.logLevel);
  const source = await loadRunConfig(args, logger);
  if ("exit" in source) return source.exit;
  const { config, closeDemo } = source.value;
  const listen = listenAddress(args, config);
  const web = await loadWeb(config);
  if ("exit" in web) {
    await closeDemo?.();
    return web.exit;
  }

  for (const line of web.value?.ignored ?? []) {
    logger.warn({ setting: line }, "web config setting accepted but not honoured");
  }
  const exporter = new Exporter({ config, logger, version: version(), shard: args.shard });
  const reload = reloader(args, exporter, logger, config);
  const auth =
    web.value && web.value.basicAuthUsers.size > 0 ? new BasicAuth(web.value.basicAuthUsers) : undefined;
  const server = createServer(exporter, reload, web.value, {
    runtime: runtimeInForce(start),
    lifecycle: args.enableLifecycle === true,
    auth,
  });
  // The port first: a taken port ends the run before any upstream call is made.
  try {
    await listenOn(server, listen);
  } catch (err) {
    const message = describeListenError(err, formatListen(listen));
    logger.fatal({ err: (err as Error).message, listen: formatListen(listen) }, message);
    process.stderr.write(`error: ${message}\n`);
    await auth?.close();
    await closeDemo?.();
    return EXIT_FAILURE;
  }
  await exporter.start();
  logListening(logger, server, listen, { args, exporter, tls: Boolean(web.value?.tls) });
  const unwatchConfig = reloadOnChange(args, reload, logger);
  return untilShutdown({ logger, server, exporter, closeDemo, unwatchConfig, auth });
}

/**
 * `backfill`: Ctrl-C or SIGTERM stops it after the chunks in flight are abandoned (finished ones
 * are kept for a resume); a second signal ends the process at once.
 */
async function backfill(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) process.exit(EXIT_FAILURE);
    controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const { runBackfill } = await import("../backfill/run.js");
  return runBackfill(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    now: Date.now,
    cwd: process.cwd(),
    signal: controller.signal,
    version: version(),
  });
}

/** `slo-rules`: the error-budget rules of the config's `slo` section, printed (src/slo/). */
async function sloRules(argv: readonly string[]): Promise<number> {
  const { runSloRules } = await import("../slo/command.js");
  return runSloRules(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env });
}

/** Parses the command line; bad arguments print the usage and end the run with exit 2. */
function parseArguments(argv: readonly string[]): Step<CliArgs> {
  try {
    return { value: parseCli(argv) };
  } catch (err) {
    if (err instanceof ArgsError) {
      process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`);
      return { exit: EXIT_USAGE };
    }
    throw err;
  }
}

function printInfo(mode: "help" | "version"): number {
  process.stdout.write(mode === "help" ? `${USAGE}\n` : `vdbcloud-exporter ${version()}\n`);
  return EXIT_OK;
}

/** `--check-config`: validates the config and prints the polling schedule and the runtime settings. */
async function checkConfig(args: CliArgs, start: ProcessStartSnapshot): Promise<number> {
  try {
    const config = await loadConfig(args.configPath as string);
    // The list files are part of what runs: the schedule counts their targets too.
    const files = await readListFiles(TARGET_LISTS, config);
    // So is the web config: a run with an unreadable one exits 2, so the check must too.
    if (config.server.webConfigFile !== undefined) await loadWebConfig(config.server.webConfigFile);
    const [{ computeSchedule }, { formatSchedule }] = await Promise.all([
      import("../polling/schedule.js"),
      import("../polling/scheduleFormat.js"),
    ]);
    const schedule = computeSchedule(COLLECTORS, config, { shard: args.shard, files });
    process.stdout.write(`${formatSchedule(schedule)}\n`);
    const { familyCheckText } = await import("./familyCheck.js");
    process.stdout.write(await familyCheckText(config, version()));
  } catch (err) {
    return reportConfigError(err);
  }
  // What a run started the same way would run with (a run exits 2 on a bad control variable too).
  return printRuntimeSettings(start, process);
}

/** `--probe`: one small call per endpoint kind and target; prints what answered (probe/). */
async function probe(args: CliArgs): Promise<number> {
  let config: Config;
  try {
    config = await loadConfig(args.configPath as string);
  } catch (err) {
    return reportConfigError(err);
  }
  try {
    const { probeCommand } = await import("../probe/command.js");
    return await probeCommand(config, {
      version: version(),
      shard: args.shard,
      write: (text) => process.stdout.write(text),
    });
  } catch (err) {
    return reportConfigError(err);
  }
}

/**
 * Reloads the config file into the exporter (SIGHUP, POST /-/reload, a changed file); see
 * app/configReload.ts. The demo has no file to reload.
 */
function reloader(
  args: CliArgs,
  exporter: Exporter,
  logger: Logger,
  config: Config,
): () => Promise<ReloadResult> {
  const reloadFile =
    args.configPath === undefined ? undefined : configReloader(args.configPath, exporter, logger, config);
  return () => {
    if (args.mode === "demo" || reloadFile === undefined) {
      return Promise.resolve({ ok: false, problems: ["the demo has no config file to reload"] });
    }
    return reloadFile();
  };
}

/**
 * Reloads on SIGHUP (one that came during start-up is served now) and when the config file
 * changes; returns how to stop watching the file.
 */
function reloadOnChange(
  args: CliArgs,
  reload: () => Promise<ReloadResult>,
  logger: Logger,
): (() => void) | undefined {
  onSighup(() => void reload());
  // Editing a mounted ConfigMap is enough: the file is reloaded as on SIGHUP.
  const configPath = args.mode === "run" ? args.configPath : undefined;
  if (configPath === undefined) return undefined;
  return watchPath(configPath, CONFIG_WATCH_INTERVAL_MS, () => {
    logger.info({ file: configPath }, "configuration file changed; reloading");
    void reload();
  });
}

/** What a shutdown stops. */
interface Running {
  readonly logger: Logger;
  readonly server: Server;
  readonly exporter: Exporter;
  readonly closeDemo: (() => Promise<void>) | undefined;
  readonly unwatchConfig: (() => void) | undefined;
  readonly auth: BasicAuth | undefined;
}

/** Resolves with exit 0 after SIGTERM or SIGINT, once everything stopped (5 s at most). */
function untilShutdown(run: Running): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      run.logger.info({ signal }, "shutting down");
      run.unwatchConfig?.();
      // A stuck poll or socket must not keep the process alive: bound the whole shutdown.
      const hard = setTimeout(() => resolve(EXIT_OK), 5000);
      hard.unref();
      run.server.closeIdleConnections();
      const closed = new Promise<void>((r) => run.server.close(() => r()));
      void Promise.allSettled([run.exporter.stop(), closed, run.closeDemo?.(), run.auth?.close()]).then(
        () => {
          clearTimeout(hard);
          resolve(EXIT_OK);
        },
      );
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  });
}
