import { describe, expect, it } from "vitest";
import type { Config } from "../config/types.js";
import { CLUSTER_KINDS } from "./clusterKinds.js";
import { CollectorStates } from "./model.js";
import { listedAsNative, nativeTargetGroups, servedNatively, skipsMetricQueries } from "./nativeExport.js";

type Native = Config["nativeExport"];
const ON: Native = { enabled: true, clusters: "auto", skipMetricQueries: true };

/** Clusters with the plans an answer gave (undefined: none yet). */
function known(plans: Record<string, string | undefined>, names: Record<string, string> = {}) {
  const kinds = new CollectorStates().get(CLUSTER_KINDS);
  for (const [clusterId, plan] of Object.entries(plans)) {
    kinds.note({
      clusterId,
      plan: plan ?? null,
      clusterName: names[clusterId] ?? null,
      projectId: names[clusterId] === undefined ? null : "proj-answer",
      regionId: names[clusterId] === undefined ? null : "aws-us-east-1",
    });
  }
  return kinds;
}

const PLANS = {
  "in01-ent": "Enterprise",
  "in01-std": "Standard",
  "in01-srv": "Serverless",
  "in03-free": "Free",
  "in01-unknown": undefined,
  "in01-lower": "enterprise",
};

describe("which clusters the service's own endpoint serves", () => {
  it.each<[string, Native, string[]]>([
    ["auto: every Enterprise plan, in any case", ON, ["in01-ent", "in01-lower"]],
    ["disabled: none", { ...ON, enabled: false }, []],
    [
      "a list narrows it, and never adds a cluster of another plan or an unknown one",
      { ...ON, clusters: ["in01-ent", "in01-std", "in03-free", "in01-srv", "in01-unknown"] },
      ["in01-ent"],
    ],
  ])("%s", (_name, native, served) => {
    const kinds = known(PLANS);
    expect(Object.keys(PLANS).filter((id) => servedNatively(native, kinds, id))).toEqual(served);
  });

  it("skips metric queries only with skip_metric_queries, for a natively served cluster", () => {
    const kinds = known(PLANS);
    expect(skipsMetricQueries(ON, kinds, "in01-ent")).toBe(true);
    expect(skipsMetricQueries(ON, kinds, "in01-std")).toBe(false);
    expect(skipsMetricQueries({ ...ON, skipMetricQueries: false }, kinds, "in01-ent")).toBe(false);
  });

  it("follows a plan that changes: an upgrade is served, a downgrade no longer", () => {
    const kinds = known({ "in01-x": "Standard" });
    expect(servedNatively(ON, kinds, "in01-x")).toBe(false);
    kinds.note({ clusterId: "in01-x", plan: "Enterprise" });
    expect(servedNatively(ON, kinds, "in01-x")).toBe(true);
    kinds.note({ clusterId: "in01-x", plan: "Standard" });
    expect(servedNatively(ON, kinds, "in01-x")).toBe(false);
  });

  it.each<[string, Native, string[]]>([
    ["listed IDs, offline", { ...ON, clusters: ["in01-a", "in01-b"] }, ["in01-a", "in01-b"]],
    ["auto: no plan is known offline", ON, []],
    ["metric queries kept", { ...ON, clusters: ["in01-a"], skipMetricQueries: false }, []],
    ["disabled", { ...ON, enabled: false, clusters: ["in01-a"] }, []],
  ])("--check-config counts as saved: %s", (_name, native, saved) => {
    expect([...listedAsNative(native)]).toEqual(saved);
  });
});

describe("the /sd/native-export target groups", () => {
  const config = (baseUrl: string, native: Native = ON) => ({
    api: { baseUrl } as Config["api"],
    nativeExport: native,
  });
  const clusters = [
    { id: "in01-std" },
    { id: "in01-lower", projectId: "proj-config", region: "gcp-us-west1" },
    { id: "in01-ent", projectId: "proj-config", region: "aws-us-west-2" },
  ];

  it.each([
    ["https without a port: 443", "https://api.cloud.zilliz.com", "api.cloud.zilliz.com:443", "https", ""],
    ["http without a port: 80", "http://gateway.internal", "gateway.internal:80", "http", ""],
    ["an explicit port", "http://127.0.0.1:18080", "127.0.0.1:18080", "http", ""],
    ["a path prefix", "https://gw.example.com:8443/zilliz/", "gw.example.com:8443", "https", "/zilliz"],
    ["an IPv6 host", "http://[::1]:9000/p", "[::1]:9000", "http", "/p"],
  ])("%s", (_name, baseUrl, target, scheme, prefix) => {
    const groups = nativeTargetGroups(config(baseUrl), clusters, known(PLANS));
    expect(groups.map((g) => g.labels.cluster_id)).toEqual(["in01-ent", "in01-lower"]);
    for (const g of groups) {
      expect(g.targets).toEqual([target]);
      expect(g.labels.__scheme__).toBe(scheme);
      expect(g.labels.__metrics_path__).toBe(`${prefix}/v2/clusters/${g.labels.cluster_id}/metrics/export`);
    }
  });

  it("labels each cluster with the answers' names, else the config's, else empty", () => {
    const groups = nativeTargetGroups(
      config("https://api.cloud.zilliz.com"),
      [...clusters, { id: "in01-bare" }],
      known({ ...PLANS, "in01-bare": "Enterprise" }, { "in01-ent": "search-01" }),
    );
    expect(groups.map((g) => g.labels)).toEqual([
      {
        __scheme__: "https",
        __metrics_path__: "/v2/clusters/in01-bare/metrics/export",
        cluster_id: "in01-bare",
        cluster_name: "",
        project_id: "",
        region_id: "",
      },
      {
        __scheme__: "https",
        __metrics_path__: "/v2/clusters/in01-ent/metrics/export",
        cluster_id: "in01-ent",
        cluster_name: "search-01",
        project_id: "proj-answer",
        region_id: "aws-us-east-1",
      },
      {
        __scheme__: "https",
        __metrics_path__: "/v2/clusters/in01-lower/metrics/export",
        cluster_id: "in01-lower",
        cluster_name: "",
        project_id: "proj-config",
        region_id: "gcp-us-west1",
      },
    ]);
  });

  it("lists only the clusters it is handed (a replica's own share), and none when disabled", () => {
    const kinds = known(PLANS);
    expect(
      nativeTargetGroups(config("https://a.b"), [{ id: "in01-lower" }], kinds).map(
        (g) => g.labels.cluster_id,
      ),
    ).toEqual(["in01-lower"]);
    expect(nativeTargetGroups(config("https://a.b", { ...ON, enabled: false }), clusters, kinds)).toEqual([]);
  });

  it("percent-encodes a cluster ID in the path", () => {
    const groups = nativeTargetGroups(
      config("https://a.b"),
      [{ id: "in01 x/y" }],
      known({ "in01 x/y": "Enterprise" }),
    );
    expect(groups[0]?.labels.__metrics_path__).toBe("/v2/clusters/in01%20x%2Fy/metrics/export");
  });
});

describe("what the exporter knows of its clusters", () => {
  it("keeps names an answer did not give, and tells its listeners of each change only", () => {
    const kinds = new CollectorStates().get(CLUSTER_KINDS);
    let changes = 0;
    const stop = kinds.onChange(() => changes++);
    kinds.note({ clusterId: "c", plan: "Standard", clusterName: "rag", projectId: "p", regionId: "r" });
    expect(changes).toBeGreaterThan(0);
    const after = changes;
    kinds.note({ clusterId: "c", plan: "standard" });
    expect(kinds.namesOf("c")).toEqual({ clusterName: "rag", projectId: "p", regionId: "r" });
    expect(changes).toBe(after);
    expect(kinds.note({ clusterId: "c", plan: "Enterprise" })).toBe(true);
    expect(changes).toBe(after + 1);
    kinds.retain(new Set());
    expect(kinds.planOf("c")).toBeUndefined();
    expect(kinds.namesOf("c")).toBeUndefined();
    expect(changes).toBe(after + 2);
    stop();
    kinds.note({ clusterId: "d", plan: "Enterprise" });
    expect(changes).toBe(after + 2);
  });
});
