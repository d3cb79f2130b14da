/**
 * Normalized Describe Cluster and List Clusters (v2) results, re-exported by types.ts. Like
 * every shape there, they know nothing of the wire's variants or of Prometheus.
 */
import type { PageInfo } from "./pageTypes.js";

/** Describe Cluster (v2) and List Clusters (v2) items. Missing fields are null. */
export interface ClusterDescription {
  readonly clusterId: string;
  readonly clusterName: string | null;
  readonly projectId: string | null;
  readonly regionId: string | null;
  readonly plan: string | null;
  readonly cuType: string | null;
  readonly cuSize: number | null;
  readonly status: string | null;
  readonly connectAddress: string | null;
  /** Backups taken (snapshotNumber). */
  readonly snapshotNumber: number | null;
  /** Creation progress in percent (createProgress; 100 once created). */
  readonly createProgress: number | null;
  /** Replicas (replica: a string in the schema, a number in the samples), when the answer gives it. */
  readonly replica: number | null;
  /**
   * Autoscaling CU bounds (autoscaling.cu.min / .max), when the answer gives them: a schedule
   * (`schedules`) in place of the bounds gives none.
   */
  readonly autoscalingCuMin: number | null;
  readonly autoscalingCuMax: number | null;
  /** Autoscaling replica bounds (autoscaling.replica.min / .max), as the CU bounds. */
  readonly autoscalingReplicaMin: number | null;
  readonly autoscalingReplicaMax: number | null;
  /** deploymentOption as given (Free, Serverless, Dedicated); null when absent. */
  readonly deploymentOption: string | null;
  /** globalClusterMeta: the global cluster it belongs to and its role there; null outside one. */
  readonly globalCluster: GlobalClusterMembership | null;
}

/** A cluster's place in a global cluster (Describe Cluster / List Clusters globalClusterMeta). */
export interface GlobalClusterMembership {
  readonly globalClusterId: string;
  /** PRIMARY or SECONDARY as given; any other role is kept as given. */
  readonly role: string;
}

/** One page of List Clusters (v2). */
export interface ClusterPage extends PageInfo {
  readonly clusters: readonly ClusterDescription[];
}
