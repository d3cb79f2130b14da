/** Projects through List Projects V2, and v1 only where V2 is refused as an unknown endpoint. */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { SelfMetrics } from "../../exposition/selfMetrics.js";
import { SampleStore } from "../../exposition/store.js";
import { HealthTracker } from "../../polling/health.js";
import type { PollContext } from "../../polling/runtime.js";
import { CloudError } from "../../upstream/errors.js";
import type { CloudApi, ProjectV2 } from "../../upstream/types.js";
import { mapProjectInfo, mapProjects } from "./mapping.js";
import { globalInventoryTask } from "./tasks.js";

const T0 = Date.UTC(2025, 0, 1);

describe("mapProjectInfo", () => {
  it('gives one info series per project with plan and org type, "" where absent', () => {
    const projects: ProjectV2[] = [
      {
        projectId: "p1",
        projectName: "One",
        instanceCount: 3,
        regionIds: ["aws-us-west-2"],
        plan: "Enterprise",
        orgType: "SAAS",
      },
      { projectId: "p2", projectName: "Two", instanceCount: null, regionIds: [], plan: "", orgType: "BYOC" },
    ];
    expect(mapProjectInfo(projects).samples).toEqual([
      {
        family: "vdbcloud_project_info",
        labels: { project_id: "p1", project_name: "One", plan: "Enterprise", org_type: "SAAS" },
        value: 1,
      },
      {
        family: "vdbcloud_project_info",
        labels: { project_id: "p2", project_name: "Two", plan: "", org_type: "BYOC" },
        value: 1,
      },
    ]);
    // The cluster count stays its own family, and a missing count gives no sample.
    expect(mapProjects(projects).samples).toEqual([
      { family: "vdbcloud_project_clusters", labels: { project_id: "p1", project_name: "One" }, value: 3 },
    ]);
  });
});

function fake(v2: "ok" | "gone" | "auth") {
  const calls: string[] = [];
  const api = {
    listRegions: async () => {
      calls.push("regions");
      return [{ cloudId: "aws", regionId: "aws-us-west-2", domain: "d" }];
    },
    listProjectsV2: async () => {
      calls.push("projects v2");
      if (v2 === "gone")
        throw new CloudError("not_found", "GET /v2/projects: HTTP 404", {
          endpoint: "GET /v2/projects",
          httpStatus: 404,
        });
      if (v2 === "auth")
        throw new CloudError("auth_error", "GET /v2/projects: HTTP 401", {
          endpoint: "GET /v2/projects",
          httpStatus: 401,
        });
      return [{ projectId: "p1", projectName: "One", instanceCount: 2, plan: "Standard", orgType: "SAAS" }];
    },
    listProjects: async (a: { region: string }) => {
      calls.push(`projects v1 ${a.region}`);
      return [{ projectId: "p1", projectName: "One", instanceCount: 2, createTimeMs: null }];
    },
  } as unknown as CloudApi;
  return { api, calls };
}

async function run(v2: "ok" | "gone" | "auth", clusters: { id: string; region?: string }[], times = 1) {
  const { api, calls } = fake(v2);
  const store = new SampleStore({ now: () => T0 });
  const warns: string[] = [];
  const ctx: PollContext = {
    store,
    self: new SelfMetrics({ version: "test", defaultMetrics: false }),
    health: new HealthTracker(store, pino({ level: "silent" }), () => T0),
    now: () => T0,
    logger: {
      warn: (_f: unknown, msg: string) => warns.push(msg),
      info: () => {},
    } as unknown as NonNullable<PollContext["logger"]>,
  };
  const env = await collectorEnv({ ctx, client: api, clusters: clusters.map((c) => ({ ...c, scopes: [] })) });
  const [task] = globalInventoryTask(env);
  if (!task) throw new Error("no global task");
  const outcomes = [];
  for (let i = 0; i < times; i++) outcomes.push(await task.run(new AbortController().signal));
  const text = (await store.publishNow()).text.toString("utf8");
  return { calls, warns, outcomes, text, task };
}

describe("the global inventory task's projects", () => {
  it("asks List Projects V2 only, and exposes plan and org type", async () => {
    const r = await run("ok", [{ id: "c1", region: "aws-us-west-2" }]);
    expect(r.task.calls.map((c) => c.endpoint)).toEqual(["GET /v2/regions", "GET /v2/projects"]);
    expect(r.calls).toEqual(["regions", "projects v2"]);
    expect(r.text).toContain(
      'vdbcloud_project_info{project_id="p1",project_name="One",plan="Standard",org_type="SAAS"} 1',
    );
    expect(r.text).toContain('vdbcloud_project_clusters{project_id="p1",project_name="One"} 2');
  });

  it("uses v1 where V2 is refused and a region is known: kept, logged once", async () => {
    const r = await run("gone", [{ id: "c1", region: "aws-us-west-2" }], 3);
    expect(r.calls).toEqual([
      "regions",
      "projects v2",
      "projects v1 aws-us-west-2",
      "regions",
      "projects v1 aws-us-west-2",
      "regions",
      "projects v1 aws-us-west-2",
    ]);
    expect(r.warns).toEqual([
      "List Projects V2 refused as an unknown endpoint: using v1, V2 tried again every hour",
    ]);
    expect(r.text).toContain('vdbcloud_project_clusters{project_id="p1",project_name="One"} 2');
    expect(r.text).not.toContain("vdbcloud_project_info{");
  });

  it("without a region, a refused V2 leaves projects out (regions stay), said once", async () => {
    const r = await run("gone", [{ id: "c1" }], 2);
    expect(r.outcomes).toEqual(["ok", "ok"]);
    expect(r.warns).toHaveLength(1);
    expect(r.text).toContain("vdbcloud_region_info{");
    expect(r.text).not.toContain("vdbcloud_project_clusters{");
  });

  it("any other failure fails the poll, and v1 is not tried", async () => {
    const r = await run("auth", [{ id: "c1", region: "aws-us-west-2" }]);
    expect(r.outcomes).toEqual(["permanent_failure"]);
    expect(r.calls).toEqual(["regions", "projects v2"]);
  });
});
