/**
 * A canary target's series as samples: pure, from what its probes added up (state.ts).
 */
import { MappingBuilder } from "../../metrics/builder.js";
import type { MappingResult } from "../../metrics/sample.js";
import type { CanaryTarget } from "./config.js";
import { CANARY_FAMILIES as F } from "./families.js";
import type { TargetSeries } from "./state.js";
import { CANARY_OUTCOMES } from "./vector.js";

/** The samples of one target: up, last success (once there was one), durations, outcomes, vCU. */
export function mapCanary(target: CanaryTarget, series: TargetSeries): MappingResult {
  const labels = {
    cluster_id: target.clusterId,
    db_name: target.dbName,
    collection_name: target.collectionName,
    operation: target.operation,
  };
  const out = new MappingBuilder();
  out.add(F.up, labels, series.up ? 1 : 0);
  if (series.lastSuccessMs !== null) out.add(F.lastSuccess, labels, series.lastSuccessMs / 1000);
  out.addHistogram(F.duration, labels, series.durations);
  for (const outcome of CANARY_OUTCOMES)
    out.add(F.requests, { ...labels, outcome }, series.requests[outcome]);
  out.add(F.vcu, labels, series.vcu);
  return out.result();
}
