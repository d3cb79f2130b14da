/**
 * The `native_export` section (docs/design.md section 4): which polled clusters the service's own
 * Prometheus endpoint serves (GET {base_url}/v2/clusters/{id}/metrics/export, Enterprise clusters
 * only), listed for Prometheus at /sd/native-export, and whether their metric queries are saved.
 * Its cross-field rules read the rest of the file: the clusters' plans come from inventory or cluster discovery,
 * and a listed ID must be a cluster the exporter can poll.
 */
import * as z from "zod";
import { boolField } from "../fields.js";
import { type Ctx, isRecord, nullAsAbsent, section, text } from "../schemaKit.js";
import { CLUSTER_ID } from "./clusters.js";
import { idList } from "./common.js";

/** `clusters: auto`: every polled cluster whose plan is Enterprise. */
const AUTO = "auto";

const LISTED = 'must be "auto" or a non-empty list of cluster IDs';

/** `auto`, or a non-empty list of well-formed cluster IDs, each once. */
const clustersField = z.union(
  [
    z.literal(AUTO),
    idList("native_export.clusters", {
      regex: CLUSTER_ID,
      description: "a cluster ID of letters, digits and - (in01-0123456789abcdef)",
    }).min(1, { error: LISTED }),
  ],
  { error: LISTED },
);

export const nativeExportSchema = section({
  enabled: boolField().default(false),
  clusters: nullAsAbsent(clustersField.default(AUTO)),
  skip_metric_queries: boolField().default(true),
}).transform((native) => ({
  /** List the natively served clusters at /sd/native-export (else it answers 404). */
  enabled: native.enabled,
  /**
   * "auto": every polled cluster whose plan is Enterprise; else only these IDs, and still only
   * when their plan is Enterprise.
   */
  clusters: native.clusters,
  /** No Query Cluster Metrics call for a natively served cluster once its plan is known. */
  skipMetricQueries: native.skip_metric_queries,
}));

/**
 * The rules across sections, on the whole file (a section that failed may still be raw): the
 * plans that select clusters come from Describe Cluster (inventory) or List Clusters
 * (cluster discovery), so one of them must run; without cluster discovery, a listed ID must be a configured
 * cluster (a typo would otherwise never be served, silently); an in03- cluster is free by its
 * ID, and the service serves Enterprise clusters only.
 */
export function checkNativeExport(file: unknown, ctx: Ctx): void {
  if (!isRecord(file) || !isRecord(file.native_export)) return;
  const native = file.native_export;
  if (native.enabled !== true) return;
  const inventory = isRecord(file.inventory) ? file.inventory : {};
  const inventoryOn = inventory.enabled !== false;
  const discovery = isRecord(inventory.discovery) ? inventory.discovery : {};
  const clusterDiscoveryOn = discovery.enabled === true;
  if (!inventoryOn && !clusterDiscoveryOn) {
    ctx.addIssue({
      code: "custom",
      message:
        "needs the clusters' plans: enable inventory (Describe Cluster) or inventory.discovery (List Clusters)",
      path: ["native_export", "enabled"],
      input: native.enabled,
    });
  }
  if (!Array.isArray(native.clusters)) return;
  const configured = new Set(
    (Array.isArray(file.clusters) ? file.clusters : []).map((entry: unknown) => {
      const cluster = isRecord(entry) && isRecord(entry.settings) ? entry.settings : entry;
      return isRecord(cluster) ? text(cluster.id) : undefined;
    }),
  );
  native.clusters.forEach((id: unknown, i) => {
    if (typeof id !== "string" || !CLUSTER_ID.test(id)) return;
    if (id.startsWith("in03-")) {
      ctx.addIssue({
        code: "custom",
        message: `${id} is a free cluster (in03-): the service's own endpoint serves Enterprise clusters only`,
        path: ["native_export", "clusters", i],
        input: id,
      });
    } else if (!clusterDiscoveryOn && !configured.has(id)) {
      ctx.addIssue({
        code: "custom",
        message: `${id} is not a polled cluster: list it under clusters, or enable inventory.discovery`,
        path: ["native_export", "clusters", i],
        input: id,
      });
    }
  });
}
