/** The jobs collector in the demo: every job the simulator runs (a migration, a backup, a failing restore), by ID. */
import type { DemoWorld } from "../../polling/model.js";

/** What it reads of the demo's simulator. */
interface Simulated {
  readonly state: { readonly cloudJobRefs: readonly { readonly jobId: string }[] };
}

/** Its section of the demo's config. */
export function demoJobs(world: DemoWorld): Record<string, unknown> {
  const sim = world.simulator as Simulated;
  return { ids: sim.state.cloudJobRefs.map((j) => j.jobId), interval: "PT30S" };
}
