/**
 * Module footprint at start: the exporter's RSS, after a full garbage collection, once it is
 * ready with one cluster (every module it loads in normal running is loaded, and it holds a
 * few dozen series), against plain Node in the same state (`node -e` after a collection).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startExporterProcess, startSimProcess, stopSimProcess, waitFor200 } from "./children.js";
import { scenarioConfig, writeConfigFile } from "./config.js";
import type { Runtime } from "./runtime.js";

const run = promisify(execFile);

/** RSS and heap of the exporter at rest, and plain Node's RSS, in bytes. */
export interface Footprint {
  readonly exporterRssBytes: number;
  readonly exporterHeapUsedBytes: number;
  readonly nodeRssBytes: number;
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
      execArgv: ["--expose-gc", ...runtime.nodeFlags],
      env: runtime.env,
    });
    try {
      await waitFor200(`${ex.url}/readyz`, 60_000, 200);
      // One scrape of each kind: the code of a scrape is loaded too.
      for (const headers of [{}, { "accept-encoding": "gzip" }]) {
        await (await fetch(`${ex.url}/metrics`, { headers })).arrayBuffer();
      }
      const mem = await ex.handle.rpc.call<NodeJS.MemoryUsage>("memory");
      const plain = await run(
        process.execPath,
        [
          "--expose-gc",
          ...runtime.nodeFlags,
          "-e",
          "setTimeout(() => { gc(); process.stdout.write(String(process.memoryUsage.rss())); }, 200)",
        ],
        { env: { ...process.env, ...runtime.env } },
      );
      return {
        exporterRssBytes: mem.rss,
        exporterHeapUsedBytes: mem.heapUsed,
        nodeRssBytes: Number(plain.stdout),
      };
    } finally {
      await ex.handle.stop();
    }
  } finally {
    await stopSimProcess(sim.handle);
  }
}
