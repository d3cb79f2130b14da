/**
 * Clusters a test adds to or removes from a running simulator's world (`SimState.addCluster`,
 * `removeCluster`): everything that answers for a cluster learns of it (the world's list, which
 * the routes hold, the lookup by ID, the value profile, the data plane), so List Clusters, Describe
 * Cluster, the metrics and the data plane agree from the next request on.
 */
import type { SimContext } from "./context.js";
import { buildDataPlanes } from "./data-plane.js";
import { buildProfile } from "./metric-values.js";
import { DAY_MS } from "./time.js";
import { collectionsFor, type MutableSimCluster } from "./world.js";

/** A cluster to add. Defaults: a generated in01- ID, plan Enterprise, running, the first project and region. */
export interface AddClusterInput {
  readonly id?: string;
  readonly name?: string;
  /** Describe Cluster `plan`: Free, Serverless, Standard or Enterprise. */
  readonly plan?: string;
  readonly status?: string;
  readonly projectId?: string;
  readonly regionId?: string;
  /** Collections of its one or two databases; default 3. */
  readonly collections?: number;
}

/** Adds cluster `id` (not in the world yet), created a day ago. */
export function addSimCluster(ctx: SimContext, id: string, input: AddClusterInput): void {
  const plan = input.plan ?? "Enterprise";
  const dedicated = plan !== "Free" && plan !== "Serverless";
  const cluster: MutableSimCluster = {
    id,
    name: input.name ?? `added-${ctx.world.clusters.length + 1}`,
    projectId: input.projectId ?? ctx.world.projects[0]?.id ?? "",
    regionId: input.regionId ?? ctx.world.clusters[0]?.regionId ?? "aws-us-west-2",
    plan,
    cuType: dedicated ? "Performance-optimized" : "",
    cuSize: dedicated ? 2 : 0,
    status: input.status ?? "RUNNING",
    snapshotNumber: 0,
    createProgress: 100,
    replica: dedicated ? 1 : undefined,
    replicaAsString: false,
    autoscalingCu: undefined,
    autoscalingReplica: undefined,
    deploymentOption: dedicated ? "Dedicated" : plan === "Serverless" ? "Serverless" : undefined,
    createTimeMs: ctx.now() - DAY_MS,
    connectAddress: `${ctx.server.baseUrl}/dp/${id}`,
    collections: collectionsFor(input.collections ?? 3),
    importListKey: "records",
    hot: false,
  };
  // The routes hold the world's list itself: it changes in place.
  ctx.world.clusters.push(cluster);
  ctx.clusterById.set(id, cluster);
  ctx.profiles.set(id, buildProfile(ctx.seed, cluster));
  // Its data plane as it would be at its place in the world (the first cluster's is scripted).
  const planes = buildDataPlanes(ctx.world.clusters, {
    seed: ctx.seed,
    churnMs: 0,
    startMs: ctx.now(),
    timeScale: ctx.timeScale,
  });
  const collections = planes.collections.get(id);
  const indexes = planes.indexes.get(id);
  if (collections !== undefined) ctx.dataPlanes.collections.set(id, collections);
  if (indexes !== undefined) ctx.dataPlanes.indexes.set(id, indexes);
}

/** Removes `cluster` from the world: Describe Cluster then answers "not found". */
export function removeSimCluster(ctx: SimContext, cluster: MutableSimCluster): void {
  const clusters = ctx.world.clusters;
  clusters.splice(clusters.indexOf(cluster), 1);
  ctx.clusterById.delete(cluster.id);
  ctx.profiles.delete(cluster.id);
  ctx.dataPlanes.collections.delete(cluster.id);
  ctx.dataPlanes.indexes.delete(cluster.id);
}
