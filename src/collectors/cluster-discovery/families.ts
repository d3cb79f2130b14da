/** What cluster discovery reports of its own finding (docs/metrics.md). */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** Cluster discovery's own report (List Clusters v2), under collector "inventory", target "discovery". */
export const CLUSTER_DISCOVERY_FAMILIES = {
  clustersNotPolled: gauge("vdbcloud_discovered_clusters_not_polled", {
    help: "Clusters List Clusters found beyond inventory.discovery.max_clusters, which no collector polls (the first by cluster ID are kept) (source: the exporter's cluster discovery).",
    labels: [],
    unit: "count",
    source: `${ENDPOINT.listClusters}, the listed clusters beyond inventory.discovery.max_clusters`,
    absent: "with inventory.discovery.enabled false, or until the first listing succeeded",
  }),
} as const;
