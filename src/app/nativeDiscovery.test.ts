import { describe, expect, it } from "vitest";
import type { Config } from "../config/types.js";
import { CLUSTER_KINDS } from "../polling/clusterKinds.js";
import { CollectorStates } from "../polling/model.js";
import { NATIVE_EXPORT_DISABLED, NativeDiscovery } from "./nativeDiscovery.js";

function setup(enabled: boolean) {
  const known = new CollectorStates().get(CLUSTER_KINDS);
  let config = {
    api: { baseUrl: "https://api.cloud.zilliz.com" } as Config["api"],
    nativeExport: { enabled, clusters: "auto", skipMetricQueries: true } as Config["nativeExport"],
  };
  let clusters = [{ id: "in01-a" }, { id: "in01-b" }];
  let made = 0;
  const discovery = new NativeDiscovery({
    config: () => config,
    clusters: () => {
      made++;
      return clusters;
    },
    known,
  });
  return {
    discovery,
    known,
    made: () => made,
    setConfig: (c: typeof config) => {
      config = c;
    },
    setClusters: (c: typeof clusters) => {
      clusters = c;
    },
    listed: () =>
      (JSON.parse(discovery.answer().body) as { labels: { cluster_id: string } }[]).map(
        (g) => g.labels.cluster_id,
      ),
  };
}

const turn = () => new Promise<void>((r) => queueMicrotask(r));

describe("the /sd/native-export answer", () => {
  it("is made once after a burst of learnt plans, and the same body is served until the next change", async () => {
    const t = setup(true);
    t.discovery.refresh();
    expect(t.discovery.answer()).toMatchObject({ status: 200, body: "[]", groups: 0 });
    const before = t.made();
    t.known.note({ clusterId: "in01-a", plan: "Enterprise", clusterName: "search-01" });
    t.known.note({ clusterId: "in01-b", plan: "Standard" });
    expect(t.made()).toBe(before);
    await turn();
    expect(t.made()).toBe(before + 1);
    expect(t.listed()).toEqual(["in01-a"]);
    const answer = t.discovery.answer();
    expect(t.discovery.answer()).toBe(answer);
    expect(t.made()).toBe(before + 1);
  });

  it("follows re-plans: a cluster that left the replica is gone, one discovered appears", async () => {
    const t = setup(true);
    t.known.note({ clusterId: "in01-a", plan: "Enterprise" });
    t.known.note({ clusterId: "in01-c", plan: "Enterprise" });
    t.discovery.refresh();
    expect(t.listed()).toEqual(["in01-a"]);
    t.setClusters([{ id: "in01-c" }]);
    t.discovery.refresh();
    expect(t.listed()).toEqual(["in01-c"]);
  });

  it("answers 404 with the reason while native export is disabled, and lists again once enabled", () => {
    const t = setup(false);
    t.known.note({ clusterId: "in01-a", plan: "Enterprise" });
    t.discovery.refresh();
    expect(t.discovery.answer()).toBe(NATIVE_EXPORT_DISABLED);
    expect(NATIVE_EXPORT_DISABLED.body).toContain("native_export.enabled: false");
    t.setConfig({
      api: { baseUrl: "https://api.cloud.zilliz.com" } as Config["api"],
      nativeExport: { enabled: true, clusters: "auto", skipMetricQueries: true },
    });
    t.discovery.refresh();
    expect(t.listed()).toEqual(["in01-a"]);
  });

  it("stops following the known clusters once closed", async () => {
    const t = setup(true);
    t.discovery.refresh();
    t.discovery.close();
    const before = t.made();
    t.known.note({ clusterId: "in01-a", plan: "Enterprise" });
    await turn();
    expect(t.made()).toBe(before);
  });
});
