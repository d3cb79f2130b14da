#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type Logger, pino } from "pino";
import { ArgsError, type CliArgs, parseCli, USAGE } from "./cli/args.js";
import { computePlan, formatPlan } from "./collectors/plan.js";
import { ConfigError } from "./config/errors.js";
import { parseListen } from "./config/listen.js";
import { buildConfig, loadConfig } from "./config/load.js";
import { loadSparkJobsFile } from "./config/sparkJobsFile.js";
import type { Config } from "./config/types.js";
import { CONFIG_WATCH_INTERVAL_MS, watchPath } from "./config/watch.js";
import { loadWebConfig, toTlsOptions } from "./config/webConfig.js";
import { demoConfig, startDemoSimulator } from "./demo.js";
import { Exporter } from "./exporter.js";
import { createApp, type ReloadResult } from "./http/app.js";
import { BasicAuth } from "./http/basicAuth.js";

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    return pkg.version ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** Secrets never reach the log, whatever object is logged. */
export const REDACT_PATHS = [
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

async function main(argv: readonly string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCli(argv);
  } catch (err) {
    if (err instanceof ArgsError) {
      process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
  if (args.mode === "help") {
    process.stdout.write(`${USAGE}\n`);
    return EXIT_OK;
  }
  if (args.mode === "version") {
    process.stdout.write(`vdbcloud-exporter ${version()}\n`);
    return EXIT_OK;
  }

  if (args.mode === "check") {
    try {
      const config = await loadConfig(args.configPath as string);
      // The jobs file is part of what runs: the plan counts its jobs too.
      const jobsFile = config.sparkJobs.jobsFile;
      const fileJobs = jobsFile === undefined ? undefined : await loadSparkJobsFile(jobsFile);
      const plan = computePlan(config, { shard: args.shard, ...(fileJobs ? { fileJobs } : {}) });
      process.stdout.write(`${formatPlan(plan)}\n`);
      return EXIT_OK;
    } catch (err) {
      return reportConfigError(err);
    }
  }

  const logger = createLogger(args.logLevel);
  let closeDemo: (() => Promise<void>) | undefined;
  let config: Config;
  try {
    if (args.mode === "demo") {
      const sim = await startDemoSimulator({ clusters: 6 });
      closeDemo = () => sim.close();
      logger.info(
        { simulator: sim.baseUrl },
        "demo: embedded simulator of the upstream API started on loopback",
      );
      config = await buildConfig(demoConfig(sim, { listen: args.listen ?? "0.0.0.0:9474" }));
    } else {
      config = await loadConfig(args.configPath as string);
    }
  } catch (err) {
    await closeDemo?.();
    return reportConfigError(err);
  }
  const listen = parseListen(
    args.listen ??
      `${config.server.host.includes(":") ? `[${config.server.host}]` : config.server.host}:${config.server.port}`,
  );

  let web: Awaited<ReturnType<typeof loadWebConfig>> | undefined;
  if (config.server.webConfigFile !== undefined) {
    try {
      web = await loadWebConfig(config.server.webConfigFile);
    } catch (err) {
      await closeDemo?.();
      return reportConfigError(err);
    }
  }

  const exporter = new Exporter({ config, logger, version: version(), shard: args.shard });
  let reloading: Promise<ReloadResult> | undefined;
  const reload = (): Promise<ReloadResult> => {
    if (args.mode === "demo" || args.configPath === undefined) {
      return Promise.resolve({ ok: false, problems: ["the demo has no config file to reload"] });
    }
    const path = args.configPath;
    // Concurrent reload requests share one read of the file.
    reloading ??= (async (): Promise<ReloadResult> => {
      try {
        const next = await loadConfig(path);
        await exporter.applyConfig(next);
        logger.info({ file: path }, "configuration reloaded");
        return { ok: true, problems: [] };
      } catch (err) {
        exporter.rejectedConfig();
        const problems =
          err instanceof ConfigError
            ? err.problems.map((p) => `${p.path}: ${p.message}`)
            : [(err as Error).message];
        logger.error({ file: path, problems }, "configuration rejected; the previous one keeps running");
        return { ok: false, problems };
      } finally {
        reloading = undefined;
      }
    })();
    return reloading;
  };

  const app = createApp({
    metrics: (h) => exporter.metrics(h),
    landing: () => exporter.landing(),
    ready: () => exporter.ready(),
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

  await exporter.start();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(listen.port, listen.host, () => resolve());
    });
  } catch (err) {
    logger.fatal({ err: (err as Error).message, listen: args.listen }, "cannot listen");
    await exporter.stop();
    await closeDemo?.();
    return EXIT_FAILURE;
  }
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : listen.port;
  logger.info(
    {
      listen: `${listen.host}:${port}`,
      tls: Boolean(web?.tls),
      clusters: exporter.clusters().length,
      demo: args.mode === "demo",
    },
    "vdbcloud-exporter listening",
  );

  process.on("SIGHUP", () => void reload());
  // Editing a mounted ConfigMap is enough: the file is reloaded as on SIGHUP.
  const configPath = args.mode === "run" ? args.configPath : undefined;
  const unwatchConfig =
    configPath === undefined
      ? undefined
      : watchPath(configPath, CONFIG_WATCH_INTERVAL_MS, () => {
          logger.info({ file: configPath }, "configuration file changed; reloading");
          void reload();
        });
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, "shutting down");
      unwatchConfig?.();
      // A stuck poll or socket must not keep the process alive: bound the whole shutdown.
      const hard = setTimeout(() => resolve(EXIT_OK), 5000);
      hard.unref();
      server.closeIdleConnections();
      const closed = new Promise<void>((r) => server.close(() => r()));
      void Promise.allSettled([exporter.stop(), closed, closeDemo?.()]).then(() => {
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fatal: ${(err as Error)?.message ?? String(err)}\n`);
    process.exit(EXIT_FAILURE);
  },
);
