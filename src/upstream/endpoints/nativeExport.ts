/**
 * The service's own Prometheus endpoint of a cluster (Enterprise clusters only). The client never
 * calls it: Prometheus scrapes it directly, and the exporter only hands out the targets
 * (polling/nativeExport.ts). Its path is declared here, with every other path of the service.
 */

/** The endpoint's path for one cluster, after `base_url`'s own path prefix. */
export const NATIVE_EXPORT_PATH = "/v2/clusters/{id}/metrics/export";
