/**
 * The one list of collectors. Adding a collector means a folder under src/collectors and one
 * line here: the scheduler, the polling schedule of `--check-config`, the self-metrics and the landing
 * page all take their collectors from this list (the exporter and the command line hand it to
 * the framework, which names no collector).
 */

import { type ConfigSection, registerSections } from "../config/section.js";
import {
  CLUSTER_FAMILIES,
  PROCESS_SELF_FAMILIES,
  PROCESS_SELF_HISTOGRAMS,
  TARGET_SELF_FAMILIES,
} from "../metrics/families.js";
import type { DeclaredArea } from "../metrics/reference.js";
import type { FamilyDef } from "../metrics/sample.js";
import type { TargetList } from "../polling/targetLists.js";
import { SLO_SECTION } from "../slo/config.js";
import { alertRulesCollector } from "./alert-rules/tasks.js";
import { apiKeysCollector } from "./api-keys/tasks.js";
import { backupPoliciesCollector, backupsCollector } from "./backups/tasks.js";
import { billingCollector } from "./billing/tasks.js";
import { canaryCollector } from "./canary/tasks.js";
import { clusterDiscoveryCollector } from "./cluster-discovery/tasks.js";
import { clusterMetricsCollector } from "./cluster-metrics/tasks.js";
import { collectionsCollector } from "./collections/tasks.js";
import { globalClustersCollector } from "./global-clusters/tasks.js";
import { groupsCollector } from "./groups/tasks.js";
import { importJobsCollector } from "./import-jobs/tasks.js";
import { inventoryCollector } from "./inventory/tasks.js";
import { jobsCollector } from "./jobs/tasks.js";
import { onDemandComputeCollector } from "./on-demand-compute/tasks.js";
import { pipelinesCollector } from "./pipelines/tasks.js";
import { privateEndpointsCollector } from "./private-endpoints/tasks.js";
import { sparkJobDiscoveryCollector } from "./spark-jobs/sparkJobDiscovery.js";
import { sparkJobsCollector } from "./spark-jobs/tasks.js";
import { storageIntegrationsCollector } from "./storage-integrations/tasks.js";

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
  privateEndpointsCollector,
  onDemandComputeCollector,
  storageIntegrationsCollector,
  apiKeysCollector,
  pipelinesCollector,
  canaryCollector,
  billingCollector,
] as const;

/** Every collector's config section, each once, in registry order. */
export const CONFIG_SECTIONS: readonly ConfigSection[] = [
  ...new Set(COLLECTORS.flatMap((c) => (c.config === undefined ? [] : [c.config]))),
];

// The config loader reads the sections the registry hands it; whatever loads a config has
// loaded this list first. The `slo` section is no collector's: it holds what the error-budget
// rules are rendered from (slo/config.ts), validated with the rest of the file.
registerSections([...CONFIG_SECTIONS, SLO_SECTION]);

/** Every list of targets the collectors' sections hold, each once, in registry order. */
export const TARGET_LISTS: readonly TargetList<unknown>[] = [...new Set(COLLECTORS.flatMap((c) => c.lists))];

/** What each collector label polls, in a line (collectors sharing a label joined), for the landing page. */
export const COLLECTOR_POLLS: ReadonlyMap<string, string> = new Map(
  [...new Set(COLLECTORS.map((c) => c.label))].map((label) => [
    label,
    COLLECTORS.filter((c) => c.label === label)
      .map((c) => c.polls)
      .join("; "),
  ]),
);

/** A value of the `collector` label of the self-metrics. */
type CollectorLabel = (typeof COLLECTORS)[number]["label"];

/** Every value of the `collector` label, once each, in registry order. */
export const COLLECTOR_LABELS: readonly CollectorLabel[] = [...new Set(COLLECTORS.map((c) => c.label))];

/**
 * Every fixed family of the exporter, each once: the framework's own (cluster metrics and the
 * health and process families, histograms excepted) and every collector's. Families of upstream
 * metrics missing from the catalog are named at run time and are not listed.
 */
export const STATIC_FAMILIES: readonly FamilyDef[] = [
  ...new Set([
    ...Object.values(CLUSTER_FAMILIES),
    ...COLLECTORS.flatMap((c) => c.areas.flatMap((a) => Object.values(a.families))),
    ...Object.values(TARGET_SELF_FAMILIES),
    ...Object.values(PROCESS_SELF_FAMILIES),
  ]),
];

/**
 * The areas of the metrics reference (docs/metrics.md), in order: the cluster metrics, each
 * collector's areas in registry order, then the exporter's own.
 */
export const REFERENCE_AREAS: readonly DeclaredArea[] = [
  { title: "Cluster metrics", families: CLUSTER_FAMILIES },
  ...COLLECTORS.flatMap((c) => c.areas),
  { title: "Exporter health per target", families: TARGET_SELF_FAMILIES },
  { title: "Exporter process", families: PROCESS_SELF_FAMILIES },
  { title: "Exporter process histograms", families: PROCESS_SELF_HISTOGRAMS },
];
