/**
 * Applies config/prometheus/thresholds.yml to config/prometheus/rules/alerts.yml (see
 * scripts/rules.ts): `npm run rules`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALERTS_FILE, renderAlerts, THRESHOLDS_FILE } from "./rules.js";

const root = join(import.meta.dirname, "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
writeFileSync(join(root, ALERTS_FILE), renderAlerts(read(ALERTS_FILE), read(THRESHOLDS_FILE)));
process.stdout.write(`wrote ${ALERTS_FILE}\n`);
