/**
 * What `--check-config` says of native_export: which clusters the service's own Prometheus
 * endpoint serves and which metric calls that saves. Offline no cluster's plan is known, so only the
 * clusters listed by ID count as native (taken as the Enterprise clusters the config says they
 * are); with `clusters: auto` the calls are counted as made, and a note says they stop once
 * inventory or cluster discovery shows a cluster is Enterprise.
 */
import type { Config } from "../config/types.js";
import { ENDPOINT, type EndpointTemplate } from "../upstream/types.js";
import type { CollectorTask } from "./model.js";
import { listedAsNative } from "./nativeExport.js";

/**
 * An endpoint's calls per cycle for one credential at one interval: what a row of the schedule
 * counts (schedule.ts `ScheduleRow` adds its budget), and what natively served clusters save.
 */
export interface CallRate {
  readonly endpoint: EndpointTemplate;
  readonly credential: string;
  readonly callsPerCycle: number;
  readonly intervalMs: number;
  /** callsPerCycle / interval in seconds. */
  readonly requestsPerSecond: number;
}

/** native_export as the schedule shows it. */
export interface NativeSchedule {
  readonly enabled: boolean;
  /** The clusters of this replica shown as native: the configured ones listed by ID. */
  readonly clusters: readonly string[];
  /** The metric calls they save, per credential and interval. */
  readonly saved: readonly CallRate[];
  readonly notes: readonly string[];
}

/** A task as the schedule counts it: what it calls, not how. */
export type CountedTask = Pick<CollectorTask, "id" | "credential" | "intervalMs" | "calls" | "nativeCluster">;

/** What the schedule keeps of a task. */
export function countedTask(t: CountedTask): CountedTask {
  return {
    id: t.id,
    credential: t.credential,
    intervalMs: t.intervalMs,
    calls: t.calls,
    ...(t.nativeCluster === undefined ? {} : { nativeCluster: t.nativeCluster }),
  };
}

/**
 * Whether a call of a task is saved by the service's own endpoint: a Query Cluster Metrics call
 * of a cluster `native_export` lists by ID (with skip_metric_queries).
 */
export function nativeSaves(config: Config): (task: CountedTask, endpoint: EndpointTemplate) => boolean {
  const listed = listedAsNative(config.nativeExport);
  return (task, endpoint) =>
    endpoint === ENDPOINT.queryClusterMetrics &&
    task.nativeCluster !== undefined &&
    listed.has(task.nativeCluster);
}

/**
 * The native part of the schedule of `tasks` (this replica's); `polled` are this replica's configured
 * clusters.
 */
export function nativeSchedule(
  config: Config,
  tasks: readonly CountedTask[],
  polled: readonly { readonly id: string }[],
): NativeSchedule {
  const native = config.nativeExport;
  if (!native.enabled) return { enabled: false, clusters: [], saved: [], notes: [] };
  const saves = nativeSaves(config);
  const here = new Set(polled.map((c) => c.id));
  const rows = new Map<string, { credential: string; intervalMs: number; calls: number }>();
  for (const task of tasks) {
    for (const call of task.calls) {
      if (!saves(task, call.endpoint)) continue;
      const key = `${task.credential}\u0000${task.intervalMs}`;
      const row = rows.get(key) ?? { credential: task.credential, intervalMs: task.intervalMs, calls: 0 };
      row.calls += call.count;
      rows.set(key, row);
    }
  }
  const notes = [
    "native_export: Prometheus scrapes the natively served clusters itself, through /sd/native-export (config/prometheus/native-export.yml), at most once a minute per cluster and key",
    "native_export: a cluster is served natively only when Describe Cluster or List Clusters shows its plan is Enterprise; Free, Serverless and Standard clusters are polled as before, even when listed",
  ];
  if (native.clusters === "auto") {
    notes.push(
      native.skipMetricQueries
        ? "native_export: clusters: auto: which clusters are Enterprise is learnt at run time; their Query Cluster Metrics calls are counted above, and not made once their plan is known (skip_metric_queries)"
        : "native_export: clusters: auto, skip_metric_queries: false: the Enterprise clusters' metric queries are still made",
    );
  } else {
    const elsewhere = native.clusters.filter((id) => !here.has(id));
    if (elsewhere.length > 0) {
      notes.push(
        `native_export.clusters lists clusters this replica does not poll from its config (another shard's, or found by discovery): ${elsewhere.join(", ")}`,
      );
    }
    if (!native.skipMetricQueries) {
      notes.push(
        "native_export: skip_metric_queries: false: the listed clusters' metric queries are still made",
      );
    }
  }
  return {
    enabled: true,
    clusters: native.clusters === "auto" ? [] : native.clusters.filter((id) => here.has(id)),
    saved: [...rows.values()].map((r) => ({
      endpoint: ENDPOINT.queryClusterMetrics,
      credential: r.credential,
      callsPerCycle: r.calls,
      intervalMs: r.intervalMs,
      requestsPerSecond: (r.calls * 1000) / r.intervalMs,
    })),
    notes,
  };
}
