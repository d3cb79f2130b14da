/**
 * The conformance corpus for jobs: each case's upstream responses go through the real client
 * (over HTTP, answered by an undici MockAgent), the real poller and mapping, and the real sample
 * store; the text exposition must hold the case's lines and none of its forbidden prefixes.
 */
import { fileURLToPath } from "node:url";
import type { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importJobTasks } from "../../src/collectors/import-jobs/tasks.js";
import { describeClusterTasks } from "../../src/collectors/inventory/tasks.js";
import { sparkJobTasks } from "../../src/collectors/spark-jobs/tasks.js";
import {
  closeTestClients,
  mockUpstream,
  TEST_BASE_URL,
  TEST_CONTROLLER_URL,
  testClient,
} from "../../src/upstream/testkit.js";
import { collectorEnv } from "../helpers/collectorEnv.js";
import { checkExposition, conformanceContext, expositionLines, loadCases, serveInOrder } from "./runner.js";

const NOW = Date.UTC(2024, 4, 1, 12, 15, 0);
const fixtures = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function stringArg(request: Record<string, unknown> | undefined, key: string): string {
  const value = request?.[key];
  if (typeof value !== "string" || value === "") throw new Error(`request.${key}: expected a string`);
  return value;
}

// testClient() sends through the current mockUpstream(); closeTestClients() closes both.
let upstream: MockAgent;
beforeEach(() => {
  upstream = mockUpstream();
});
afterEach(async () => {
  await closeTestClients();
});

describe("conformance: List Import Jobs", () => {
  const cases = loadCases(fixtures("import-jobs"));

  it("has cases", () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)("$file: $description", async (c) => {
    const clusterId = stringArg(c.request, "clusterId");
    const region = stringArg(c.request, "region");
    const pageSize = c.request?.pageSize;
    if (typeof pageSize !== "number") throw new Error("request.pageSize: expected a number");
    const calls = serveInOrder(
      upstream,
      TEST_CONTROLLER_URL.replace("{region}", region),
      "/v1/vector/collections/import/list",
      c.responses,
    );
    const ctx = conformanceContext(NOW);
    const { client } = testClient();
    const env = await collectorEnv({
      ctx,
      client,
      raw: {
        // The corpus is of List Import Jobs v1 answers.
        import_jobs: {
          interval: "PT1M",
          page_size: pageSize,
          retention: "PT1H",
          max_jobs_per_cluster: 1000,
          api: "v1",
        },
      },
      clusters: [{ id: clusterId, region, scopes: [] }],
    });
    const [task] = importJobTasks(env);
    if (!task) throw new Error("no import job task");
    await task.run(new AbortController().signal);

    if (c.expect.calls !== undefined) expect(calls).toHaveLength(c.expect.calls);
    for (const call of calls) expect(call.query.clusterId).toBe(clusterId);
    checkExposition(await expositionLines(ctx), c.expect);
  });
});

describe("conformance: Describe Spark Job", () => {
  const cases = loadCases(fixtures("spark-jobs"));

  it("has cases", () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)("$file: $description", async (c) => {
    const ref = { projectId: stringArg(c.request, "projectId"), jobId: stringArg(c.request, "jobId") };
    const calls = serveInOrder(
      upstream,
      TEST_BASE_URL,
      `/v2/projects/${ref.projectId}/jobs/${ref.jobId}`,
      c.responses,
    );
    const ctx = conformanceContext(NOW);
    const { client } = testClient();
    const env = await collectorEnv({
      ctx,
      client,
      raw: { spark_jobs: { interval: "PT30S", retention: "PT1H" } },
      sparkJobs: [ref],
    });
    const [task] = sparkJobTasks(env);
    if (!task) throw new Error("no Spark job task");
    await task.run(new AbortController().signal);

    if (c.expect.calls !== undefined) expect(calls).toHaveLength(c.expect.calls);
    checkExposition(await expositionLines(ctx), c.expect);
  });
});

describe("conformance: Describe Cluster", () => {
  const cases = loadCases(fixtures("clusters"));

  it("has cases", () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)("$file: $description", async (c) => {
    const clusterId = stringArg(c.request, "clusterId");
    const calls = serveInOrder(upstream, TEST_BASE_URL, `/v2/clusters/${clusterId}`, c.responses);
    const ctx = conformanceContext(NOW);
    const { client } = testClient();
    const env = await collectorEnv({
      ctx,
      client,
      raw: { inventory: { interval: "PT1M" } },
      clusters: [{ id: clusterId, scopes: [] }],
    });
    const [task] = describeClusterTasks(env);
    if (!task) throw new Error("no Describe Cluster task");
    await task.run(new AbortController().signal);

    if (c.expect.calls !== undefined) expect(calls).toHaveLength(c.expect.calls);
    checkExposition(await expositionLines(ctx), c.expect);
  });
});
