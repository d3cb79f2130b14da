/** On-demand compute per project and region (docs/metrics.md). */
import { gauge } from "../../metrics/define.js";
import { ENDPOINT } from "../../upstream/types.js";

/** On-demand compute: Describe On-Demand Compute per known project and region (shard 0). */
export const ON_DEMAND_COMPUTE_FAMILIES = {
  status: gauge("vdbcloud_on_demand_compute_status", {
    help: "On-demand compute status of a project in a region, one series per known status (disabled, enabling, enabled, abnormal; another is added lowercased), 1 for the current one: the compute the project's on-demand clusters run on there (upstream Describe On-Demand Compute status).",
    labels: ["project_id", "region_id", "status"],
    source: `${ENDPOINT.describeOnDemandCompute}?projectId=&regionId= status`,
    absent:
      'no series with on_demand_compute.enabled false, on shards other than 0, or before the first answer for the project and region (see vdbcloud_collector_up{collector="on_demand_compute",target="organization"}); none while the key may not read it (vdbcloud_collector_not_permitted{collector="on_demand_compute"}) or the answer carries no status; a project and region no longer known lose theirs at the next poll',
  }),
} as const;
