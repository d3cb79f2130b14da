/**
 * On-demand clusters and List On-Demand Clusters (GET /v2/clusters/onDemandClusters), with the
 * shape of the reference's sample: `{count, onDemandClusters [{projectId, clusterId, clusterName,
 * regionId, cuSize, status, endpoint, privateLink, createdBy, createTime, autoSuspend,
 * description}]}`. Both `projectId` and `regionId` are required; there is no paging.
 *
 * Each project holds its on-demand clusters in the region of its first cluster: two in the
 * first project, one in each other. The first one is SUSPENDED (what the demo shows), the
 * others cycle through the documented statuses. `createdBy` is an e-mail address and
 * `createTime` is ISO or an epoch number in turn, as the service's Terraform provider reads it.
 */
import { hashString, hexFromHash, mix } from "./random.js";
import { projectRegionParams, type RouteDef } from "./route.js";
import { DAY_MS } from "./time.js";
import type { World } from "./world.js";

/** One simulated on-demand cluster (`status` changes through SimState). */
export interface SimOnDemandCluster {
  readonly clusterId: string;
  readonly clusterName: string;
  readonly projectId: string;
  readonly regionId: string;
  readonly cuSize: number;
  status: string;
  /** Idle seconds before it suspends itself. */
  readonly autoSuspend: number;
  /** Its creator's e-mail address: the exporter must never show it. */
  readonly createdBy: string;
  readonly createTimeMs: number;
}

/** The documented statuses, in the order the generated clusters take them. */
const STATUS_CYCLE = ["SUSPENDED", "RUNNING", "RESUMING", "CREATING", "SUSPENDING"] as const;
const CU_SIZES = [4, 8, 2] as const;
const AUTO_SUSPEND_SECONDS = [300, 60, 900] as const;

/** The on-demand clusters of `world`; the same seed and world always give the same ones. */
export function generateOnDemandClusters(world: World, seed: number, nowMs: number): SimOnDemandCluster[] {
  const out: SimOnDemandCluster[] = [];
  world.projects.forEach((project, p) => {
    const first = world.clusters.find((c) => c.projectId === project.id);
    const regionId = first?.regionId ?? world.regions[0]?.regionId ?? "aws-us-west-2";
    for (let i = 0; i < (p === 0 ? 2 : 1); i++) {
      const k = out.length;
      const h = mix(mix(seed, hashString(project.id)), i);
      out.push({
        clusterId: `in05-${hexFromHash(h, 16)}`,
        clusterName: `burst-${String(k + 1).padStart(2, "0")}`,
        projectId: project.id,
        regionId,
        cuSize: CU_SIZES[k % CU_SIZES.length] ?? 4,
        status: STATUS_CYCLE[k % STATUS_CYCLE.length] ?? "RUNNING",
        autoSuspend: AUTO_SUSPEND_SECONDS[k % AUTO_SUSPEND_SECONDS.length] ?? 300,
        createdBy: `creator.${k + 1}@example.com`,
        createTimeMs: Math.floor(nowMs / DAY_MS) * DAY_MS - (10 + k) * DAY_MS,
      });
    }
  });
  return out;
}

/** The wire form of one on-demand cluster. */
function onDemandView(c: SimOnDemandCluster, index: number): Record<string, unknown> {
  return {
    projectId: c.projectId,
    clusterId: c.clusterId,
    clusterName: c.clusterName,
    regionId: c.regionId,
    cuSize: c.cuSize,
    status: c.status,
    endpoint: `https://${c.projectId}.${c.regionId}.api.vectordb.example`,
    privateLink: "",
    createdBy: c.createdBy,
    createTime:
      index % 2 === 0 ? new Date(c.createTimeMs).toISOString().replace(/\.\d{3}Z$/, "Z") : c.createTimeMs,
    autoSuspend: c.autoSuspend,
    description: `${c.clusterName}: on-demand search`,
  };
}

/** The List On-Demand Clusters route over `clusters`. */
export function onDemandRoutes(clusters: readonly SimOnDemandCluster[]): RouteDef[] {
  return [
    {
      method: "GET",
      path: "/v2/clusters/onDemandClusters",
      template: "GET /v2/clusters/onDemandClusters",
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const { projectId, regionId } = projectRegionParams(r.query);
        const listed = clusters
          .filter((c) => c.projectId === projectId && c.regionId === regionId)
          .map(onDemandView);
        return { count: listed.length, onDemandClusters: listed };
      },
    },
  ];
}
