import { JOB_IDS_LIST } from "../../src/collectors/jobs/list.js";
import type { SparkJobRef } from "../../src/collectors/spark-jobs/config.js";
import { SPARK_JOBS_LIST } from "../../src/collectors/spark-jobs/list.js";
import { buildConfig } from "../../src/config/load.js";
import type { ClusterConfig } from "../../src/config/types.js";
import { type CollectorEnv, CollectorStates } from "../../src/polling/model.js";
import type { PollContext } from "../../src/polling/runtime.js";
import { listedTargets, type TargetList } from "../../src/polling/targetLists.js";
import type { DataPlaneApi } from "../../src/upstream/dataPlane.js";
import type { CloudApi } from "../../src/upstream/types.js";

/**
 * A collector environment for tests: the config built from `raw` (YAML-shaped, defaults for the
 * rest), one client for every credential, fresh collector state, shard 0 of 1.
 */
export async function collectorEnv(opts: {
  readonly ctx: PollContext;
  readonly client: CloudApi;
  /** The client of each section's own key (`ownKey`), by section key; default: `client`. */
  readonly ownKeys?: Readonly<Record<string, CloudApi>>;
  readonly raw?: Record<string, unknown>;
  readonly clusters?: readonly ClusterConfig[];
  /** Spark jobs and job IDs besides the config's, as if read from the list files. */
  readonly sparkJobs?: readonly SparkJobRef[];
  readonly jobIds?: readonly string[];
  /** Every cluster's data plane; default: none (a call fails the test). */
  readonly dataPlane?: DataPlaneApi;
}): Promise<CollectorEnv> {
  const config = await buildConfig({ api: { api_key: "test-key" }, ...opts.raw }, { env: {} });
  return {
    config,
    clusters: opts.clusters ?? config.clusters,
    lists: listedTargets(
      config,
      new Map<TargetList<unknown>, readonly unknown[]>([
        [SPARK_JOBS_LIST, opts.sparkJobs ?? []],
        [JOB_IDS_LIST, opts.jobIds ?? []],
      ]),
      { index: 0, total: 1 },
    ),
    shard: { index: 0, total: 1 },
    ctx: opts.ctx,
    clients: {
      forCluster: () => opts.client,
      credentialOf: () => "default",
      rateOf: () => config.api.rateLimit,
      ownKey: (section) => opts.ownKeys?.[section.key] ?? opts.client,
      dataPlane: () => {
        if (opts.dataPlane === undefined) throw new Error("no data plane in this test");
        return opts.dataPlane;
      },
    },
    state: new CollectorStates(),
    onClustersDiscovered: () => {},
    onScopesChanged: () => {},
  };
}
