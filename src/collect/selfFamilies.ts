/**
 * Per-target self samples: whether a collector's last attempt on a target worked, when it last
 * did, and how fresh the upstream metric data is. They are samples (not prom-client metrics)
 * so that they live and go stale with the target's snapshot.
 */

import { clusterLabels, type MetricScope } from "../collectors/cluster-metrics/mapping.js";
import { MappingBuilder } from "./builder.js";
import { TARGET_SELF_FAMILIES as S } from "./families.js";
import type { MappingResult } from "./sample.js";

/** Collector names, the values of the `collector` label. */
export const COLLECTOR_NAMES = ["cluster_metrics", "import_jobs", "spark_jobs", "inventory"] as const;

/**
 * vdbcloud_collector_up{collector,target} (1 when `up`, else 0) and, when the target ever
 * succeeded, vdbcloud_collector_last_success_timestamp_seconds{collector,target}.
 */
export function collectorUpSamples(
  collector: string,
  target: string,
  up: boolean,
  lastSuccessSeconds: number | null,
): MappingResult {
  const out = new MappingBuilder();
  const labels = { collector, target };
  out.add(S.collectorUp, labels, up ? 1 : 0);
  if (lastSuccessSeconds !== null) out.add(S.collectorLastSuccess, labels, lastSuccessSeconds);
  return out.result();
}

/**
 * vdbcloud_metrics_newest_bucket_timestamp_seconds{cluster_id[,db_name,collection_name]} from
 * the `newestBucketMs` of mapClusterMetrics; no sample when there was no non-null bucket.
 */
export function newestBucketSamples(
  clusterId: string,
  scope: MetricScope | undefined,
  newestBucketMs: number | null,
): MappingResult {
  const out = new MappingBuilder();
  if (newestBucketMs !== null)
    out.add(S.newestBucket, clusterLabels(clusterId, scope), newestBucketMs / 1000);
  return out.result();
}
