/**
 * List Backups (v2): GET /v2/backups?clusterId=&pageSize=&currentPage=, organisation-wide
 * without a filter; `data` is `{count, currentPage, pageSize, backups}`. Only AVAILABLE and
 * CREATING backups are listed: a failed backup never appears.
 *
 * Get Backup Policy (v2): GET /v2/clusters/{id}/backups/policy: `{clusterId, status,
 * startTime, frequency, retentionDays, crossRegionCopies}` (dedicated clusters only).
 *
 * Both are read tolerantly: numbers may come as strings, and a backup whose fields the gauges
 * do not need are unreadable is still counted.
 */
import { z } from "zod";
import { lenient, lenientText, lenientTextOrEmpty, lenientTimestampMs } from "../lenient.js";
import type { Backup, BackupPage, BackupPolicy } from "../results.js";
import { numeric, pageDataSchema, pageInfoOf, pageQuery, stringish } from "../wire.js";
import { defineEndpoint, PAGES, V2 } from "./define.js";

/** Arguments of List Backups. Page numbers start at 1; no clusterId: the whole organisation. */
interface ListBackupsArgs {
  readonly clusterId?: string;
  readonly pageSize: number;
  readonly currentPage: number;
}

const backupSchema = z.object({
  backupId: stringish,
  clusterId: stringish,
  projectId: lenientText,
  backupType: lenientTextOrEmpty,
  creationMethod: lenientTextOrEmpty,
  status: z.string().trim().min(1, { message: "expected a non-empty status" }),
  size: lenient(numeric),
  createTime: lenientTimestampMs,
});

/** The envelope's `data` of List Backups. */
const backupsDataSchema = pageDataSchema("backups", backupSchema);

type BackupsData = z.infer<typeof backupsDataSchema>;

/** Maps `data` to a page; a missing list is an empty page. */
function normalizeBackups(data: BackupsData): BackupPage {
  const backups: Backup[] = (data.backups ?? []).map((b) => ({
    backupId: b.backupId,
    clusterId: b.clusterId,
    projectId: b.projectId,
    backupType: b.backupType,
    creationMethod: b.creationMethod,
    status: b.status,
    sizeBytes: b.size,
    createTimeMs: b.createTime,
  }));
  return { ...pageInfoOf(data, backups.length), backups };
}

/** List Backups (v2). */
export const listBackupsEndpoint = defineEndpoint("GET /v2/backups", {
  scope: "account",
  paging: PAGES("count"),
}).as<ListBackupsArgs, BackupsData, BackupPage>({
  request: (args) => ({
    target: V2,
    query: {
      ...(args.clusterId === undefined ? {} : { clusterId: args.clusterId }),
      ...pageQuery(args),
    },
  }),
  schema: backupsDataSchema,
  normalize: normalizeBackups,
});

/** The envelope's `data` of Get Backup Policy. */
const backupPolicyDataSchema = z.object({
  clusterId: stringish.nullish(),
  status: z.string().trim().min(1, { message: "expected a non-empty status" }),
  startTime: lenientText,
  frequency: lenient(z.union([z.string(), z.array(numeric).transform((days) => days.join(","))])),
  retentionDays: lenient(numeric),
  crossRegionCopies: lenient(z.array(z.unknown())),
});

type BackupPolicyData = z.infer<typeof backupPolicyDataSchema>;

/** Maps `data` to a policy; the asked cluster fills a missing clusterId. */
function normalizeBackupPolicy(data: BackupPolicyData, clusterId: string): BackupPolicy {
  return {
    clusterId: data.clusterId ?? clusterId,
    status: data.status,
    frequency: data.frequency,
    startTime: data.startTime,
    retentionDays: data.retentionDays,
    crossRegionCopies: data.crossRegionCopies?.length ?? 0,
  };
}

/** Get Backup Policy (v2). */
export const getBackupPolicyEndpoint = defineEndpoint("GET /v2/clusters/{id}/backups/policy", {
  scope: "cluster",
  paging: "none",
}).as<string, BackupPolicyData, BackupPolicy>({
  request: (clusterId) => ({ target: V2, params: { id: clusterId } }),
  schema: backupPolicyDataSchema,
  normalize: normalizeBackupPolicy,
});
