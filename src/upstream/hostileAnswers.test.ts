/**
 * Hostile answers under the body cap (MockAgent): each is refused before it costs memory or
 * time in proportion to its size, as a schema or paging error of its own call.
 */
import { describe, expect, it } from "vitest";
import { CloudError } from "./errors.js";
import { PagingError } from "./pagingError.js";
import { TEST_BASE_URL, testClient, useMockUpstream } from "./testkit.js";

const upstream = useMockUpstream();

function reply(path: string, body: string): void {
  upstream
    .get(TEST_BASE_URL)
    .intercept({ method: "GET", path: (p) => p.split("?")[0] === path })
    .reply(200, body, { headers: { "content-type": "application/json" } });
}

const cluster = (i: number) => ({ clusterId: `in01-${String(i).padStart(16, "0")}`, status: "RUNNING" });

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error("expected a failure");
    },
    (err: unknown) => err,
  );
}

describe("hostile answers", () => {
  it.each([
    [
      "empty arrays past the container cap (no array past the item cap)",
      `[${new Array(6).fill(`[${new Array(99_000).fill("[]").join(",")}]`).join(",")}]`,
      /holds more than 500000 arrays and objects/,
    ],
    ["nesting past the depth cap", `${"[".repeat(65)}${"]".repeat(65)}`, /nests deeper than 64 levels/],
    [
      "an array past the item cap",
      `[${new Array(100_001).fill("0").join(",")}]`,
      /array of more than 100000 items/,
    ],
  ])("List Regions, %s: a schema error before JSON.parse", async (_name, data, message) => {
    reply("/v2/regions", `{"code":0,"data":${data}}`);
    const { client, observer } = testClient({ maxResponseBytes: 16 * 1024 * 1024 });
    const err = await failure(client.listRegions({}));
    expect(err).toBeInstanceOf(CloudError);
    expect((err as CloudError).code).toBe("schema_error");
    expect((err as CloudError).message).toMatch(message);
    expect(observer.events.filter((e) => e.kind === "attempt")).toHaveLength(1);
  });

  it("List Regions, 5.5 million empty arrays (16.5 MB, the reported case): refused in well under a second", async () => {
    reply("/v2/regions", `{"code":0,"data":[${new Array(5_500_000).fill("[]").join(",")}]}`);
    const { client } = testClient({ maxResponseBytes: 16 * 1024 * 1024 });
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const err = await failure(client.listRegions({}));
    expect((err as CloudError).code).toBe("schema_error");
    // Parsing it would cost seconds and hundreds of MB of heap; the scan stops at its 500,001st container.
    expect(performance.now() - started).toBeLessThan(1500);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
  });

  it("List Regions beyond its item cap (1,000): a schema error, no region read", async () => {
    const regions = Array.from({ length: 1001 }, (_, i) => ({ cloudId: "aws", regionId: `r${i}` }));
    reply("/v2/regions", JSON.stringify({ code: 0, data: regions }));
    const { client } = testClient();
    const err = await failure(client.listRegions({}));
    expect((err as CloudError).message).toMatch(/1001 items, more than the 1000/);
  });

  it.each([
    ["the documented array", (items: unknown[]) => items],
    [
      "the sampled page object",
      (items: unknown[]) => ({ count: 500, currentPage: 1, pageSize: 100, clusters: items }),
    ],
  ])(
    "List Clusters, a page longer than asked (%s): a paging error before any item is validated",
    async (_shape, data) => {
      // Items no schema accepts: were they validated first, this would be a schema error.
      reply("/v2/clusters", JSON.stringify({ code: 0, data: data(new Array(101).fill({ clusterId: [] })) }));
      const { client, observer } = testClient();
      const err = await failure(client.listClusters({ pageSize: 100, currentPage: 1 }));
      expect(err).toBeInstanceOf(PagingError);
      expect((err as PagingError).reason).toBe("long_page");
      expect((err as PagingError).endpoint).toBe("GET /v2/clusters");
      // Not retried (the server would only page the same way again), and no schema error counted.
      expect(observer.events).toEqual([
        { kind: "attempt", endpoint: "GET /v2/clusters", outcome: "schema_error" },
      ]);
    },
  );

  it("List Clusters, a page of exactly the size asked: read", async () => {
    const items = Array.from({ length: 100 }, (_, i) => cluster(i));
    reply(
      "/v2/clusters",
      JSON.stringify({ code: 0, data: { count: 100, currentPage: 1, pageSize: 100, clusters: items } }),
    );
    const { client } = testClient();
    const page = await client.listClusters({ pageSize: 100, currentPage: 1 });
    expect(page.clusters).toHaveLength(100);
  });

  it("List Projects, 3 million bad region IDs in 30 projects: read (the field is lenient) without an issue per element", async () => {
    const regionIds = `[${new Array(99_999).fill("true").join(",")}]`;
    const projects = Array.from(
      { length: 30 },
      (_, i) => `{"projectId":"proj-${i}","regionIds":${regionIds}}`,
    );
    reply("/v2/projects", `{"code":0,"data":[${projects.join(",")}]}`);
    const { client } = testClient({ maxResponseBytes: 16 * 1024 * 1024 });
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const listed = await client.listProjectsV2();
    expect(listed).toHaveLength(30);
    expect(listed[0]?.regionIds).toEqual([]);
    // One zod issue per element would cost seconds and hundreds of MB (docs/performance.md).
    expect(performance.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(300 * 1024 * 1024);
  });
});

describe("IDs that would change the route", () => {
  it.each(["..", ".", ""])("Describe Cluster %j: refused before any request", async (id) => {
    // No interceptor: a request that left would fail as a network error, not as this.
    const { client, observer } = testClient();
    const err = await failure(client.describeCluster(id));
    expect((err as CloudError).code).toBe("api_error");
    expect((err as CloudError).message).toMatch(/cannot build the request/);
    expect(observer.events).toEqual([]);
  });
});
