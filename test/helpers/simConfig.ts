/** Config files for an exporter started as a process against a simulator. */
import type { Simulator } from "../../src/simulator/index.js";

/**
 * The smallest config polling the simulator's first cluster, its key read from the environment
 * (`VDBCLOUD_API_KEY`) as a user's file would.
 */
export function firstClusterConfig(sim: Simulator): string {
  const c = sim.clusters[0] as Simulator["clusters"][number];
  return `api:
  base_url: ${sim.baseUrl}
  controller_url: ${sim.controllerUrlTemplate}
  api_key: \${VDBCLOUD_API_KEY}
clusters:
  - { id: ${c.id}, region: ${c.regionId} }
metrics: { granularity: PT30S }
`;
}

/**
 * Turns the harness's demo-shaped raw config into a user's: the key, the simulator's clusters
 * (ID, region and project only) and the listen address; every collector and interval at its
 * default.
 */
export function userConfig(raw: Record<string, unknown>): void {
  for (const key of Object.keys(raw))
    if (key !== "api" && key !== "clusters" && key !== "server") delete raw[key];
  raw.clusters = (raw.clusters as Record<string, unknown>[]).map(({ id, region, project_id }) => ({
    id,
    region,
    project_id,
  }));
}
