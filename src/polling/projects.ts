/**
 * The projects the exporter knows, with the regions each holds: what List Projects V2 lists
 * (its `regionIds`), and the projects and regions of the polled clusters (configured or
 * discovered). Listings made per project (the console's alert rules) or per project and region
 * (on-demand clusters) ask exactly these.
 */
import type { ClusterConfig } from "../config/types.js";
import { type CloudApi, ENDPOINT } from "../upstream/types.js";
import { isUnknownEndpoint } from "../upstream/unknownEndpoint.js";
import type { PollContext } from "./runtime.js";
import { keepValidIds } from "./upstreamIds.js";

/** One known project and the regions it holds (each once, in the order first seen). */
export interface KnownProject {
  readonly projectId: string;
  readonly regionIds: readonly string[];
}

type ClusterPlace = Pick<ClusterConfig, "projectId" | "region">;

/**
 * Merges projects (in order, each once) with the projects and regions of `clusters`; a cluster
 * without a project adds nothing, one without a region adds its project only.
 */
export function mergeKnownProjects(
  listed: readonly KnownProject[],
  clusters: readonly ClusterPlace[],
): KnownProject[] {
  const regions = new Map<string, Set<string>>();
  const add = (projectId: string, regionIds: readonly string[]) => {
    if (projectId === "") return;
    const set = regions.get(projectId) ?? new Set<string>();
    regions.set(projectId, set);
    for (const r of regionIds) if (r !== "") set.add(r);
  };
  for (const p of listed) add(p.projectId, p.regionIds);
  for (const c of clusters) if (c.projectId !== undefined) add(c.projectId, c.region ? [c.region] : []);
  return [...regions].map(([projectId, set]) => ({ projectId, regionIds: [...set] }));
}

/**
 * The known projects: List Projects V2 merged with `clusters`. Where List Projects V2 is refused
 * as an unknown endpoint (a service without it), the clusters' projects alone; any other failure
 * rejects, as the listing's own would.
 */
export async function knownProjects(
  client: CloudApi,
  clusters: readonly ClusterPlace[],
  signal?: AbortSignal,
  ctx?: Pick<PollContext, "self" | "logger">,
): Promise<KnownProject[]> {
  let listed: KnownProject[] = [];
  try {
    const projects = await client.listProjectsV2(signal);
    // A project ID becomes a path segment of the calls made per project.
    const valid =
      ctx === undefined
        ? projects
        : keepValidIds(ctx, ENDPOINT.listProjectsV2, projects, (p) => [p.projectId]);
    listed = valid.map((p) => ({
      projectId: p.projectId,
      regionIds: p.regionIds,
    }));
  } catch (err) {
    if (!isUnknownEndpoint(err)) throw err;
  }
  return mergeKnownProjects(listed, clusters);
}

/** Every (project, region) pair of `projects`, in order. */
export function projectRegions(
  projects: readonly KnownProject[],
): Array<{ readonly projectId: string; readonly regionId: string }> {
  return projects.flatMap((p) => p.regionIds.map((regionId) => ({ projectId: p.projectId, regionId })));
}
