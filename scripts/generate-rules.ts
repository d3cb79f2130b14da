/**
 * Applies config/prometheus/thresholds.yml to config/prometheus/rules/alerts.yml, makes it and
 * recording.yml read either source, renders native.yml and its table in docs/monitoring.md
 * from scripts/native.ts, and slo.yml from config/example.yaml's `slo:` (see scripts/rules.ts):
 * `npm run rules`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ALERTS_FILE,
  EXAMPLE_CONFIG_FILE,
  MONITORING_DOC_FILE,
  NATIVE_FILE,
  RECORDING_FILE,
  renderAlerts,
  renderMonitoringDoc,
  renderNativeRules,
  renderRecording,
  renderShippedSloRules,
  SLO_FILE,
  THRESHOLDS_FILE,
} from "./rules.js";

const root = join(import.meta.dirname, "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const written: Array<readonly [string, string]> = [
  [ALERTS_FILE, renderAlerts(read(ALERTS_FILE), read(THRESHOLDS_FILE))],
  [RECORDING_FILE, renderRecording(read(RECORDING_FILE))],
  [NATIVE_FILE, renderNativeRules()],
  [SLO_FILE, renderShippedSloRules(read(EXAMPLE_CONFIG_FILE), read(THRESHOLDS_FILE))],
  [MONITORING_DOC_FILE, renderMonitoringDoc(read(MONITORING_DOC_FILE))],
];
for (const [path, text] of written) {
  writeFileSync(join(root, path), text);
  process.stdout.write(`wrote ${path}\n`);
}
