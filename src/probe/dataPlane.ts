/**
 * `--probe` of a cluster's data plane, when collections are on: List Databases and List
 * Collections of the first database (the plane answers the cluster's credential), then, with
 * collections.indexes, List Indexes of the first collection and Describe Index of its first
 * index; and one canary probe per target of the cluster (`canary.targets`). One call at a time
 * on the cluster's own data-plane client, as the collectors make them.
 */
import { probeTarget } from "../collectors/canary/probe.js";
import { CanaryMemory } from "../collectors/canary/state.js";
import type { ClusterConfig, Config } from "../config/types.js";
import { dataPlaneOf } from "../polling/dataPlanes.js";
import type { CollectionRef, DataPlaneApi } from "../upstream/dataPlane.js";
import { CloudError } from "../upstream/errors.js";
import type { ClusterDescription } from "../upstream/types.js";
import type { CanaryProbe } from "./canaryReport.js";
import type { CallResult, DataPlaneProbe } from "./report.js";

/** The data-plane client of an endpoint for a cluster's credential (the exporter's API clients). */
export type DataPlaneFactory = (
  endpoint: string,
  cluster: Pick<ClusterConfig, "apiKey" | "dataPlaneToken">,
) => DataPlaneApi;

/** A failure as the report shows it: a CloudError's code, or another error's own (no endpoint). */
function failed(err: unknown): CallResult {
  if (err instanceof CloudError) return { ok: false, code: err.code, message: err.message };
  const code = (err as { code?: unknown }).code;
  if (err instanceof Error && typeof code === "string") return { ok: false, code, message: err.message };
  throw err;
}

/**
 * The data plane of `cluster` by the one rule (polling/dataPlanes.ts): Describe Cluster answered
 * `described` already, so its connectAddress is the endpoint unless one is configured.
 */
function planeOf(
  config: Config,
  cluster: ClusterConfig,
  described: ClusterDescription,
  dataPlane: DataPlaneFactory,
  signal: AbortSignal,
): Promise<DataPlaneApi> {
  const control = { describeCluster: async () => described };
  return dataPlaneOf(cluster, control, dataPlane, signal, config.api.dataPlaneHosts);
}

/** Probes the data plane of `cluster`, whose Describe Cluster answered `described`. */
export async function probeDataPlane(
  config: Config,
  cluster: ClusterConfig,
  described: ClusterDescription,
  dataPlane: DataPlaneFactory,
): Promise<DataPlaneProbe> {
  const signal = new AbortController().signal;
  let dp: DataPlaneApi;
  let first: CollectionRef | undefined;
  try {
    dp = await planeOf(config, cluster, described, dataPlane, signal);
    const databases = await dp.listDatabases(signal);
    const dbName = databases.includes("default") ? "default" : (databases[0] ?? "default");
    const collectionName = (await dp.listCollections(dbName, signal))[0];
    if (collectionName !== undefined) first = { dbName, collectionName };
  } catch (err) {
    const skipped = { skipped: "data plane failed" };
    return { collections: failed(err), listIndexes: skipped, describeIndex: skipped };
  }
  const collections: CallResult = { ok: true };
  if (!config.collections.indexes) {
    const skipped = { skipped: "collections.indexes false" };
    return { collections, listIndexes: skipped, describeIndex: skipped };
  }
  if (first === undefined) {
    const skipped = { skipped: "no collection listed" };
    return { collections, listIndexes: skipped, describeIndex: skipped };
  }
  const ref = first;
  let indexName: string | undefined;
  try {
    indexName = (await dp.listIndexes(ref, signal))[0];
  } catch (err) {
    return { collections, listIndexes: failed(err), describeIndex: { skipped: "no index listing" } };
  }
  const listIndexes: CallResult = { ok: true };
  if (indexName === undefined)
    return { collections, listIndexes, describeIndex: { skipped: "no index listed" } };
  try {
    await dp.describeIndex({ ...ref, indexName }, signal);
    return { collections, listIndexes, describeIndex: { ok: true } };
  } catch (err) {
    return { collections, listIndexes, describeIndex: failed(err) };
  }
}

/**
 * One canary probe of each target of `cluster`, as a run makes it (Describe Collection first for
 * a search): its outcome, its time on the wire and cost, or why it failed. Empty without targets.
 */
export async function probeCanary(
  config: Config,
  cluster: ClusterConfig,
  described: ClusterDescription,
  dataPlane: DataPlaneFactory,
): Promise<CanaryProbe[]> {
  const targets = config.canary.targets.filter((t) => t.clusterId === cluster.id);
  if (targets.length === 0) return [];
  const signal = new AbortController().signal;
  const base = (t: (typeof targets)[number]) => ({
    clusterId: cluster.id,
    collection: `${t.dbName}/${t.collectionName}`,
    operation: t.operation,
  });
  let dp: DataPlaneApi;
  try {
    dp = await planeOf(config, cluster, described, dataPlane, signal);
  } catch (err) {
    const why = failed(err);
    return targets.map((t) => ({
      ...base(t),
      outcome: "error",
      ...(why.ok ? {} : { code: why.code, message: why.message }),
    }));
  }
  const deps = { dp, memory: new CanaryMemory(), timeoutMs: config.canary.timeoutMs, now: Date.now, signal };
  const out: CanaryProbe[] = [];
  for (const target of targets) {
    const { result, failure } = await probeTarget(target, deps);
    const why = failure === undefined ? undefined : failed(failure);
    out.push({
      ...base(target),
      outcome: result.outcome,
      ...(result.seconds === undefined ? {} : { seconds: result.seconds }),
      ...(result.cost === undefined || result.cost === null ? {} : { cost: result.cost }),
      ...(why === undefined || why.ok ? {} : { code: why.code, message: why.message }),
    });
  }
  return out;
}
