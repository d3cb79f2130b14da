/**
 * Child process of the baselines (prom-client and the static floor), so that they run like
 * the exporter does: in a process of their own. Command `start` takes the exporter's text
 * exposition and its four answers; it returns the two servers' origins.
 */
import { startPromClientServer, startStaticServer, type StaticBodies } from "./baselineServers.js";
import { parseExposition } from "./exposition.js";
import { serveRpc } from "./ipc.js";
import { buildRegistries } from "./promBaseline.js";

/** Arguments of `start`. */
export interface BaselineStartArgs {
  readonly exposition: string;
  readonly bodies: StaticBodies;
}

/** Result of `start`. */
export interface BaselineInfo {
  readonly promClientUrl: string;
  readonly staticUrl: string;
  readonly series: number;
  readonly buildMs: number;
}

serveRpc({
  start: async (raw): Promise<BaselineInfo> => {
    const args = raw as BaselineStartArgs;
    const started = performance.now();
    const registries = buildRegistries(parseExposition(args.exposition));
    const buildMs = performance.now() - started;
    const prom = await startPromClientServer(registries);
    const stat = await startStaticServer(args.bodies);
    return { promClientUrl: prom.url, staticUrl: stat.url, series: registries.series, buildMs };
  },
});

process.on("disconnect", () => process.exit(0));
