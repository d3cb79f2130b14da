/**
 * What a run of the exporter serves, settled before anything listens: the config (from its file,
 * or in demo mode from an embedded simulator started here), the address to listen on and the
 * web config. Kept apart from main.ts because the demo's start-up owns resources (the simulator,
 * a token directory) that every later failure must release.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "pino";
import { DEMO_CLUSTERS, demoConfig, demoRunOptions, startDemoSimulator } from "../app/demo.js";
import { type ListenAddress, parseListen } from "../config/listen.js";
import { buildConfig, loadConfig } from "../config/load.js";
import type { Config } from "../config/types.js";
import { loadWebConfig, type WebConfig } from "../config/webConfig.js";
import type { CliArgs } from "./args.js";
import { reportConfigError, type Step } from "./outcome.js";

/** What a run polls, and how to stop the demo's simulator when there is one. */
export interface RunConfig {
  readonly config: Config;
  readonly closeDemo: (() => Promise<void>) | undefined;
}

/** The config file, or in demo mode an embedded simulator and a config pointing at it. */
export async function loadRunConfig(args: CliArgs, logger: Logger): Promise<Step<RunConfig>> {
  let closeDemo: (() => Promise<void>) | undefined;
  try {
    if (args.mode === "demo") {
      const metricCatalog = args.demoMetricCatalog ?? "current";
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
export function listenAddress(args: CliArgs, config: Config): ListenAddress {
  return parseListen(
    args.listen ??
      `${config.server.host.includes(":") ? `[${config.server.host}]` : config.server.host}:${config.server.port}`,
  );
}

/** The web config file (TLS, basic auth, headers) when the config names one. */
export async function loadWeb(config: Config): Promise<Step<WebConfig | undefined>> {
  if (config.server.webConfigFile === undefined) return { value: undefined };
  try {
    return { value: await loadWebConfig(config.server.webConfigFile) };
  } catch (err) {
    return { exit: reportConfigError(err) };
  }
}
