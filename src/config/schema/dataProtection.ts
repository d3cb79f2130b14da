/**
 * The `backups` and `global_clusters` sections (docs/design.md section 4): List Backups and Get
 * Backup Policy for the polled dedicated clusters, List Global Clusters and their replication lag.
 */
import { boolField, durationField } from "../fields.js";
import { section } from "../schemaKit.js";
import { DAY, HOUR, MINUTE, SECOND } from "./common.js";

export const backupsSchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(15 * MINUTE),
  policy_interval: durationField({ min: 30 * SECOND, max: DAY }).default(HOUR),
}).transform((backups) => ({
  enabled: backups.enabled,
  /** List Backups, every page. */
  intervalMs: backups.interval,
  /** Get Backup Policy per dedicated cluster: policies change rarely. */
  policyIntervalMs: backups.policy_interval,
}));

export const globalClustersSchema = section({
  enabled: boolField().default(true),
  interval: durationField({ min: 30 * SECOND, max: DAY }).default(MINUTE),
}).transform((global) => ({
  enabled: global.enabled,
  intervalMs: global.interval,
}));
