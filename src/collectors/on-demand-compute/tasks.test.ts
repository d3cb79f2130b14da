import { describe, expect, it } from "vitest";
import { fakeService, runTask, taskOf } from "../../../test/helpers/projectListingTask.js";
import { currentOf, regionListingTaskTests } from "../../../test/helpers/regionListingTask.js";
import { projectV2 } from "../../upstream/testkit.js";
import type { OnDemandCompute, ProjectV2 } from "../../upstream/types.js";
import { onDemandComputeCollector } from "./tasks.js";

const ENDPOINT = "GET /v2/on-demand-compute";

/**
 * A fake service: List Projects V2 gives `projects()`; Describe On-Demand Compute answers
 * `status(pair)` for "project/region", or throws what `refuse(pair)` gives.
 */
const fake = (
  projects: () => ProjectV2[],
  status: (pair: string) => string | null = () => "enabled",
  refuse?: (pair: string) => Error | undefined,
) =>
  fakeService<{ projectId: string; regionId: string }>({
    projects,
    method: "describeOnDemandCompute",
    refuse,
    answer: (args): OnDemandCompute => ({ ...args, status: status(`${args.projectId}/${args.regionId}`) }),
  });

const current = currentOf("vdbcloud_on_demand_compute_status");

describe("the on-demand compute collector", () => {
  regionListingTaskTests({
    collector: onDemandComputeCollector,
    section: "on_demand_compute",
    endpoint: ENDPOINT,
    intervalMs: 900_000,
    interval: [{ on_demand_compute: { interval: "PT5M" } }, 300_000],
    names: ["vdbcloud_on_demand_compute_status"],
    deny: "vdbcloud_on_demand_compute_.*",
    service: (projects, refuse) => fake(projects, () => "abnormal", refuse).client,
    current: "vdbcloud_on_demand_compute_status",
    shown: 'vdbcloud_on_demand_compute_status{project_id="p1",region_id="aws-us-west-2",status="abnormal"} 1',
  });

  it("asks each known project and region once: List Projects V2's and the clusters'", async () => {
    const statuses: Record<string, string> = {
      "p1/aws-us-west-2": "enabled",
      "p1/az-eastus": "abnormal",
      "p3/gcp-us-west1": "disabled",
    };
    const { client, asked } = fake(
      () => [projectV2("p1", ["aws-us-west-2", "az-eastus"]), projectV2("p2", [])],
      (pair) => statuses[pair] ?? null,
    );
    const { outcomes, text } = await runTask(onDemandComputeCollector.tasks, client, {
      clusters: [
        { id: "in01-a", project_id: "p3", region: "gcp-us-west1" },
        { id: "in01-b", project_id: "p1", region: "az-eastus" },
      ],
    });
    expect(outcomes).toEqual(["ok"]);
    expect(asked).toEqual(["p1/aws-us-west-2", "p1/az-eastus", "p3/gcp-us-west1"]);
    expect(current(text)).toEqual([
      'vdbcloud_on_demand_compute_status{project_id="p1",region_id="aws-us-west-2",status="enabled"} 1',
      'vdbcloud_on_demand_compute_status{project_id="p1",region_id="az-eastus",status="abnormal"} 1',
      'vdbcloud_on_demand_compute_status{project_id="p3",region_id="gcp-us-west1",status="disabled"} 1',
    ]);
    // Four known statuses per project and region.
    expect(text.split("\n").filter((l) => l.startsWith("vdbcloud_on_demand_compute_status{"))).toHaveLength(
      12,
    );
    expect(text).toContain('vdbcloud_collector_up{collector="on_demand_compute",target="organization"} 1');
  });

  it("a project and region no longer known loses its series at the next poll", async () => {
    let projects = [projectV2("p1", ["aws-us-west-2", "az-eastus"])];
    const { client } = fake(() => projects);
    const { s, tasks } = await taskOf(onDemandComputeCollector.tasks, client);
    const [task] = tasks;
    if (!task) throw new Error("no task");
    await task.run(new AbortController().signal);
    expect(current(await s.text())).toHaveLength(2);
    projects = [projectV2("p1", ["aws-us-west-2"])];
    await task.run(new AbortController().signal);
    expect(current(await s.text())).toEqual([
      'vdbcloud_on_demand_compute_status{project_id="p1",region_id="aws-us-west-2",status="enabled"} 1',
    ]);
  });
});
