import { describe, expect, it } from "vitest";
import { collectorEnv } from "../../../test/helpers/collectorEnv.js";
import { storeContext } from "../../../test/helpers/storeContext.js";
import { tasksOf } from "../../polling/model.js";
import { CloudError } from "../../upstream/errors.js";
import { projectV2 } from "../../upstream/testkit.js";
import type {
  CloudApi,
  ProjectV2,
  StorageIntegration,
  StorageIntegrationPage,
} from "../../upstream/types.js";
import { STORAGE_INTEGRATIONS_PAGE_SIZE, storageIntegrationsCollector } from "./tasks.js";

const T0 = Date.UTC(2025, 5, 1);
const ENDPOINT = "GET /v2/storageIntegrations";

const project = (projectId: string): ProjectV2 => projectV2(projectId, ["aws-us-west-2"]);

const integration = (projectId: string, i: number): StorageIntegration => ({
  integrationId: `${projectId}-integ-${i}`,
  name: `export ${i}`,
  status: "ACTIVE",
  message: null,
  regionId: "aws-us-west-2",
  bucketName: `bucket-${i}`,
});

/**
 * A fake service holding `counts[project]` integrations per project, paged as asked; `change`
 * alters an integration as listed, `refuse` fails a project's pages.
 */
function fake(
  counts: Record<string, number>,
  opts: {
    refuse?: (projectId: string) => Error | undefined;
    change?: (s: StorageIntegration) => StorageIntegration;
  } = {},
) {
  const pages: string[] = [];
  const client = {
    listProjectsV2: async () => Object.keys(counts).map(project),
    listStorageIntegrations: async (args: {
      projectId: string;
      pageSize: number;
      currentPage: number;
    }): Promise<StorageIntegrationPage> => {
      pages.push(`${args.projectId} page ${args.currentPage} of ${args.pageSize}`);
      const err = opts.refuse?.(args.projectId);
      if (err) throw err;
      const total = counts[args.projectId] ?? 0;
      const from = (args.currentPage - 1) * args.pageSize;
      const page = Array.from({ length: Math.max(0, Math.min(args.pageSize, total - from)) }, (_, i) =>
        (opts.change ?? ((s) => s))(integration(args.projectId, from + i)),
      );
      return {
        total,
        currentPage: args.currentPage,
        pageSize: args.pageSize,
        listed: page.length,
        integrations: page,
      };
    },
  } as unknown as CloudApi;
  return { client, pages };
}

async function taskOf(client: CloudApi, raw: Record<string, unknown> = {}, shard = { index: 0, total: 1 }) {
  const s = storeContext(T0);
  const env = { ...(await collectorEnv({ ctx: s.ctx, client, raw })), shard };
  return { s, env, tasks: storageIntegrationsCollector.tasks(env) };
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

/** The log lines of the collector's own (not the health's), as parsed JSON. */
const integrationLines = (logs: readonly string[]) =>
  logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.collector === "storage_integrations" && "integration_id" in l);

describe("the storage integrations collector", () => {
  it("is scheduled on shard 0 only, while storage_integrations.enabled", async () => {
    const { client } = fake({});
    expect((await taskOf(client)).tasks.map((t) => [t.id, t.intervalMs])).toEqual([
      [{ collector: "storage_integrations", target: "organization" }, 900_000],
    ]);
    expect((await taskOf(client, {}, { index: 1, total: 3 })).tasks).toEqual([]);
    expect((await taskOf(client, { storage_integrations: { enabled: false } })).tasks).toEqual([]);
    expect(
      (await taskOf(client, { storage_integrations: { interval: "PT1H" } })).tasks.map((t) => t.intervalMs),
    ).toEqual([3_600_000]);
  });

  it("declares its families, so a deny list of them all spares every call", async () => {
    const { client } = fake({ p1: 2 });
    const s = storeContext(T0);
    const env = await collectorEnv({
      ctx: s.ctx,
      client,
      raw: { families: { deny: ["vdbcloud_storage_integration_.*"] } },
    });
    expect(storageIntegrationsCollector.families(env.config)).toEqual([
      "vdbcloud_storage_integration_info",
      "vdbcloud_storage_integration_status",
    ]);
    expect(tasksOf([storageIntegrationsCollector], env)).toEqual([]);
  });

  it("plans List Projects V2 and a page per configured project, more at run time", async () => {
    const { client } = fake({});
    const raw = {
      clusters: [{ id: "in01-a", project_id: "p1" }, { id: "in01-b", project_id: "p2" }, { id: "in01-c" }],
    };
    const [task] = (await taskOf(client, raw)).tasks;
    expect(task?.calls).toEqual([
      { endpoint: "GET /v2/projects", count: 1, atLeast: false },
      { endpoint: ENDPOINT, count: 2, atLeast: true },
    ]);
  });

  it("lists every page of each known project once: 112 integrations in two pages, 3 in one", async () => {
    const { client, pages } = fake({ "proj-big": 112, "proj-small": 3 });
    const { outcome, text } = await runOnce(client, {
      clusters: [{ id: "in01-x", project_id: "proj-extra" }],
    });
    expect(outcome).toBe("ok");
    expect(pages).toEqual([
      `proj-big page 1 of ${STORAGE_INTEGRATIONS_PAGE_SIZE}`,
      `proj-big page 2 of ${STORAGE_INTEGRATIONS_PAGE_SIZE}`,
      `proj-small page 1 of ${STORAGE_INTEGRATIONS_PAGE_SIZE}`,
      `proj-extra page 1 of ${STORAGE_INTEGRATIONS_PAGE_SIZE}`,
    ]);
    expect(countOf(text, "vdbcloud_storage_integration_info")).toBe(115);
    // Two states each: active and error.
    expect(countOf(text, "vdbcloud_storage_integration_status")).toBe(230);
    expect(text).toContain(
      'vdbcloud_storage_integration_info{project_id="proj-big",integration_id="proj-big-integ-111",name="export 111",region_id="aws-us-west-2",bucket_name="bucket-111"} 1',
    );
    expect(text).toContain(
      'vdbcloud_storage_integration_status{project_id="proj-small",integration_id="proj-small-integ-2",status="active"} 1',
    );
  });

  it("logs an integration's message once per change, never in /metrics", async () => {
    let broken: Partial<StorageIntegration> = { status: "ERROR", message: "Access Denied: s3:PutObject" };
    const { client } = fake(
      { p1: 2 },
      { change: (s) => (s.integrationId === "p1-integ-1" ? { ...s, ...broken } : s) },
    );
    const { s, tasks } = await taskOf(client);
    const [task] = tasks;
    if (!task) throw new Error("no task");
    for (let i = 0; i < 3; i++) await task.run(new AbortController().signal);
    broken = { status: "ERROR", message: "NoSuchBucket" };
    await task.run(new AbortController().signal);
    broken = {};
    for (let i = 0; i < 2; i++) await task.run(new AbortController().signal);
    const lines = integrationLines(s.logs);
    expect(lines.map((l) => [l.level, l.integration_id, l.status, l.message])).toEqual([
      [40, "p1-integ-1", "error", "Access Denied: s3:PutObject"],
      [40, "p1-integ-1", "error", "NoSuchBucket"],
      [30, "p1-integ-1", "active", undefined],
    ]);
    expect(lines[0]).toMatchObject({ project_id: "p1", name: "export 1", bucket_name: "bucket-1" });
    const text = await s.text();
    expect(text).not.toMatch(/Access Denied|NoSuchBucket/);
    expect(text.split("\n").filter((l) => !l.startsWith("#") && /message/.test(l))).toEqual([]);
    expect(text).toContain(
      'vdbcloud_storage_integration_status{project_id="p1",integration_id="p1-integ-1",status="active"} 1',
    );
  });

  it.each([
    [
      "the error-code list's 96013",
      () =>
        new CloudError("api_error", "upstream code 96013: Org owner or project owner is needed", {
          endpoint: ENDPOINT,
          apiCode: 96013,
        }),
    ],
    [
      "HTTP 403",
      () => new CloudError("auth_error", "HTTP 403: Forbidden", { endpoint: ENDPOINT, httpStatus: 403 }),
    ],
  ] as const)(
    "a key that may list no project's integrations (%s) is not permitted, one line",
    async (_n, err) => {
      const { client } = fake({ p1: 2, p2: 2 }, { refuse: () => err() });
      const { s, tasks } = await taskOf(client);
      const [task] = tasks;
      if (!task) throw new Error("no task");
      for (let i = 0; i < 3; i++) expect(await task.run(new AbortController().signal)).toBe("ok");
      const text = await s.text();
      expect(text).toContain(
        'vdbcloud_collector_not_permitted{collector="storage_integrations",target="organization",credential="default"} 1',
      );
      expect(text).toContain(
        'vdbcloud_collector_up{collector="storage_integrations",target="organization"} 1',
      );
      expect(countOf(text, "vdbcloud_storage_integration_info")).toBe(0);
      const lines = s.logs.filter((l) => /"level":(40|50)/.test(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/credential lacks the permission this collector needs \(Project Admin\)/);
    },
  );

  it("a refused key (1800) fails the target: a key problem, not a permission", async () => {
    const refused = new CloudError("auth_error", "upstream code 1800: User hasn't authenticated", {
      endpoint: ENDPOINT,
      apiCode: 1800,
    });
    const { client } = fake({ p1: 1 }, { refuse: () => refused });
    const { outcome, text } = await runOnce(client);
    expect(outcome).not.toBe("ok");
    expect(text).toContain('vdbcloud_collector_up{collector="storage_integrations",target="organization"} 0');
    expect(text).not.toContain('vdbcloud_collector_not_permitted{collector="storage_integrations"');
  });

  it("a project whose listing fails is a partial failure; the other projects' integrations are shown", async () => {
    const refuse = (p: string) =>
      p === "p1"
        ? new CloudError("http_error", "HTTP 502: Bad Gateway", { endpoint: ENDPOINT, httpStatus: 502 })
        : undefined;
    const { client } = fake({ p1: 2, p2: 3 }, { refuse });
    const { s, outcome, text } = await runOnce(client);
    expect(outcome).toBe("ok");
    expect(countOf(text, "vdbcloud_storage_integration_info")).toBe(3);
    expect(
      s.health.list().find((h) => h.collector === "storage_integrations")?.partialError?.message,
    ).toMatch(/502/);
  });
});
