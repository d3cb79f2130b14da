/**
 * Writes docs/metrics.md, and the README's table of families by area, from the family catalog
 * (see scripts/metricsDoc.ts): part of `npm run generate`. A test fails when either differs from
 * what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { METRICS_DOC_FILE, README_FILE, renderMetricsDoc, renderReadme } from "./metricsDoc.js";

const root = join(import.meta.dirname, "..");
writeFileSync(join(root, METRICS_DOC_FILE), renderMetricsDoc());
const readme = join(root, README_FILE);
writeFileSync(readme, renderReadme(readFileSync(readme, "utf8")));
process.stdout.write(`wrote ${METRICS_DOC_FILE} and the families table of ${README_FILE}\n`);
