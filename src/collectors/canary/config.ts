/**
 * The `canary` section (docs/design.md section 4, docs/canary.md): read-only probes of chosen
 * collections through each cluster's data plane. Off by default: no target, no task.
 */
import * as z from "zod";
import { durationField, textField } from "../../config/fields.js";
import { CLUSTER_ID } from "../../config/schema/clusters.js";
import { DAY, MINUTE, SECOND } from "../../config/schema/common.js";
import {
  type Ctx,
  isRecord,
  nullAsAbsent,
  optional,
  section,
  sectionError,
  text,
  uniqueList,
} from "../../config/schemaKit.js";
import { configSection, type SectionSettings } from "../../config/section.js";
import { formatDuration } from "../../shared/duration.js";

/** What a probe does: a search of one vector (the default), or a query. */
export const CANARY_OPERATIONS = ["search", "query"] as const;

/** One of {@link CANARY_OPERATIONS}. */
export type CanaryOperation = (typeof CANARY_OPERATIONS)[number];

const targetSchema = z
  .strictObject(
    {
      cluster_id: textField({
        regex: CLUSTER_ID,
        description: "a cluster ID of letters, digits and - (in01-0123456789abcdef)",
      }),
      db_name: textField().default("default"),
      collection_name: textField(),
      operation: z.enum(CANARY_OPERATIONS, { error: "must be search or query" }).default("search"),
      filter: textField().optional(),
    },
    { error: sectionError },
  )
  .superRefine((target, ctx) => {
    if (target.filter !== undefined && target.operation !== "query") {
      ctx.addIssue({
        code: "custom",
        message: "is for operation query only (a search probe sends no filter)",
        path: ["filter"],
        input: target.filter,
      });
    }
  });

/** A target's identity as the file writes it: its series' labels. */
function targetIdentity(t: Record<string, unknown>): string | undefined {
  const cluster = text(t.cluster_id);
  const collection = text(t.collection_name);
  if (cluster === undefined || collection === undefined) return undefined;
  return JSON.stringify([cluster, text(t.db_name) ?? "default", collection, text(t.operation) ?? "search"]);
}

const canarySchema = section({
  interval: durationField({ min: 10 * SECOND, max: DAY }).default(MINUTE),
  timeout: durationField({ min: 100, max: MINUTE }).default(5 * SECOND),
  targets: nullAsAbsent(
    uniqueList(targetSchema, targetIdentity, (first) => `duplicate of targets[${first}]`).default([]),
  ),
})
  .superRefine((canary, ctx) => {
    if (canary.timeout >= canary.interval) {
      ctx.addIssue({
        code: "custom",
        message: `must be shorter than interval (${formatDuration(canary.interval)})`,
        path: ["timeout"],
        input: canary.timeout,
      });
    }
  })
  .transform((canary) => ({
    /** Every target of a cluster is probed once per interval, one after another. */
    intervalMs: canary.interval,
    /** A probe without a complete answer this long after it may leave is a timeout. */
    timeoutMs: canary.timeout,
    targets: canary.targets.map((t) => ({
      clusterId: t.cluster_id,
      dbName: t.db_name,
      collectionName: t.collection_name,
      operation: t.operation,
      ...optional("filter", t.filter),
    })),
  }));

/**
 * Without cluster discovery, a target's cluster must be one the config lists: a typo would never
 * be probed, silently. With it, the target waits for the cluster to be found.
 */
function checkTargets(file: Readonly<Record<string, unknown>>, ctx: Ctx): void {
  if (!isRecord(file.canary) || !Array.isArray(file.canary.targets)) return;
  const inventory = isRecord(file.inventory) ? file.inventory : {};
  if (isRecord(inventory.discovery) && inventory.discovery.enabled === true) return;
  const configured = new Set(
    (Array.isArray(file.clusters) ? file.clusters : []).map((entry: unknown) => {
      const cluster = isRecord(entry) && isRecord(entry.settings) ? entry.settings : entry;
      return isRecord(cluster) ? text(cluster.id) : undefined;
    }),
  );
  file.canary.targets.forEach((target: unknown, i) => {
    // The section as parsed (camelCase), or as written when it failed.
    const id = isRecord(target) ? (text(target.clusterId) ?? text(target.cluster_id)) : undefined;
    if (id === undefined || !CLUSTER_ID.test(id) || configured.has(id)) return;
    ctx.addIssue({
      code: "custom",
      message: `${id} is not a polled cluster: list it under clusters, or enable inventory.discovery`,
      path: ["canary", "targets", i, "cluster_id"],
      input: id,
    });
  });
}

export const CANARY_SECTION = configSection("canary", () => canarySchema, { check: checkTargets });

/** One target of `canary.targets`, as the config holds it. */
export type CanaryTarget = z.output<typeof canarySchema>["targets"][number];

// Its settings join the framework's `Config` (config/section.ts `CollectorSections`).
declare module "../../config/section.js" {
  interface CollectorSections extends SectionSettings<typeof CANARY_SECTION> {}
}
