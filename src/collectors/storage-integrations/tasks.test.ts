import { describe, expect, it } from "vitest";
import {
  countOf,
  pagedService,
  projectListingTaskTests,
  runPagedListing,
  taskOf,
} from "../../../test/helpers/projectListingTask.js";
import { CloudError } from "../../upstream/errors.js";
import type { StorageIntegration } from "../../upstream/types.js";
import { STORAGE_INTEGRATIONS_PAGE_SIZE, storageIntegrationsCollector } from "./tasks.js";

const ENDPOINT = "GET /v2/storageIntegrations";

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
const fake = (
  counts: Record<string, number>,
  opts: {
    refuse?: (projectId: string) => Error | undefined;
    change?: (s: StorageIntegration) => StorageIntegration;
  } = {},
) =>
  pagedService({
    method: "listStorageIntegrations",
    field: "integrations",
    counts,
    item: (p, i) => (opts.change ?? ((s) => s))(integration(p, i)),
    refuse: opts.refuse,
  });

/** The log lines of the collector's own (not the health's), as parsed JSON. */
const integrationLines = (logs: readonly string[]) =>
  logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.collector === "storage_integrations" && "integration_id" in l);

describe("the storage integrations collector", () => {
  projectListingTaskTests({
    tasks: storageIntegrationsCollector.tasks,
    id: { collector: "storage_integrations", target: "organization" },
    endpoint: ENDPOINT,
    intervalMs: 900_000,
    interval: [{ storage_integrations: { interval: "PT1H" } }, 3_600_000],
    off: [{ storage_integrations: { enabled: false } }],
    planned: {
      clusters: [{ id: "in01-a", project_id: "p1" }, { id: "in01-b", project_id: "p2" }, { id: "in01-c" }],
    },
    families: {
      collector: storageIntegrationsCollector,
      deny: "vdbcloud_storage_integration_.*",
      names: ["vdbcloud_storage_integration_info", "vdbcloud_storage_integration_status"],
    },
    service: (refuse) => fake({ p1: 2, p2: 3 }, { refuse }).client,
    listed: "vdbcloud_storage_integration_info",
    partial: {
      what: "a project whose listing fails",
      part: "p1",
      error: () =>
        new CloudError("http_error", "HTTP 502: Bad Gateway", { endpoint: ENDPOINT, httpStatus: 502 }),
      shown: 3,
      message: /502/,
    },
  });

  it("lists every page of each known project once: 112 integrations in two pages, 3 in one", async () => {
    const text = await runPagedListing(
      storageIntegrationsCollector.tasks,
      fake,
      STORAGE_INTEGRATIONS_PAGE_SIZE,
    );
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
    const { s, tasks } = await taskOf(storageIntegrationsCollector.tasks, client);
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
});
