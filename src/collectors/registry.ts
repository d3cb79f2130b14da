/**
 * The one list of collectors. Adding a collector means a folder under src/collectors and one
 * line here: the scheduler, the polling schedule of `--check-config`, the self-metrics and the landing
 * page all take their collectors from this list (the exporter and the command line hand it to
 * the framework, which names no collector).
 */

import { alertRulesCollector } from "./alert-rules/tasks.js";
import { backupPoliciesCollector, backupsCollector } from "./backups/tasks.js";
import { billingCollector } from "./billing/tasks.js";
import { clusterDiscoveryCollector } from "./cluster-discovery/tasks.js";
import { clusterMetricsCollector } from "./cluster-metrics/tasks.js";
import { collectionsCollector } from "./collections/tasks.js";
import { globalClustersCollector } from "./global-clusters/tasks.js";
import { groupsCollector } from "./groups/tasks.js";
import { importJobsCollector } from "./import-jobs/tasks.js";
import { inventoryCollector } from "./inventory/tasks.js";
import { jobsCollector } from "./jobs/tasks.js";
import { sparkJobDiscoveryCollector } from "./spark-jobs/sparkJobDiscovery.js";
import { sparkJobsCollector } from "./spark-jobs/tasks.js";

export const COLLECTORS = [
  clusterMetricsCollector,
  importJobsCollector,
  sparkJobsCollector,
  sparkJobDiscoveryCollector,
  jobsCollector,
  inventoryCollector,
  clusterDiscoveryCollector,
  collectionsCollector,
  groupsCollector,
  backupsCollector,
  backupPoliciesCollector,
  globalClustersCollector,
  alertRulesCollector,
  billingCollector,
] as const;

/** A value of the `collector` label of the self-metrics. */
type CollectorLabel = (typeof COLLECTORS)[number]["label"];

/** Every value of the `collector` label, once each, in registry order. */
export const COLLECTOR_LABELS: readonly CollectorLabel[] = [...new Set(COLLECTORS.map((c) => c.label))];
