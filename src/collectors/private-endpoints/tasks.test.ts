import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { storeContext } from "../../../test/helpers/storeContext.js";
import { tasksOf } from "../../polling/model.js";
import { CloudError } from "../../upstream/errors.js";
import { projectV2 } from "../../upstream/testkit.js";
import type { CloudApi, PrivateEndpoint, PrivateEndpointPage, ProjectV2 } from "../../upstream/types.js";
import { PRIVATE_ENDPOINTS_PAGE_SIZE, privateEndpointsCollector } from "./tasks.js";

const T0 = Date.UTC(2025, 5, 1);
const ENDPOINT = "GET /v2/projects/{projectId}/privateEndpoints";

const project = (projectId: string): ProjectV2 => projectV2(projectId, ["aws-us-west-2"]);

/** The `i`-th endpoint of a project: every seventh is pending, every eleventh's service rejected. */
const endpoint = (projectId: string, i: number): PrivateEndpoint => ({
  endpointId: `${projectId}-vpce-${i}`,
  projectId,
  regionId: "aws-us-west-2",
  cloudId: "aws",
  endpointService: "com.amazonaws.vpce.us-west-2.vpce-svc-0",
  endpointStatus: i % 7 === 6 ? "PENDING" : "AVAILABLE",
  endpointServiceStatus: i % 11 === 10 ? "REJECTED" : "AVAILABLE",
});

/** A fake service holding `endpoints[project]` endpoints per project, paged as asked; `refuse` fails a project's pages. */
function fake(
  endpoints: Record<string, number>,
  refuse: (projectId: string) => Error | undefined = () => undefined,
) {
  const pages: string[] = [];
  const client = {
    listProjectsV2: async () => Object.keys(endpoints).map(project),
    listPrivateEndpoints: async (args: {
      projectId: string;
      pageSize: number;
      currentPage: number;
    }): Promise<PrivateEndpointPage> => {
      pages.push(`${args.projectId} page ${args.currentPage} of ${args.pageSize}`);
      const err = refuse(args.projectId);
      if (err) throw err;
      const total = endpoints[args.projectId] ?? 0;
      const from = (args.currentPage - 1) * args.pageSize;
      const page = Array.from({ length: Math.max(0, Math.min(args.pageSize, total - from)) }, (_, i) =>
        endpoint(args.projectId, from + i),
      );
      return {
        total,
        currentPage: args.currentPage,
        pageSize: args.pageSize,
        listed: page.length,
        endpoints: page,
      };
    },
  } as unknown as CloudApi;
  return { client, pages };
}

async function taskOf(client: CloudApi, raw: Record<string, unknown> = {}, shard = { index: 0, total: 1 }) {
  const s = storeContext(T0);
  const env = { ...(await collectorEnv({ ctx: s.ctx, client, raw })), shard };
  return { s, tasks: privateEndpointsCollector.tasks(env) };
}

async function runOnce(client: CloudApi, raw: Record<string, unknown> = {}) {
  const { s, tasks } = await taskOf(client, raw);
  const [task] = tasks;
  if (!task) throw new Error("no task");
  const outcome = await task.run(new AbortController().signal);
  return { s, task, outcome, text: await s.text() };
}

const countOf = (text: string, family: string) =>
  text.split("\n").filter((l) => l.startsWith(`${family}{`)).length;

const notPermitted = [
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

describe("the private endpoints collector", () => {
  it("is scheduled on shard 0 only, while private_endpoints.enabled", async () => {
    const { client } = fake({});
    const planned = await taskOf(client);
    expect(planned.tasks.map((t) => [t.id, t.intervalMs])).toEqual([
      [{ collector: "private_endpoints", target: "organization" }, 900_000],
    ]);
    expect((await taskOf(client, { private_endpoints: { interval: "PT1M" } })).tasks[0]?.intervalMs).toBe(
      60_000,
    );
    expect((await taskOf(client, {}, { index: 1, total: 3 })).tasks).toEqual([]);
    expect((await taskOf(client, { private_endpoints: { enabled: false } })).tasks).toEqual([]);
  });

  it("declares its families, so a deny list of them all spares every call", async () => {
    const { client } = fake({ p1: 2 });
    const s = storeContext(T0);
    const env = await collectorEnv({
      ctx: s.ctx,
      client,
      raw: { families: { deny: ["vdbcloud_private_endpoint_.*"] } },
    });
    expect(privateEndpointsCollector.families(env.config)).toEqual([
      "vdbcloud_private_endpoint_info",
      "vdbcloud_private_endpoint_status",
      "vdbcloud_private_endpoint_service_status",
    ]);
    expect(tasksOf([privateEndpointsCollector], env)).toEqual([]);
  });

  it("plans List Projects V2 and a page per configured project, more at run time", async () => {
    const { client } = fake({});
    const raw = {
      clusters: [
        { id: "in01-a", project_id: "p1" },
        { id: "in01-b", project_id: "p1" },
        { id: "in01-c", project_id: "p2" },
        { id: "in01-d" },
      ],
    };
    const [task] = (await taskOf(client, raw)).tasks;
    expect(task?.calls).toEqual([
      { endpoint: "GET /v2/projects", count: 1, atLeast: false },
      { endpoint: ENDPOINT, count: 2, atLeast: true },
    ]);
  });

  it("lists every page of each known project once: 112 endpoints in two pages, 3 in one, none in one", async () => {
    const { client, pages } = fake({ "proj-big": 112, "proj-small": 3 });
    const { outcome, text } = await runOnce(client, {
      clusters: [{ id: "in01-x", project_id: "proj-extra" }],
    });
    expect(outcome).toBe("ok");
    expect(pages).toEqual([
      `proj-big page 1 of ${PRIVATE_ENDPOINTS_PAGE_SIZE}`,
      `proj-big page 2 of ${PRIVATE_ENDPOINTS_PAGE_SIZE}`,
      `proj-small page 1 of ${PRIVATE_ENDPOINTS_PAGE_SIZE}`,
      `proj-extra page 1 of ${PRIVATE_ENDPOINTS_PAGE_SIZE}`,
    ]);
    expect(countOf(text, "vdbcloud_private_endpoint_info")).toBe(115);
    expect(text).toContain(
      'vdbcloud_private_endpoint_status{project_id="proj-big",endpoint_id="proj-big-vpce-104",status="pending"} 1',
    );
    expect(text).toContain(
      'vdbcloud_private_endpoint_status{project_id="proj-big",endpoint_id="proj-big-vpce-104",status="available"} 0',
    );
    expect(text).toContain(
      'vdbcloud_private_endpoint_service_status{project_id="proj-big",endpoint_id="proj-big-vpce-109",status="rejected"} 1',
    );
    expect(text).toContain(
      'vdbcloud_private_endpoint_info{project_id="proj-small",region_id="aws-us-west-2",cloud_id="aws",endpoint_id="proj-small-vpce-2",endpoint_service="com.amazonaws.vpce.us-west-2.vpce-svc-0"} 1',
    );
  });

  it.each(notPermitted)(
    "a key that may list them nowhere (%s) is not permitted, one line",
    async (_name, err) => {
      const { client } = fake({ p1: 2, p2: 2 }, () => err());
      const { s, tasks } = await taskOf(client);
      const [task] = tasks;
      if (!task) throw new Error("no task");
      for (let i = 0; i < 3; i++) expect(await task.run(new AbortController().signal)).toBe("ok");
      const text = await s.text();
      expect(text).toContain(
        'vdbcloud_collector_not_permitted{collector="private_endpoints",target="organization",credential="default"} 1',
      );
      expect(text).toContain('vdbcloud_collector_up{collector="private_endpoints",target="organization"} 1');
      expect(countOf(text, "vdbcloud_private_endpoint_info")).toBe(0);
      const lines = s.logs.filter((l) => /"level":(40|50)/.test(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/credential lacks the permission this collector needs \(Project Admin\)/);
    },
  );

  it('a key the service refuses (1800 "User hasn\'t authenticated") fails the target', async () => {
    const refused = () =>
      new CloudError("auth_error", "upstream code 1800: User hasn't authenticated", {
        endpoint: ENDPOINT,
        apiCode: 1800,
      });
    const { client } = fake({ p1: 2 }, refused);
    const { outcome, text } = await runOnce(client);
    expect(outcome).not.toBe("ok");
    expect(text).toContain('vdbcloud_collector_up{collector="private_endpoints",target="organization"} 0');
    expect(text).not.toContain('vdbcloud_collector_not_permitted{collector="private_endpoints"');
  });

  it("a project where the key may not list them is a partial failure; the other projects' endpoints are shown", async () => {
    const [, refuse] = notPermitted[0];
    const { client } = fake({ p1: 2, p2: 3 }, (p) => (p === "p1" ? refuse() : undefined));
    const { s, outcome, text } = await runOnce(client);
    expect(outcome).toBe("ok");
    expect(countOf(text, "vdbcloud_private_endpoint_info")).toBe(3);
    expect(s.health.list().find((h) => h.collector === "private_endpoints")?.partialError?.message).toMatch(
      /96013/,
    );
  });
});
