/**
 * Module footprint at start: the exporter's RSS, after a full garbage collection, once it is
 * ready with one cluster (every module it loads in normal running is loaded, and it holds a
 * few dozen series), against plain Node and against Node holding only the exporter's runtime
 * dependencies (restingNode.ts), each in the same state. Each is split into anonymous and
 * file-backed pages where /proc tells (resident.ts).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startExporterProcess, startSimProcess, stopSimProcess, waitFor200 } from "./children.js";
import { scenarioConfig, writeConfigFile } from "./config.js";
import type { RestingMemory } from "./resident.js";
import { exporterLaunch, type Runtime } from "./runtime.js";

const run = promisify(execFile);

/**
 * The runtime dependencies (package.json) as the exporter loads them: undici as its Pool and
 * request alone (src/upstream/undici.ts). footprint.test.ts checks this list against
 * package.json, so a new dependency cannot be left out of the comparison.
 */
export const RUNTIME_MODULES: readonly string[] = [
  "bcryptjs",
  "express",
  "pino",
  "prom-client",
  "tinyduration",
  "undici/lib/dispatcher/pool.js",
  "undici/lib/api/api-request.js",
  "yaml",
  "zod",
];

/** The exporter at rest, plain Node, and Node with the runtime dependencies only. */
export interface Footprint {
  readonly exporter: RestingMemory;
  readonly node: RestingMemory;
  readonly dependencies: RestingMemory;
}

async function restingNode(runtime: Runtime, modules: readonly string[]): Promise<RestingMemory> {
  const launch = exporterLaunch(runtime, process.env, ["--expose-gc"]);
  const { stdout } = await run(
    process.execPath,
    [...launch.execArgv, fileURLToPath(new URL("./restingNode.js", import.meta.url)), ...modules],
    { env: launch.env },
  );
  return JSON.parse(stdout) as RestingMemory;
}

export async function measureFootprint(runtime: Runtime): Promise<Footprint> {
  const sim = await startSimProcess({
    clusters: 1,
    seed: 1,
    collectionsPerCluster: 1,
    rateLimitPerSecond: 20,
    recordMetricRequests: false,
  });
  try {
    const cfg = await writeConfigFile(
      "footprint",
      scenarioConfig({
        sim: sim.info,
        apiKey: "footprint-key",
        intervalMs: 30_000,
        collectors: { importJobs: true, sparkJobs: true, inventory: true },
      }),
    );
    const ex = await startExporterProcess(cfg, {
      runtime,
      execArgv: ["--expose-gc"],
    });
    try {
      await waitFor200(`${ex.url}/readyz`, 60_000, 200);
      // One scrape of each kind: the code of a scrape is loaded too.
      for (const headers of [{}, { "accept-encoding": "gzip" }]) {
        await (await fetch(`${ex.url}/metrics`, { headers })).arrayBuffer();
      }
      return {
        exporter: await ex.handle.rpc.call<RestingMemory>("resting"),
        node: await restingNode(runtime, []),
        dependencies: await restingNode(runtime, RUNTIME_MODULES),
      };
    } finally {
      await ex.handle.stop();
    }
  } finally {
    await stopSimProcess(sim.handle);
  }
}

const mib = (b: number) => (b / 1024 / 1024).toFixed(1);

/** "75.0 MiB (30.0 anonymous + 45.0 file-backed)", or the RSS alone where the split is unknown. */
export function formatResting(f: RestingMemory): string {
  if (f.anonymousBytes === null || f.fileBytes === null) return `${mib(f.rssBytes)} MiB`;
  return `${mib(f.rssBytes)} MiB (${mib(f.anonymousBytes)} anonymous + ${mib(f.fileBytes)} file-backed)`;
}
