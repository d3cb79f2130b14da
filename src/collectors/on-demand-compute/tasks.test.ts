import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { storeContext } from "../../../test/helpers/storeContext.js";
import { tasksOf } from "../../polling/model.js";
import { CloudError } from "../../upstream/errors.js";
import { projectV2 } from "../../upstream/testkit.js";
import type { CloudApi, OnDemandCompute, ProjectV2 } from "../../upstream/types.js";
import { onDemandComputeCollector } from "./tasks.js";

const T0 = Date.UTC(2025, 5, 1);
const ENDPOINT = "GET /v2/on-demand-compute";
const TARGET = { collector: "on_demand_compute", target: "organization" };

/**
 * A fake service: List Projects V2 gives `projects`; Describe On-Demand Compute answers
 * `status(pair)` for "project/region", or throws what `refuse(pair)` gives.
 */
function fake(
  projects: ProjectV2[],
  status: (pair: string) => string | null = () => "enabled",
  refuse: (pair: string) => Error | undefined = () => undefined,
) {
  const asked: string[] = [];
  const client = {
    listProjectsV2: async () => projects,
    describeOnDemandCompute: async (args: {
      projectId: string;
      regionId: string;
    }): Promise<OnDemandCompute> => {
      const pair = `${args.projectId}/${args.regionId}`;
      asked.push(pair);
      const err = refuse(pair);
      if (err) throw err;
      return { ...args, status: status(pair) };
    },
  } as unknown as CloudApi;
  return { client, asked };
}

async function taskOf(client: CloudApi, raw: Record<string, unknown> = {}, shard = { index: 0, total: 1 }) {
  const s = storeContext(T0);
  const env = { ...(await collectorEnv({ ctx: s.ctx, client, raw })), shard };
  return { s, env, tasks: onDemandComputeCollector.tasks(env) };
}

async function runTask(client: CloudApi, raw: Record<string, unknown> = {}, runs = 1) {
  const { s, tasks } = await taskOf(client, raw);
  const [task] = tasks;
  if (!task) throw new Error("no task");
  const outcomes: string[] = [];
  for (let i = 0; i < runs; i++) outcomes.push(await task.run(new AbortController().signal));
  return { s, outcomes, text: await s.text() };
}

const current = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("vdbcloud_on_demand_compute_status{") && l.endsWith(" 1"))
    .sort();

const refusals = [
  [
    "the error-code list's 96013",
    () =>
      new CloudError("api_error", "upstream code 96013: Org owner or project owner is needed", {
        endpoint: ENDPOINT,
        apiCode: 96013,
      }),
  ],
  [
    "the error-code list's 96027",
    () =>
      new CloudError("api_error", "upstream code 96027: Please check your Apikey scope", {
        endpoint: ENDPOINT,
        apiCode: 96027,
      }),
  ],
  [
    "HTTP 403",
    () => new CloudError("auth_error", "HTTP 403: Forbidden", { endpoint: ENDPOINT, httpStatus: 403 }),
  ],
] as const;

describe("the on-demand compute collector", () => {
  it("is scheduled on shard 0 only, while on_demand_compute.enabled", async () => {
    const { client } = fake([]);
    expect((await taskOf(client)).tasks.map((t) => [t.id, t.intervalMs, t.credential])).toEqual([
      [TARGET, 900_000, "default"],
    ]);
    expect((await taskOf(client, { on_demand_compute: { interval: "PT5M" } })).tasks[0]?.intervalMs).toBe(
      300_000,
    );
    expect((await taskOf(client, {}, { index: 1, total: 3 })).tasks).toEqual([]);
    expect((await taskOf(client, { on_demand_compute: { enabled: false } })).tasks).toEqual([]);
  });

  it("declares its family, so a deny list of it spares every call", async () => {
    const { client } = fake([]);
    const { env } = await taskOf(client, { families: { deny: ["vdbcloud_on_demand_compute_.*"] } });
    expect(onDemandComputeCollector.families(env.config)).toEqual(["vdbcloud_on_demand_compute_status"]);
    expect(tasksOf([onDemandComputeCollector], env)).toEqual([]);
  });

  it("plans List Projects V2 and one call per project and region of the configured clusters, more at run time", async () => {
    const { client } = fake([]);
    const raw = {
      clusters: [
        { id: "in01-a", project_id: "p1", region: "aws-us-west-2" },
        { id: "in01-b", project_id: "p1", region: "aws-us-west-2" },
        { id: "in01-c", project_id: "p1", region: "az-eastus" },
        { id: "in01-d", region: "az-eastus" },
      ],
    };
    const [task] = (await taskOf(client, raw)).tasks;
    expect(task?.calls).toEqual([
      { endpoint: "GET /v2/projects", count: 1, atLeast: false },
      { endpoint: ENDPOINT, count: 2, atLeast: true },
    ]);
  });

  it("asks each known project and region once: List Projects V2's and the clusters'", async () => {
    const statuses: Record<string, string> = {
      "p1/aws-us-west-2": "enabled",
      "p1/az-eastus": "abnormal",
      "p3/gcp-us-west1": "disabled",
    };
    const { client, asked } = fake(
      [projectV2("p1", ["aws-us-west-2", "az-eastus"]), projectV2("p2", [])],
      (pair) => statuses[pair] ?? null,
    );
    const { outcomes, text } = await runTask(client, {
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
    const client = {
      listProjectsV2: async () => projects,
      describeOnDemandCompute: async (args: { projectId: string; regionId: string }) => ({
        ...args,
        status: "enabled",
      }),
    } as unknown as CloudApi;
    const { s, tasks } = await taskOf(client);
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

  it.each(refusals)("a key refused everywhere by %s is not permitted: up, one line", async (_name, err) => {
    const { client } = fake([projectV2("p1", ["aws-us-west-2", "az-eastus"])], undefined, () => err());
    const { s, outcomes, text } = await runTask(client, {}, 3);
    expect(outcomes).toEqual(["ok", "ok", "ok"]);
    expect(text).toContain(
      'vdbcloud_collector_not_permitted{collector="on_demand_compute",target="organization",credential="default"} 1',
    );
    expect(text).toContain('vdbcloud_collector_up{collector="on_demand_compute",target="organization"} 1');
    expect(current(text)).toEqual([]);
    const lines = s.logs.filter((l) => /"level":(40|50)/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/credential lacks the permission this collector needs \(Project Admin\)/);
  });

  it("a key the service refuses (1800, the reference's failure sample) fails the target", async () => {
    const refused = new CloudError("auth_error", "upstream code 1800: User hasn't authenticated", {
      endpoint: ENDPOINT,
      apiCode: 1800,
    });
    const { client } = fake([projectV2("p1", ["aws-us-west-2"])], undefined, () => refused);
    const { outcomes, text } = await runTask(client);
    expect(outcomes).toEqual(["permanent_failure"]);
    expect(text).toContain('vdbcloud_collector_up{collector="on_demand_compute",target="organization"} 0');
  });

  it("a region refused among others: a partial failure, the others are shown", async () => {
    const plan = new CloudError(
      "api_error",
      "upstream code 96028: Feature only supported for enterprise plan clusters.",
      { endpoint: ENDPOINT, apiCode: 96028 },
    );
    const { client } = fake(
      [projectV2("p1", ["aws-us-west-2", "gcp-us-west1"])],
      () => "abnormal",
      (pair) => (pair.endsWith("gcp-us-west1") ? plan : undefined),
    );
    const { s, outcomes, text } = await runTask(client);
    expect(outcomes).toEqual(["ok"]);
    expect(current(text)).toEqual([
      'vdbcloud_on_demand_compute_status{project_id="p1",region_id="aws-us-west-2",status="abnormal"} 1',
    ]);
    expect(s.health.list().find((h) => h.collector === "on_demand_compute")?.partialError?.message).toMatch(
      /96028/,
    );
  });
});
