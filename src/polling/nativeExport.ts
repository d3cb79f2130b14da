/**
 * The service's own Prometheus endpoint (docs/design.md sections 4 and 7): GET
 * {base_url}/v2/clusters/{id}/metrics/export, Bearer API key, Enterprise clusters only, scraped
 * by Prometheus directly (the exporter proxies nothing). This module decides which polled
 * clusters it serves (`native_export`), and turns them into Prometheus HTTP service discovery
 * target groups (/sd/native-export). Pure: the plans and names come from ClusterKinds, the
 * clusters from the replica's selection (targets.ts), so each replica lists only its own.
 */
import type { ClusterConfig, Config } from "../config/types.js";
import { NATIVE_EXPORT_PATH } from "../upstream/endpoints/nativeExport.js";
import { joinUrl, segment } from "../upstream/urls.js";
import type { ClusterNames } from "./clusterKinds.js";

type NativeExportConfig = Config["nativeExport"];

/** The one plan (Describe Cluster / List Clusters `plan`, lower case) the endpoint serves. */
export const NATIVE_PLAN = "enterprise";

/** What the selection reads of the known clusters. */
interface KnownPlans {
  planOf(clusterId: string): string | undefined;
}

/** What the native targets' answer reads of the known clusters. */
interface KnownNames extends KnownPlans {
  namesOf(clusterId: string): ClusterNames | undefined;
}

/** Whether `native_export.clusters` names the cluster (`auto` names every one). */
function selected(native: NativeExportConfig, clusterId: string): boolean {
  return native.clusters === "auto" || native.clusters.includes(clusterId);
}

/**
 * Whether the service's own endpoint serves the cluster: native export is on, the config selects
 * it, and its plan is known to be Enterprise (a Free, Serverless or Standard cluster never is,
 * even when listed; a cluster whose plan is not known yet is not either).
 */
export function servedNatively(native: NativeExportConfig, known: KnownPlans, clusterId: string): boolean {
  return native.enabled && selected(native, clusterId) && known.planOf(clusterId) === NATIVE_PLAN;
}

/** Whether the exporter skips the cluster's Query Cluster Metrics calls (`skip_metric_queries`). */
export function skipsMetricQueries(
  native: NativeExportConfig,
  known: KnownPlans,
  clusterId: string,
): boolean {
  return native.skipMetricQueries && servedNatively(native, known, clusterId);
}

/**
 * The clusters whose metric calls `--check-config` counts as saved: without a running
 * inventory no plan is known, so only the clusters listed by ID, taken as the Enterprise
 * clusters the config says they are.
 */
export function listedAsNative(native: NativeExportConfig): ReadonlySet<string> {
  if (!native.enabled || !native.skipMetricQueries || native.clusters === "auto") return new Set();
  return new Set(native.clusters);
}

/** One target group of Prometheus's http_sd_configs format. */
export interface TargetGroup {
  readonly targets: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
}

/** The endpoint's path for one cluster, after `base_url`'s own path prefix (declared with the endpoints). */
export { NATIVE_EXPORT_PATH };

/** host:port of `base_url`, the port from the scheme when it names none. */
function hostPort(url: URL): string {
  return `${url.hostname}:${url.port === "" ? (url.protocol === "https:" ? "443" : "80") : url.port}`;
}

/**
 * One target group per natively served cluster of `clusters`, in cluster ID order: the target is
 * `base_url`'s host:port, `__scheme__` its scheme, `__metrics_path__` the endpoint's path (after
 * any path prefix of `base_url`), and `cluster_id`, `cluster_name`, `project_id`, `region_id`
 * label every series (the answers' names first, else the config's; empty when unknown), since the
 * endpoint's own series may carry no cluster label.
 */
export function nativeTargetGroups(
  config: Pick<Config, "api" | "nativeExport">,
  clusters: readonly Pick<ClusterConfig, "id" | "projectId" | "region">[],
  known: KnownNames,
): TargetGroup[] {
  if (!config.nativeExport.enabled) return [];
  const base = new URL(config.api.baseUrl);
  const target = hostPort(base);
  const scheme = base.protocol.replace(/:$/, "");
  return clusters
    .filter((c) => servedNatively(config.nativeExport, known, c.id))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => {
      const names = known.namesOf(c.id);
      return {
        targets: [target],
        labels: {
          __scheme__: scheme,
          __metrics_path__: joinUrl(config.api.baseUrl, NATIVE_EXPORT_PATH.replace("{id}", segment(c.id)))
            .pathname,
          cluster_id: c.id,
          cluster_name: names?.clusterName ?? "",
          project_id: names?.projectId ?? c.projectId ?? "",
          region_id: names?.regionId ?? c.region ?? "",
        },
      };
    });
}
