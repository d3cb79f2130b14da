/** The dashboards this project ships, and the file each one is written to. */
import { withNativeSources } from "../../scripts/native.js";
import { type DashboardSpec, renderDashboard } from "../lib/panels.js";
import { cluster } from "./cluster.js";
import { collections } from "./collections.js";
import { cost } from "./cost.js";
import { dataProtection } from "./dataProtection.js";
import { exporter } from "./exporter.js";
import { jobs } from "./jobs.js";
import { overview } from "./overview.js";
import { slo } from "./slo.js";

/** A dashboard spec and its file name under grafana/dashboards/. */
export interface DashboardFile {
  readonly file: string;
  readonly spec: DashboardSpec;
}

/**
 * `spec` with every panel query reading "the exporter's family, or its native recording"
 * (scripts/native.ts, the one place that writes it), so a cluster Prometheus scrapes through
 * the service's own endpoint looks like a polled one. Boards are written over the exporter's
 * families only.
 */
export function readingEitherSource(spec: DashboardSpec): DashboardSpec {
  return {
    ...spec,
    rows: spec.rows.map((row) => ({
      ...row,
      panels: row.panels.map((panel) => ({
        ...panel,
        queries: panel.queries.map((q) => ({ ...q, expr: withNativeSources(q.expr) })),
      })),
    })),
  };
}

/**
 * Every shipped dashboard, in menu order. The exporter's own dashboard reads the exporter alone:
 * its data age is that of the exporter's polls.
 */
export const DASHBOARD_FILES: readonly DashboardFile[] = [
  { file: "vdbcloud-overview.json", spec: readingEitherSource(overview) },
  { file: "vdbcloud-cluster.json", spec: readingEitherSource(cluster) },
  { file: "vdbcloud-collections.json", spec: readingEitherSource(collections) },
  { file: "vdbcloud-jobs.json", spec: readingEitherSource(jobs) },
  { file: "vdbcloud-data-protection.json", spec: readingEitherSource(dataProtection) },
  { file: "vdbcloud-cost.json", spec: readingEitherSource(cost) },
  { file: "vdbcloud-slo.json", spec: readingEitherSource(slo) },
  { file: "vdbcloud-exporter.json", spec: exporter },
];

/** File name -> rendered Grafana JSON model, exactly what `grafana/generate.ts` writes. */
export function renderAll(): Map<string, ReturnType<typeof renderDashboard>> {
  return new Map(DASHBOARD_FILES.map(({ file, spec }) => [file, renderDashboard(spec)]));
}
