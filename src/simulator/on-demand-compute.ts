/**
 * On-demand compute and Describe On-Demand Compute (GET /v2/on-demand-compute?projectId=&
 * regionId=, both required, no paging), with the shape of the reference's sample: `{projectId,
 * regionId, status}`, the status in lower case (disabled, enabling, enabled, abnormal).
 *
 * Each project holds a status in each region of its clusters (List Projects V2's regionIds), in
 * order: a project's first region, where its on-demand clusters run (on-demand.ts), is enabled;
 * its other regions are disabled and enabling in turn; and the last of two or more pairs is
 * abnormal (what the demo shows). Any other region of the region listing answers disabled: the
 * compute was never turned on there. An unknown project or region is refused.
 */
import { ApiCode, SimApiError, SimulatorError } from "./errors.js";
import { projectRegionParams, type RouteDef } from "./route.js";
import type { World } from "./world.js";

/** On-demand compute of one project in one region (`status` changes through SimState). */
export interface SimOnDemandCompute {
  readonly projectId: string;
  readonly regionId: string;
  status: string;
}

/** The statuses of a project's regions after its first, in turn. */
const OTHER_REGIONS = ["disabled", "enabling"] as const;

/** The status of a project and region the simulator holds none for. */
const NEVER_ENABLED = "disabled";

/** The on-demand compute of `world`: one per project and region of its clusters, in order. */
export function generateOnDemandCompute(world: World, withAbnormal = false): SimOnDemandCompute[] {
  const pairs = world.projects.flatMap((project) => {
    const regions = [
      ...new Set(world.clusters.filter((c) => c.projectId === project.id).map((c) => c.regionId)),
    ];
    return regions.map((regionId, i) => ({ projectId: project.id, regionId, first: i === 0 }));
  });
  let other = 0;
  return pairs.map(({ projectId, regionId, first }, k): SimOnDemandCompute => {
    if (withAbnormal && pairs.length >= 2 && k === pairs.length - 1)
      return { projectId, regionId, status: "abnormal" };
    if (first) return { projectId, regionId, status: "enabled" };
    const status = OTHER_REGIONS[other++ % OTHER_REGIONS.length] ?? NEVER_ENABLED;
    return { projectId, regionId, status };
  });
}

/** The on-demand compute `compute` holds for a project and region. Throws UNKNOWN_PROJECT. */
export function heldCompute(
  compute: readonly SimOnDemandCompute[],
  projectId: string,
  regionId: string,
): SimOnDemandCompute {
  const held = compute.find((c) => c.projectId === projectId && c.regionId === regionId);
  if (held === undefined) {
    throw new SimulatorError("UNKNOWN_PROJECT", `no on-demand compute held for ${projectId} in ${regionId}`);
  }
  return held;
}

/** The Describe On-Demand Compute route over `compute`, for the projects and regions of `world`. */
export function onDemandComputeRoutes(compute: readonly SimOnDemandCompute[], world: World): RouteDef[] {
  return [
    {
      method: "GET",
      path: "/v2/on-demand-compute",
      template: "GET /v2/on-demand-compute",
      version: 2,
      mutating: false,
      dataShape: "object",
      handle: (r) => {
        const { projectId, regionId } = projectRegionParams(r.query);
        if (!world.projects.some((p) => p.id === projectId)) {
          throw new SimApiError(ApiCode.INVALID_PARAMETER, `project ${projectId} not found`);
        }
        if (!world.regions.some((g) => g.regionId === regionId)) {
          throw new SimApiError(ApiCode.INVALID_PARAMETER, `region ${regionId} not found`);
        }
        const held = compute.find((c) => c.projectId === projectId && c.regionId === regionId);
        return { projectId, regionId, status: held?.status ?? NEVER_ENABLED };
      },
    },
  ];
}
