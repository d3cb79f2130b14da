/**
 * The `native_export` section (docs/design.md section 4): which polled clusters the service's own
 * Prometheus endpoint serves (GET {base_url}/v2/clusters/{id}/metrics/export, Enterprise clusters
 * only), listed for Prometheus at /sd/native-export, and whether their metric queries are saved.
 * Its cross-field rules read the rest of the file: the clusters' plans come from inventory or cluster discovery,
 * and a listed ID must be a cluster the exporter can poll.
 */
import * as z from "zod";
import { settingsSection } from "../camelSettings.js";
import { boolField } from "../fields.js";
import { nullAsAbsent } from "../schemaKit.js";
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

export const nativeExportSchema = settingsSection({
  /** List the natively served clusters at /sd/native-export (else it answers 404). */
  enabled: boolField().default(false),
  /**
   * "auto": every polled cluster whose plan is Enterprise; else only these IDs, and still only
   * when their plan is Enterprise.
   */
  clusters: nullAsAbsent(clustersField.default(AUTO)),
  /** No Query Cluster Metrics call for a natively served cluster once its plan is known. */
  skip_metric_queries: boolField().default(true),
});
