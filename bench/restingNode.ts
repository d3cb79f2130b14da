/**
 * A Node process that imports the modules named on its command line (none: plain Node), waits
 * for start-up work to settle, runs a full collection and prints its resident memory and heap
 * as JSON on stdout. footprint.ts compares the exporter with it: plain Node, and Node holding
 * only the exporter's runtime dependencies, loaded as the exporter loads them.
 */
import { readResident } from "./resident.js";

/** What the process prints. */
export interface RestingMemory {
  readonly rssBytes: number;
  readonly anonymousBytes: number | null;
  readonly fileBytes: number | null;
  readonly heapUsedBytes: number;
}

for (const specifier of process.argv.slice(2)) await import(specifier);
setTimeout(() => {
  (globalThis as { gc?: () => void }).gc?.();
  const resident = readResident();
  const out: RestingMemory = {
    rssBytes: resident?.rssBytes ?? process.memoryUsage.rss(),
    anonymousBytes: resident?.anonymousBytes ?? null,
    fileBytes: resident?.fileBytes ?? null,
    heapUsedBytes: process.memoryUsage().heapUsed,
  };
  process.stdout.write(JSON.stringify(out));
}, 200);
