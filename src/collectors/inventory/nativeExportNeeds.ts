/**
 * What native export needs of the inventory collector: the plans that select the natively served
 * clusters come from Describe Cluster (inventory) or List Clusters (cluster discovery), so one of
 * them must run, and only cluster discovery polls a cluster the config does not list.
 */

import { CLUSTER_ID } from "../../config/schema/clusters.js";
import { type Ctx, isRecord, text } from "../../config/schemaKit.js";

/**
 * The rules across sections, on the whole file (a section that failed may still be raw): the
 * plans that select clusters come from Describe Cluster (inventory) or List Clusters
 * (cluster discovery), so one of them must run; without cluster discovery, a listed ID must be a configured
 * cluster (a typo would otherwise never be served, silently); an in03- cluster is free by its
 * ID, and the service serves Enterprise clusters only.
 */
export function checkNativeExport(file: Readonly<Record<string, unknown>>, ctx: Ctx): void {
  if (!isRecord(file.native_export)) return;
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
