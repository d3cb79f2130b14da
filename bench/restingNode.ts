/**
 * A Node process that imports the modules named on its command line (none: plain Node), waits
 * for start-up work to settle, runs a full collection and prints its RestingMemory as JSON on
 * stdout. footprint.ts compares the exporter with it: plain Node, and Node holding only the
 * exporter's runtime dependencies, loaded as the exporter loads them.
 */
import { restingMemory } from "./resident.js";

for (const specifier of process.argv.slice(2)) await import(specifier);
setTimeout(() => {
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write(JSON.stringify(restingMemory()));
}, 200);
