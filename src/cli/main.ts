/**
 * The exporter's command line: main.ts loads this module once the launcher decided that this
 * process runs the command (src/runtime/launch.ts).
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Logger, pino } from "pino";
import { configReloader } from "../app/configReload.js";
import { DEMO_CLUSTERS, demoConfig, demoRunOptions, startDemoSimulator } from "../app/demo.js";
import { Exporter } from "../app/exporter.js";
import { onSighup } from "../app/sighup.js";
import { COLLECTORS } from "../collectors/registry.js";
import { ConfigError } from "../config/errors.js";
import { loadJobIdsFile } from "../config/jobIdsFile.js";
import { formatListen, type ListenAddress, parseListen } from "../config/listen.js";
import { buildConfig, loadConfig } from "../config/load.js";
import { loadSparkJobsFile } from "../config/sparkJobsFile.js";
import type { Config } from "../config/types.js";
import { CONFIG_WATCH_INTERVAL_MS, watchPath } from "../config/watch.js";
import { loadWebConfig, toTlsOptions } from "../config/webConfig.js";
import { createApp, type ReloadResult } from "../http/app.js";
import { BasicAuth } from "../http/basicAuth.js";
import { printRuntimePlan, type RuntimeInForce, runtimeInForce } from "../runtime/format.js";
import type { ProcessStartSnapshot } from "../runtime/launch.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../shared/exitCodes.js";
import { ArgsError, type CliArgs, parseCli, USAGE } from "./args.js";

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    return pkg.version ?? "unknown";
  } catch {
    return "unknown";
  }
}

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

/** The exit code of a step that ended the run, or what the step produced. */
type Step<T> = { readonly exit: number } | { readonly value: T };

/**
 * Each step of a run, in order; a step that ends the run says with which exit code. `start`:
 * how this process was started, for its runtime settings (src/runtime/).
 */
export async function main(argv: readonly string[], start: ProcessStartSnapshot): Promise<number> {
  if (argv[0] === "backfill") return backfill(argv.slice(1));
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

  const exporter = new Exporter({ config, logger, version: version(), shard: args.shard });
  const reload = reloader(args, exporter, logger, config);
  const server = createServer(exporter, reload, web.value, runtimeInForce(start));
  await exporter.start();
  try {
    await listenOn(server, listen);
  } catch (err) {
    logger.fatal({ err: (err as Error).message, listen: formatListen(listen) }, "cannot listen");
    await exporter.stop();
    await closeDemo?.();
    return EXIT_FAILURE;
  }
  logListening(logger, server, listen, { args, exporter, tls: Boolean(web.value?.tls) });
  const unwatchConfig = reloadOnChange(args, reload, logger);
  return untilShutdown({ logger, server, exporter, closeDemo, unwatchConfig });
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

/** `--check-config`: validates the config and prints the polling plan and the runtime settings. */
async function checkConfig(args: CliArgs, start: ProcessStartSnapshot): Promise<number> {
  try {
    const config = await loadConfig(args.configPath as string);
    // The jobs file is part of what runs: the plan counts its jobs too.
    const jobsFile = config.sparkJobs.jobsFile;
    const fileJobs = jobsFile === undefined ? undefined : await loadSparkJobsFile(jobsFile);
    const idsFile = config.jobs.idsFile;
    const fileJobIds = idsFile === undefined ? undefined : await loadJobIdsFile(idsFile);
    // So is the web config: a run with an unreadable one exits 2, so the check must too.
    if (config.server.webConfigFile !== undefined) await loadWebConfig(config.server.webConfigFile);
    const [{ computePlan }, { formatPlan }] = await Promise.all([
      import("../polling/plan.js"),
      import("../polling/planFormat.js"),
    ]);
    const plan = computePlan(COLLECTORS, config, {
      shard: args.shard,
      ...(fileJobs ? { fileJobs } : {}),
      ...(fileJobIds ? { fileJobIds } : {}),
    });
    process.stdout.write(`${formatPlan(plan)}\n`);
    const { familyCheckText } = await import("./familyCheck.js");
    process.stdout.write(await familyCheckText(config, version()));
  } catch (err) {
    return reportConfigError(err);
  }
  // What a run started the same way would run with (a run exits 2 on a bad control variable too).
  return printRuntimePlan(start, process);
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

/** What a run polls, and how to stop the demo's simulator when there is one. */
interface RunConfig {
  readonly config: Config;
  readonly closeDemo: (() => Promise<void>) | undefined;
}

/** The config file, or in demo mode an embedded simulator and a config pointing at it. */
async function loadRunConfig(args: CliArgs, logger: Logger): Promise<Step<RunConfig>> {
  let closeDemo: (() => Promise<void>) | undefined;
  try {
    if (args.mode === "demo") {
      const metricCatalog = args.demoMetricCatalog ?? "strict";
      const sim = await startDemoSimulator({
        clusters: DEMO_CLUSTERS,
        metricCatalog,
        ...(args.demoSimulatorListen === undefined ? {} : { listen: parseListen(args.demoSimulatorListen) }),
      });
      closeDemo = () => sim.close();
      // The data planes' demo credentials go to token files, as a user's would; the directory
      // goes with the simulator, so repeated demo runs leave nothing behind.
      const tokenDir = await mkdtemp(join(tmpdir(), "vdbcloud-demo-"));
      closeDemo = async () => {
        await Promise.allSettled([sim.close(), rm(tokenDir, { recursive: true, force: true })]);
      };
      logger.info(
        { simulator: sim.baseUrl, metric_catalog: metricCatalog },
        "demo: embedded simulator of the upstream API started on loopback",
      );
      const config = await buildConfig(
        demoConfig(sim, demoRunOptions(args.listen ?? "0.0.0.0:9474", tokenDir, metricCatalog)),
      );
      return { value: { config, closeDemo } };
    }
    return { value: { config: await loadConfig(args.configPath as string), closeDemo } };
  } catch (err) {
    await closeDemo?.();
    return { exit: reportConfigError(err) };
  }
}

/** `--listen` wins over the config's server host and port. */
function listenAddress(args: CliArgs, config: Config): ListenAddress {
  return parseListen(
    args.listen ??
      `${config.server.host.includes(":") ? `[${config.server.host}]` : config.server.host}:${config.server.port}`,
  );
}

type WebConfig = Awaited<ReturnType<typeof loadWebConfig>>;

/** The web config file (TLS, basic auth, headers) when the config names one. */
async function loadWeb(config: Config): Promise<Step<WebConfig | undefined>> {
  if (config.server.webConfigFile === undefined) return { value: undefined };
  try {
    return { value: await loadWebConfig(config.server.webConfigFile) };
  } catch (err) {
    return { exit: reportConfigError(err) };
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

/** The HTTP(S) server of the exporter's app, with the web config's TLS, auth and headers. */
function createServer(
  exporter: Exporter,
  reload: () => Promise<ReloadResult>,
  web: WebConfig | undefined,
  runtime: RuntimeInForce | undefined,
): Server {
  const app = createApp({
    metrics: (h) => exporter.metrics(h),
    landing: () => ({ ...exporter.landing(), ...(runtime ? { runtime } : {}) }),
    ready: () => exporter.ready(),
    nativeTargets: () => exporter.nativeTargets(),
    answering: () => exporter.foreground.enter(),
    reload,
    ...(web && web.basicAuthUsers.size > 0 ? { auth: new BasicAuth(web.basicAuthUsers) } : {}),
    ...(web ? { headers: web.headers } : {}),
    ...(web?.tls?.clientAuthType === "RequireAnyClientCert" ||
    web?.tls?.clientAuthType === "VerifyClientCertIfGiven"
      ? { clientCertPolicy: web.tls.clientAuthType }
      : {}),
  });
  const server: Server = web?.tls ? createHttpsServer(toTlsOptions(web.tls), app) : createHttpServer(app);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 65_000;
  return server;
}

/** Resolves once the server listens; rejects when it cannot (address in use, no permission). */
function listenOn(server: Server, listen: ListenAddress): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
}

function logListening(
  logger: Logger,
  server: Server,
  listen: ListenAddress,
  run: { readonly args: CliArgs; readonly exporter: Exporter; readonly tls: boolean },
): void {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : listen.port;
  logger.info(
    {
      listen: `${listen.host}:${port}`,
      tls: run.tls,
      clusters: run.exporter.clusters().length,
      demo: run.args.mode === "demo",
    },
    "vdbcloud-exporter listening",
  );
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
      void Promise.allSettled([run.exporter.stop(), closed, run.closeDemo?.()]).then(() => {
        clearTimeout(hard);
        resolve(EXIT_OK);
      });
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  });
}

function reportConfigError(err: unknown): number {
  if (err instanceof ConfigError) {
    process.stderr.write(`configuration invalid:\n${err.message}\n`);
    return EXIT_USAGE;
  }
  process.stderr.write(`error: ${(err as Error)?.message ?? String(err)}\n`);
  return EXIT_FAILURE;
}
