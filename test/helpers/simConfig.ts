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
