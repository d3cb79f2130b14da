/**
 * A task that polls one cluster, written once for every collector with a task per cluster: its
 * target is the cluster's ID, its client and credential are those of the cluster's key, and its
 * poll runs under runPoll (the one refusal rule, health, timing) with the same target and
 * credential as the plan shows. A collector says only what it calls and how it polls.
 */
import type { ClusterConfig } from "../config/types.js";
import type { DataPlaneApi } from "../upstream/dataPlane.js";
import type { CloudApi } from "../upstream/types.js";
import { CONNECT_ADDRESSES, dataPlaneOf } from "./dataPlanes.js";
import type { RoleHint } from "./health.js";
import { type CallEstimate, type CollectorEnv, type CollectorTask, collectorTask } from "./model.js";
import { type PollRun, runPoll } from "./runtime.js";

/** What one poll of a cluster is handed. */
export interface ClusterPollArgs {
  /** The control-plane client of the cluster's key, made once per task. */
  readonly client: CloudApi;
  readonly run: PollRun;
  readonly signal: AbortSignal;
  /**
   * The cluster's data plane, found by the one rule of `dataPlaneOf` (its configured endpoint,
   * else Describe Cluster's address, as any collector noted it within the hour, else asked with
   * `client`): asked only by a poll that calls it.
   */
  dataPlane(): Promise<DataPlaneApi>;
}

/** A per-cluster task as its collector declares it. */
export interface ClusterPoll {
  readonly collector: string;
  /** The calls one poll makes, for the plan. */
  readonly calls: readonly CallEstimate[];
  readonly intervalMs: number;
  /** What the credential needs, for the one log line of a permission refusal. */
  readonly role?: RoleHint;
  readonly poll: (args: ClusterPollArgs) => Promise<void>;
}

/** The task polling `cluster` (target: its ID) with the client and credential of its own key. */
export function clusterTask(env: CollectorEnv, cluster: ClusterConfig, task: ClusterPoll): CollectorTask {
  const client = env.clients.forCluster(cluster);
  const credential = env.clients.credentialOf(cluster);
  const polled = {
    collector: task.collector,
    target: cluster.id,
    credential,
    ...(task.role === undefined ? {} : { role: task.role }),
  };
  return collectorTask({
    id: { collector: task.collector, target: cluster.id },
    credential,
    calls: task.calls,
    intervalMs: task.intervalMs,
    run: (signal) =>
      runPoll(env.ctx, polled, (run) =>
        task.poll({
          client,
          run,
          signal,
          dataPlane: () =>
            dataPlaneOf(cluster, client, env.clients.dataPlane, signal, env.config.api.dataPlaneHosts, {
              addresses: env.state.get(CONNECT_ADDRESSES),
              nowMs: env.ctx.now(),
            }),
        }),
      ),
  });
}
