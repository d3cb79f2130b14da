/**
 * Child process of one baseline (prom-client, or the static floor), so that each runs like
 * the exporter does: in a process of its own, undisturbed by the other's garbage collection.
 * Command `start` takes either the exporter's text exposition (prom-client) or its four
 * answers (static) and returns the server's origin.
 */
import { type StaticBodies, startPromClientServer, startStaticServer } from "./baselineServers.js";
import { parseExposition } from "./exposition.js";
import { serveRpc } from "./ipc.js";
import { buildRegistries } from "./promBaseline.js";

/** Arguments of `start`: what to serve. */
export type BaselineStartArgs =
  | { readonly kind: "prom-client"; readonly exposition: string }
  | { readonly kind: "static"; readonly bodies: StaticBodies };

/** Result of `start`. `series` and `buildMs` describe the prom-client registry (0 for static). */
export interface BaselineInfo {
  readonly url: string;
  readonly series: number;
  readonly buildMs: number;
}

serveRpc({
  start: async (raw): Promise<BaselineInfo> => {
    const args = raw as BaselineStartArgs;
    if (args.kind === "static")
      return { url: (await startStaticServer(args.bodies)).url, series: 0, buildMs: 0 };
    const started = performance.now();
    const registries = buildRegistries(parseExposition(args.exposition));
    const buildMs = performance.now() - started;
    return { url: (await startPromClientServer(registries)).url, series: registries.series, buildMs };
  },
});

process.on("disconnect", () => process.exit(0));
