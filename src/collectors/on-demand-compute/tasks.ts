/**
 * On-demand compute: Describe On-Demand Compute for each project and region the exporter knows
 * (List Projects V2 `regionIds`, and the polled clusters' projects and regions), on the replica
 * that owns account-wide calls (shard 0), with the default credential. One task, target
 * "organization"; each project and region is a part of its poll (polling/parts.ts): one whose
 * call fails keeps its last good series and is shown on the target's health, the others are
 * unaffected. A key refused everywhere for lack of a role is "not permitted" (the one refusal
 * rule of runPoll), one line.
 */

import { defineCollector } from "../../polling/model.js";
import { projectRegions } from "../../polling/projects.js";
import { sectionListingTasks } from "../../polling/projectTask.js";
import { ENDPOINT } from "../../upstream/types.js";
import { ON_DEMAND_COMPUTE_SECTION } from "./config.js";
import { ON_DEMAND_COMPUTE_FAMILIES } from "./families.js";
import { mapOnDemandCompute } from "./mapping.js";

const COLLECTOR = "on_demand_compute";

/** The one task (shard 0, `on_demand_compute.enabled`), or none. */
const onDemandComputeTasks = sectionListingTasks(
  (config) => config.onDemandCompute,
  () => ({
    collector: COLLECTOR,
    target: "organization",
    // The service's on-demand guide: on-demand compute is managed by a Project Admin.
    role: "Project Admin",
    // One call per known project and region at least (the configured clusters' pairs).
    endpoint: ENDPOINT.describeOnDemandCompute,
    parts: projectRegions,
    key: (p) => `${p.projectId}/${p.regionId}`,
    poll: async (client, p, signal) => mapOnDemandCompute(await client.describeOnDemandCompute(p, signal), p),
  }),
);

/** Whether on-demand compute is on, per known project and region: what the on-demand clusters run on. */
export const onDemandComputeCollector = defineCollector(COLLECTOR, onDemandComputeTasks, {
  polls: "on-demand compute per known project and region (shard 0)",
  config: ON_DEMAND_COMPUTE_SECTION,
  // The status changes rarely (PT15M by default); the demo reads it every minute. The demo's
  // simulator holds one project and region whose on-demand compute is abnormal.
  demo: { settings: () => ({ interval: "PT1M" }), simulator: () => ({ onDemandComputeAbnormal: true }) },
  areas: [{ title: "On-demand compute", families: ON_DEMAND_COMPUTE_FAMILIES }],
});
