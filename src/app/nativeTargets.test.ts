import { describe, expect, it } from "vitest";
import type { Config } from "../config/types.js";
import { CLUSTER_KINDS } from "../polling/clusterKinds.js";
import { CollectorStates } from "../polling/model.js";
import { NATIVE_EXPORT_DISABLED, NativeTargets } from "./nativeTargets.js";

function setup(enabled: boolean) {
  const known = new CollectorStates().get(CLUSTER_KINDS);
  let config = {
    api: { baseUrl: "https://api.cloud.zilliz.com" } as Config["api"],
    nativeExport: { enabled, clusters: "auto", skipMetricQueries: true } as Config["nativeExport"],
  };
  let clusters = [{ id: "in01-a" }, { id: "in01-b" }];
  let made = 0;
  const targets = new NativeTargets({
    config: () => config,
    clusters: () => {
      made++;
      return clusters;
    },
    known,
  });
  return {
    targets,
    known,
    made: () => made,
    setConfig: (c: typeof config) => {
      config = c;
    },
    setClusters: (c: typeof clusters) => {
      clusters = c;
    },
    listed: () =>
      (JSON.parse(targets.answer().body) as { labels: { cluster_id: string } }[]).map(
        (g) => g.labels.cluster_id,
      ),
  };
}

const turn = () => new Promise<void>((r) => queueMicrotask(r));

describe("the /sd/native-export answer", () => {
  it("is made once after a burst of learnt plans, and the same body is served until the next change", async () => {
    const t = setup(true);
    t.targets.refresh();
    expect(t.targets.answer()).toMatchObject({ status: 200, body: "[]", groups: 0 });
    const before = t.made();
    t.known.note({ clusterId: "in01-a", plan: "Enterprise", clusterName: "search-01" });
    t.known.note({ clusterId: "in01-b", plan: "Standard" });
    expect(t.made()).toBe(before);
    await turn();
    expect(t.made()).toBe(before + 1);
    expect(t.listed()).toEqual(["in01-a"]);
    const answer = t.targets.answer();
    expect(t.targets.answer()).toBe(answer);
    expect(t.made()).toBe(before + 1);
  });

  it("follows task rebuilds: a cluster that left the replica is gone, one discovered appears", async () => {
    const t = setup(true);
    t.known.note({ clusterId: "in01-a", plan: "Enterprise" });
    t.known.note({ clusterId: "in01-c", plan: "Enterprise" });
    t.targets.refresh();
    expect(t.listed()).toEqual(["in01-a"]);
    t.setClusters([{ id: "in01-c" }]);
    t.targets.refresh();
    expect(t.listed()).toEqual(["in01-c"]);
  });

  it("answers 404 with the reason while native export is disabled, and lists again once enabled", () => {
    const t = setup(false);
    t.known.note({ clusterId: "in01-a", plan: "Enterprise" });
    t.targets.refresh();
    expect(t.targets.answer()).toBe(NATIVE_EXPORT_DISABLED);
    expect(NATIVE_EXPORT_DISABLED.body).toContain("native_export.enabled: false");
    t.setConfig({
      api: { baseUrl: "https://api.cloud.zilliz.com" } as Config["api"],
      nativeExport: { enabled: true, clusters: "auto", skipMetricQueries: true },
    });
    t.targets.refresh();
    expect(t.listed()).toEqual(["in01-a"]);
  });

  it("stops following the known clusters once closed", async () => {
    const t = setup(true);
    t.targets.refresh();
    t.targets.close();
    const before = t.made();
    t.known.note({ clusterId: "in01-a", plan: "Enterprise" });
    await turn();
    expect(t.made()).toBe(before);
  });
});
