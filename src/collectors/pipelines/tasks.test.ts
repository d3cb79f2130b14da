import { describe, expect, it } from "vitest";
import { fakeService, runTask, taskOf } from "../../../test/helpers/projectListingTask.js";
import { currentOf, regionListingTaskTests } from "../../../test/helpers/regionListingTask.js";
import { NOT_OFFERED_RETRY_MS } from "../../polling/notOffered.js";
import { listPipelinesEndpoint } from "../../upstream/endpoints/pipelines.js";
import { CloudError } from "../../upstream/errors.js";
import type { Pipeline } from "../../upstream/pipelineTypes.js";
import { projectV2 } from "../../upstream/testkit.js";
import type { CloudApi, ProjectV2 } from "../../upstream/types.js";
import { notOfferedError } from "../../upstream/unknownEndpoint.js";
import { pipelinesCollector } from "./tasks.js";

const LIST = "GET /v1/pipelines";
const DESCRIBE = "GET /v1/pipelines/{PIPELINE_ID}";

/** A pipeline of "project/region", fully described by the list unless `fields` say otherwise. */
const pipeline = (part: string, fields: Partial<Pipeline> = {}): Pipeline => ({
  pipelineId: `pipe-${part.replace("/", "-")}`,
  name: part,
  type: "INGESTION",
  status: "SERVING",
  clusterId: "",
  collectionName: "",
  usage: { embedding: 100, rerank: null },
  functionActions: ["INDEX_DOC"],
  ...fields,
});

/**
 * A fake service: List Projects V2 gives `projects()`; List Pipelines answers `listed(part)`
 * for "project/region", or throws what `refuse(part)` gives; Describe Pipeline answers
 * `describe(id)` and is recorded in `described`.
 */
const fake = (
  projects: () => ProjectV2[],
  opts: {
    readonly listed?: (part: string) => Pipeline[];
    readonly refuse?: ((part: string) => Error | undefined) | undefined;
    readonly describe?: (id: string) => Pipeline | null;
  } = {},
) => {
  const service = fakeService<{ projectId: string; regionId: string }>({
    projects,
    method: "listPipelines",
    refuse: opts.refuse,
    answer: (args) => (opts.listed ?? ((part) => [pipeline(part)]))(`${args.projectId}/${args.regionId}`),
  });
  const described: string[] = [];
  const client = {
    ...service.client,
    describePipeline: async (args: { pipelineId: string; regionId: string }) => {
      described.push(`${args.pipelineId}@${args.regionId}`);
      return opts.describe?.(args.pipelineId) ?? null;
    },
  } as CloudApi;
  return { client, asked: service.asked, described };
};

/** A controller's answer as the client throws it, List Pipelines being declared `absent`. */
const thrown = (answer: CloudError) => notOfferedError(answer, listPipelinesEndpoint.absent);
const notFound = () =>
  thrown(
    new CloudError("not_found", `${LIST}: HTTP 404: upstream code 404: Not Found`, {
      endpoint: LIST,
      httpStatus: 404,
    }),
  );
const tokenRefused = () =>
  thrown(
    new CloudError("auth_error", `${LIST}: upstream code 80002: Token not found or unauthorized: x`, {
      endpoint: LIST,
      apiCode: 80002,
    }),
  );

const current = currentOf("vdbcloud_pipeline_status");

describe("the pipelines collector", () => {
  regionListingTaskTests({
    collector: pipelinesCollector,
    section: "pipelines",
    endpoint: LIST,
    intervalMs: 300_000,
    interval: [{ pipelines: { interval: "PT1M" } }, 60_000],
    moreCalls: [{ endpoint: DESCRIBE, count: 0, atLeast: true }],
    names: [
      "vdbcloud_pipeline_info",
      "vdbcloud_pipeline_status",
      "vdbcloud_pipeline_embedding_tokens_total",
      "vdbcloud_pipeline_rerank_tokens_total",
      "vdbcloud_pipeline_functions",
    ],
    deny: "vdbcloud_pipeline_.*",
    service: (projects, refuse) => fake(projects, { refuse }).client,
    current: "vdbcloud_pipeline_status",
    shown: 'vdbcloud_pipeline_status{pipeline_id="pipe-p1-aws-us-west-2",status="serving"} 1',
  });

  it("asks each known project and region once, at its region, and describes only what is listed without its functions", async () => {
    const { client, asked, described } = fake(() => [projectV2("p1", ["aws-us-west-2", "az-eastus"])], {
      listed: (part) =>
        part === "p1/az-eastus"
          ? [pipeline(part, { usage: null, functionActions: null, status: "SERVING" })]
          : [pipeline(part)],
      describe: (id) =>
        pipeline("x", { pipelineId: id, status: "STOPPED", usage: { embedding: 7, rerank: 2 } }),
    });
    const { outcomes, text } = await runTask(pipelinesCollector.tasks, client, {
      clusters: [{ id: "in01-a", project_id: "p3", region: "gcp-us-west1" }],
    });
    expect(outcomes).toEqual(["ok"]);
    expect(asked).toEqual(["p1/aws-us-west-2", "p1/az-eastus", "p3/gcp-us-west1"]);
    expect(described).toEqual(["pipe-p1-az-eastus@az-eastus"]);
    expect(current(text)).toEqual([
      'vdbcloud_pipeline_status{pipeline_id="pipe-p1-aws-us-west-2",status="serving"} 1',
      'vdbcloud_pipeline_status{pipeline_id="pipe-p1-az-eastus",status="stopped"} 1',
      'vdbcloud_pipeline_status{pipeline_id="pipe-p3-gcp-us-west1",status="serving"} 1',
    ]);
    expect(text).toContain('vdbcloud_pipeline_embedding_tokens_total{pipeline_id="pipe-p1-az-eastus"} 7');
    expect(text).toContain('vdbcloud_pipeline_rerank_tokens_total{pipeline_id="pipe-p1-az-eastus"} 2');
    expect(text).toContain('vdbcloud_collector_up{collector="pipelines",target="organization"} 1');
  });

  it("a failed Describe Pipeline fails its part only, which keeps its last good series", async () => {
    let describing = true;
    const { client } = fake(() => [projectV2("p1", ["aws-us-west-2", "az-eastus"])], {
      listed: (part) => [pipeline(part, part === "p1/az-eastus" ? { functionActions: null } : {})],
      describe: (id) => pipeline("x", { pipelineId: id, status: "STOPPED", functionActions: ["INDEX_DOC"] }),
    });
    const failing: CloudApi = {
      ...client,
      describePipeline: async (args, signal) => {
        if (describing) return client.describePipeline(args, signal);
        throw new CloudError("http_error", `${DESCRIBE}: HTTP 502`, { endpoint: DESCRIBE, httpStatus: 502 });
      },
    };
    const { s, tasks } = await taskOf(pipelinesCollector.tasks, failing);
    const [task] = tasks;
    if (!task) throw new Error("no task");
    expect(await task.run(new AbortController().signal)).toBe("ok");
    describing = false;
    expect(await task.run(new AbortController().signal)).toBe("ok");
    const text = await s.text();
    // The failed part's series are the ones its last good poll wrote.
    expect(current(text)).toEqual([
      'vdbcloud_pipeline_status{pipeline_id="pipe-p1-aws-us-west-2",status="serving"} 1',
      'vdbcloud_pipeline_status{pipeline_id="pipe-p1-az-eastus",status="stopped"} 1',
    ]);
    expect(s.health.list().find((h) => h.collector === "pipelines")?.partialError?.message).toMatch(
      /HTTP 502/,
    );
  });

  it.each([
    ["HTTP 404", notFound],
    ["80002 Token not found or unauthorized", tokenRefused],
  ])("a region answering %s is not offered here: asked once a day, up, one info line", async (_name, err) => {
    // Two projects in the region without pipelines, one in a region with them.
    const { client, asked } = fake(
      () => [projectV2("p1", ["aws-us-west-2", "gcp-us-west1"]), projectV2("p2", ["aws-us-west-2"])],
      { refuse: (part) => (part.endsWith("/aws-us-west-2") ? err() : undefined) },
    );
    const { s, env } = await taskOf(pipelinesCollector.tasks, client);
    let nowMs = s.ctx.now();
    const [task] = pipelinesCollector.tasks({ ...env, ctx: { ...env.ctx, now: () => nowMs } });
    if (!task) throw new Error("no task");
    // Two days of polls every five minutes, less one poll: the region is asked at the start and a day later.
    for (let i = 0; i < (2 * NOT_OFFERED_RETRY_MS) / 300_000 - 1; i++) {
      expect(await task.run(new AbortController().signal)).toBe("ok");
      nowMs += 300_000;
    }
    const inRegion = asked.filter((a) => a.endsWith("/aws-us-west-2"));
    expect(inRegion).toEqual(["p1/aws-us-west-2", "p1/aws-us-west-2"]);
    expect(asked.filter((a) => a === "p1/gcp-us-west1")).toHaveLength(575);
    const text = await s.text();
    expect(text).toContain('vdbcloud_collector_up{collector="pipelines",target="organization"} 1');
    expect(text).not.toContain('vdbcloud_collector_not_permitted{collector="pipelines"');
    expect(current(text)).toEqual([
      'vdbcloud_pipeline_status{pipeline_id="pipe-p1-gcp-us-west1",status="serving"} 1',
    ]);
    const health = s.health.list().find((h) => h.collector === "pipelines");
    expect(health?.skipped).toMatch(
      /^not offered here: GET \/v1\/pipelines for aws-us-west-2 \(.*each asked again daily\)$/,
    );
    expect(health?.partialError).toBeNull();
    const said = s.logs.filter((l) => l.includes('"collector":"pipelines"') && !/"level":20/.test(l));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/"level":30.*not offered here/);
  });

  it("a region that offers pipelines again is asked every poll from then on", async () => {
    let gone = true;
    const { client, asked } = fake(() => [projectV2("p1", ["aws-us-west-2"])], {
      refuse: () => (gone ? notFound() : undefined),
    });
    const { s, env } = await taskOf(pipelinesCollector.tasks, client);
    let nowMs = s.ctx.now();
    const [task] = pipelinesCollector.tasks({ ...env, ctx: { ...env.ctx, now: () => nowMs } });
    if (!task) throw new Error("no task");
    await task.run(new AbortController().signal);
    expect(s.health.list().find((h) => h.collector === "pipelines")?.skipped).toMatch(/not offered here/);
    gone = false;
    nowMs += NOT_OFFERED_RETRY_MS;
    await task.run(new AbortController().signal);
    nowMs += 300_000;
    await task.run(new AbortController().signal);
    expect(asked).toEqual(["p1/aws-us-west-2", "p1/aws-us-west-2", "p1/aws-us-west-2"]);
    expect(s.health.list().find((h) => h.collector === "pipelines")?.skipped).toBeNull();
    expect(current(await s.text())).toEqual([
      'vdbcloud_pipeline_status{pipeline_id="pipe-p1-aws-us-west-2",status="serving"} 1',
    ]);
  });
});
