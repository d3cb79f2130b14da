/**
 * Writes docs/metrics.md from the family catalog (see scripts/metricsDoc.ts): part of
 * `npm run generate`. A test fails when the committed file differs from what this writes.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { METRICS_DOC_FILE, renderMetricsDoc } from "./metricsDoc.js";

const path = join(import.meta.dirname, "..", METRICS_DOC_FILE);
writeFileSync(path, renderMetricsDoc());
process.stdout.write(`wrote ${path}\n`);
