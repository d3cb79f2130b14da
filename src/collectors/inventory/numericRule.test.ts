/**
 * Inventory numbers follow the numeric rule of every family (metrics/builder.ts): the reported
 * "1e309" snapshots and cuSize -5 give no sample and are counted as dropped, as cluster
 * metrics' values are.
 */
import { describe, expect, it } from "vitest";
import { blankCluster } from "../../upstream/testkit.js";
import { mapCluster } from "./mapping.js";

describe("inventory numbers and the numeric rule", () => {
  it.each([
    [
      "snapshotNumber 1e309 (+Inf)",
      { snapshotNumber: Number.POSITIVE_INFINITY },
      "vdbcloud_cluster_snapshots",
      { non_finite_value: 1 },
    ],
    ["cuSize -5", { cuSize: -5 }, "vdbcloud_cluster_cu_size", { negative_value: 1 }],
    ["replica -1", { replica: -1 }, "vdbcloud_cluster_replicas", { negative_value: 1 }],
  ])("%s: no sample, counted", (_name, fields, family, dropped) => {
    const r = mapCluster({ ...blankCluster("in01-a"), status: "RUNNING", ...fields });
    expect(r.samples.filter((s) => s.family === family)).toEqual([]);
    expect(r.dropped).toMatchObject(dropped);
    expect(r.samples.every((s) => Number.isFinite(s.value) && s.value >= 0)).toBe(true);
  });

  it("the same fields in range give their samples (the control case)", () => {
    const r = mapCluster({ ...blankCluster("in01-a"), status: "RUNNING", cuSize: 4, snapshotNumber: 3 });
    expect(r.samples.find((s) => s.family === "vdbcloud_cluster_cu_size")?.value).toBe(4);
    expect(r.samples.find((s) => s.family === "vdbcloud_cluster_snapshots")?.value).toBe(3);
    expect(r.dropped).toEqual({});
  });
});
