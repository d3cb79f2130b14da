/**
 * The canary (docs/metrics.md, docs/canary.md): what a read-only search or query of a chosen
 * collection sees through the cluster's data plane, as the application would.
 */
import { counter, gauge, histogram } from "../../metrics/define.js";
import { DATA_PLANE_ENDPOINT } from "../../upstream/types.js";

/** Every canary series' labels: the target (cluster, database, collection) and its operation. */
export const CANARY_LABELS = ["cluster_id", "db_name", "collection_name", "operation"] as const;

/** The duration histogram's buckets: 5 ms to 10 s. */
export const CANARY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

const SOURCE = `${DATA_PLANE_ENDPOINT.search} (limit 1, a unit vector of the field Describe Collection gives), or ${DATA_PLANE_ENDPOINT.query} (limit 1) for operation query and for a search falling back to one`;

/** When no canary family has a series, whatever else its own entry adds. */
const NO_PROBE =
  "no series without canary.targets, for a target of a cluster another replica polls (or cluster discovery has not found yet), or before its first probe; a target no longer configured loses its series";

/** A canary target's probes: one Search or Query per target and interval. */
export const CANARY_FAMILIES = {
  up: gauge("vdbcloud_canary_up", {
    help: "Whether the target's last canary probe succeeded: 1 when its search or query answered, 0 when it failed, timed out or was refused (source: the exporter's canary, each canary.interval).",
    labels: [...CANARY_LABELS],
    unit: "1/0",
    source: SOURCE,
    absent: NO_PROBE,
  }),
  lastSuccess: gauge("vdbcloud_canary_last_success_timestamp_seconds", {
    help: "When the target's canary last succeeded, as Unix time in seconds (source: the exporter's canary, each canary.interval).",
    labels: [...CANARY_LABELS],
    source: SOURCE,
    absent: `${NO_PROBE}; none until a probe of the target succeeded since the exporter started`,
  }),
  duration: histogram("vdbcloud_canary_duration_seconds", {
    help: "Duration in seconds of each successful canary probe, from the request's first byte written to the answer's last byte read: the exporter's own queues (its rate limiter, its in-flight cap) are not in it, since the exporter started (source: the exporter's canary).",
    buckets: CANARY_BUCKETS,
    labels: [...CANARY_LABELS],
    unit: "seconds (histogram, 5 ms .. 10 s)",
    source: `${SOURCE}: the answer's time on the wire`,
    absent: `${NO_PROBE}; a probe that failed is counted by outcome, not timed`,
  }),
  requests: counter("vdbcloud_canary_requests_total", {
    help: "Canary probes of the target by outcome, since the exporter started: success, error (any failed answer or connection), timeout (no complete answer within canary.timeout), refused (the data plane refused the credential) (source: the exporter's canary).",
    labels: [...CANARY_LABELS, "outcome"],
    unit: "count (counter)",
    source: `${SOURCE}: the outcome of each probe`,
    absent: `${NO_PROBE}; each of the four outcomes has a series (0 until it happens) once the target was probed`,
  }),
  vcu: counter("vdbcloud_canary_vcu_total", {
    help: "vCU the service reported for the target's canary probes (the answers' cost, billed on free and serverless clusters), since the exporter started (source: the exporter's canary, upstream Search and Query cost).",
    labels: [...CANARY_LABELS],
    unit: "vCU (counter)",
    source: `${SOURCE}: the answer's cost`,
    absent: `${NO_PROBE}; stays 0 on a cluster whose answers carry no cost (dedicated clusters)`,
  }),
} as const;
