import { describe, expect, it } from "vitest";
import { capDiscovered } from "../collectors/cluster-discovery/tasks.js";
import { SelfMetrics } from "../exposition/selfMetrics.js";
import { blankCluster } from "../upstream/testkit.js";
import { keepValidIds } from "./upstreamIds.js";

function ctx() {
  const warnings: unknown[] = [];
  const self = new SelfMetrics({ version: "test", defaultMetrics: false });
  return { self, logger: { warn: (o: unknown) => warnings.push(o), info: () => {} }, warnings };
}

describe("keepValidIds", () => {
  it.each([
    ["in01-0123456789abcdef", true],
    ["proj-0123", true],
    ["job-abc", true],
    ["..", false],
    [".", false],
    ["", false],
    ["in01-a/../b", false],
    ["in01-a?x=1", false],
    ["in01 a", false],
    ["in01_a", false],
  ])("%j kept: %s", (id, kept) => {
    const c = ctx();
    expect(keepValidIds(c, "GET /v2/clusters", [{ id }], (x) => [x.id])).toHaveLength(kept ? 1 : 0);
  });

  it("counts every drop by endpoint, logs once per endpoint, and treats null as an absent ID", async () => {
    const c = ctx();
    const items = [
      { id: "..", project: null },
      { id: "ok-1", project: null },
      { id: "ok-2", project: "." },
      { id: "ok-3", project: "proj-1" },
    ];
    const idsOf = (x: (typeof items)[number]) => [x.id, x.project];
    expect(keepValidIds(c, "GET /v2/jobs", items, idsOf).map((x) => x.id)).toEqual(["ok-1", "ok-3"]);
    expect(keepValidIds(c, "GET /v2/jobs", items, idsOf)).toHaveLength(2);
    expect(c.warnings).toEqual([{ endpoint: "GET /v2/jobs", dropped: 2 }]);
    const text = (await c.self.render(false)).toString("utf8");
    expect(text).toContain('vdbcloud_api_invalid_ids_total{endpoint="GET /v2/jobs"} 4');
  });
});

describe("capDiscovered", () => {
  const found = ["in01-c", "in01-a", "in01-d", "in01-b"].map((id) => blankCluster(id));

  it.each([
    [10, ["in01-a", "in01-b", "in01-c", "in01-d"], 0],
    [4, ["in01-a", "in01-b", "in01-c", "in01-d"], 0],
    [2, ["in01-a", "in01-b"], 2],
  ])("max %d keeps %j, %d not polled", (max, kept, notPolled) => {
    const out = capDiscovered(found, max);
    expect(out.kept.map((c) => c.clusterId)).toEqual(kept);
    expect(out.notPolled).toBe(notPolled);
  });
});
