/** The dashboards this project ships, and the file each one is written to. */
import { type DashboardSpec, renderDashboard } from "../lib/panels.js";
import { cluster } from "./cluster.js";
import { collections } from "./collections.js";
import { cost } from "./cost.js";
import { dataProtection } from "./dataProtection.js";
import { exporter } from "./exporter.js";
import { jobs } from "./jobs.js";
import { overview } from "./overview.js";

/** A dashboard spec and its file name under grafana/dashboards/. */
export interface DashboardFile {
  readonly file: string;
  readonly spec: DashboardSpec;
}

/** Every shipped dashboard, in menu order. */
export const DASHBOARD_FILES: readonly DashboardFile[] = [
  { file: "vdbcloud-overview.json", spec: overview },
  { file: "vdbcloud-cluster.json", spec: cluster },
  { file: "vdbcloud-collections.json", spec: collections },
  { file: "vdbcloud-jobs.json", spec: jobs },
  { file: "vdbcloud-data-protection.json", spec: dataProtection },
  { file: "vdbcloud-cost.json", spec: cost },
  { file: "vdbcloud-exporter.json", spec: exporter },
];

/** File name -> rendered Grafana JSON model, exactly what `grafana/generate.ts` writes. */
export function renderAll(): Map<string, ReturnType<typeof renderDashboard>> {
  return new Map(DASHBOARD_FILES.map(({ file, spec }) => [file, renderDashboard(spec)]));
}
