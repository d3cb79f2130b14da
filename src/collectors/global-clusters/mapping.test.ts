import { describe, expect, it } from "vitest";
import type { CloudApi, GlobalClusterPage, ReplicationLag } from "../../upstream/types.js";
import { mapGlobalClusters } from "./mapping.js";
import { listAllGlobalClusters } from "./tasks.js";

describe("mapGlobalClusters", () => {
  it("gives info per global cluster and lagMs / 1000 per secondary, never a guessed lag", () => {
    const lag: ReplicationLag = {
      globalClusterId: "glo-1",
      primaryClusterId: "in01-a",
      lags: [
        { secondaryClusterId: "in01-b", secondaryRegionId: "aws-eu-central-1", lagMs: 1500 },
        { secondaryClusterId: "in01-c", secondaryRegionId: null, lagMs: 0 },
        { secondaryClusterId: "in01-d", secondaryRegionId: "r", lagMs: null },
        { secondaryClusterId: "in01-e", secondaryRegionId: "r", lagMs: -5 },
      ],
    };
    const r = mapGlobalClusters(
      [
        { globalClusterId: "glo-1", globalClusterName: "global-search", projectId: "proj-1" },
        { globalClusterId: "glo-2", globalClusterName: null, projectId: null },
      ],
      new Map([["glo-1", lag]]),
    );
    expect(r.samples.map((s) => [s.family, s.labels, s.value])).toEqual([
      [
        "vdbcloud_global_cluster_info",
        { global_cluster_id: "glo-1", global_cluster_name: "global-search", project_id: "proj-1" },
        1,
      ],
      [
        "vdbcloud_global_cluster_replication_lag_seconds",
        {
          global_cluster_id: "glo-1",
          primary_cluster_id: "in01-a",
          secondary_cluster_id: "in01-b",
          secondary_region_id: "aws-eu-central-1",
        },
        1.5,
      ],
      [
        "vdbcloud_global_cluster_replication_lag_seconds",
        {
          global_cluster_id: "glo-1",
          primary_cluster_id: "in01-a",
          secondary_cluster_id: "in01-c",
          secondary_region_id: "",
        },
        0,
      ],
      [
        "vdbcloud_global_cluster_info",
        { global_cluster_id: "glo-2", global_cluster_name: "", project_id: "" },
        1,
      ],
    ]);
  });
});

describe("listAllGlobalClusters", () => {
  it.each([
    { total: 0, count: true, calls: 1 },
    { total: 100, count: true, calls: 1 },
    { total: 250, count: true, calls: 3 },
    // Without count: every page until a short one (130 of them take two).
    { total: 130, count: false, calls: 2 },
    { total: 100, count: false, calls: 2 },
  ])(
    "$total global clusters (count given: $count) in $calls page(s) of 100",
    async ({ total, count, calls }) => {
      const asked: number[] = [];
      const api = {
        listGlobalClusters: async (args: {
          pageSize: number;
          currentPage: number;
        }): Promise<GlobalClusterPage> => {
          asked.push(args.currentPage);
          const start = (args.currentPage - 1) * args.pageSize;
          const n = Math.max(0, Math.min(args.pageSize, total - start));
          return {
            total: count ? total : null,
            currentPage: args.currentPage,
            pageSize: args.pageSize,
            listed: n,
            globalClusters: Array.from({ length: n }, (_, i) => ({
              globalClusterId: `glo-${start + i}`,
              globalClusterName: null,
              projectId: null,
            })),
          };
        },
      } as unknown as CloudApi;
      const got = await listAllGlobalClusters(api);
      expect(got).toHaveLength(total);
      expect(new Set(got.map((g) => g.globalClusterId)).size).toBe(total);
      expect(asked).toHaveLength(calls);
    },
  );
});
