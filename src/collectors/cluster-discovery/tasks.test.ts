import { describe, expect, it } from "vitest";
import { blankCluster } from "../../upstream/testkit.js";
import type { CloudApi, ClusterDescription, ClusterPage } from "../../upstream/types.js";
import { discoverClusters, LIST_CLUSTERS_PAGE_SIZE } from "./tasks.js";

function cluster(id: string, projectId: string, regionId: string): ClusterDescription {
  return blankCluster(id, { clusterName: id, projectId, regionId, status: "RUNNING" });
}

function client(all: ClusterDescription[], honourFilters: boolean, withCount = true) {
  const calls: { projectId?: string; regionId?: string; currentPage: number }[] = [];
  const api = {
    listClusters: async (args: {
      projectId?: string;
      regionId?: string;
      pageSize: number;
      currentPage: number;
    }): Promise<ClusterPage> => {
      calls.push({
        ...(args.projectId ? { projectId: args.projectId } : {}),
        ...(args.regionId ? { regionId: args.regionId } : {}),
        currentPage: args.currentPage,
      });
      const matching = honourFilters
        ? all.filter(
            (c) =>
              (!args.projectId || c.projectId === args.projectId) &&
              (!args.regionId || c.regionId === args.regionId),
          )
        : all;
      const start = (args.currentPage - 1) * args.pageSize;
      const clusters = matching.slice(start, start + args.pageSize);
      return {
        total: withCount ? matching.length : null,
        currentPage: args.currentPage,
        pageSize: args.pageSize,
        listed: clusters.length,
        clusters,
      };
    },
  } as unknown as CloudApi;
  return { api, calls };
}

const many = Array.from({ length: 250 }, (_, i) =>
  cluster(`in01-${i}`, i % 2 ? "p1" : "p2", i % 3 ? "r1" : "r2"),
);

describe("discoverClusters", () => {
  it("pages through every cluster when unfiltered", async () => {
    const { api, calls } = client(many, true);
    const found = await discoverClusters(api, { projectIds: [], regionIds: [] });
    expect(found.length).toBe(250);
    expect(calls.map((c) => c.currentPage)).toEqual([1, 2, 3]);
    expect(LIST_CLUSTERS_PAGE_SIZE).toBe(100);
  });

  it.each([
    { n: 150, pages: 2 },
    { n: 100, pages: 2 },
    { n: 99, pages: 1 },
    { n: 250, pages: 3 },
  ])("an answer without count: all $n clusters, in $pages pages", async ({ n, pages }) => {
    const { api, calls } = client(many.slice(0, n), true, false);
    const found = await discoverClusters(api, { projectIds: [], regionIds: [] });
    expect(found.map((c) => c.clusterId)).toEqual(many.slice(0, n).map((c) => c.clusterId));
    expect(calls).toHaveLength(pages);
  });

  it.each([true, false])("applies project and region filters (upstream honours them: %s)", async (honour) => {
    const { api } = client(many, honour);
    const found = await discoverClusters(api, { projectIds: ["p1"], regionIds: ["r2"] });
    const want = many
      .filter((c) => c.projectId === "p1" && c.regionId === "r2")
      .map((c) => c.clusterId)
      .sort();
    expect(found.map((c) => c.clusterId).sort()).toEqual(want);
  });

  it("asks once per project x region combination and de-duplicates", async () => {
    const { api, calls } = client(many.slice(0, 10), false);
    const found = await discoverClusters(api, { projectIds: ["p1", "p2"], regionIds: ["r1"] });
    expect(calls.map((c) => `${c.projectId}/${c.regionId}`)).toEqual(["p1/r1", "p2/r1"]);
    expect(new Set(found.map((c) => c.clusterId)).size).toBe(found.length);
  });
});
