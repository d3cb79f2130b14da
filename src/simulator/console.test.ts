/** The simulated List On-Demand Clusters and List Alert Rules: the reference's shapes and variants. */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { REFERENCE_ALERT_RULES, REFERENCE_ON_DEMAND_CLUSTERS } from "../upstream/consoleTestkit.js";
import type { Simulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";

async function get(sim: Simulator, path: string) {
  const res = await request(`${sim.baseUrl}${path}`, { headers: { authorization: "Bearer test-key" } });
  return {
    status: res.statusCode,
    json: (await res.body.json()) as { code: number; data: never; message?: string },
  };
}

describe("simulated on-demand clusters", () => {
  let sim: Simulator;
  simulatorPerSuite({ clusters: 6, rateLimitPerSecond: 0 }, (s) => {
    sim = s;
  });

  it("lists a project's clusters in a region with the reference sample's fields, one suspended", async () => {
    const [first] = sim.onDemandClusters;
    if (!first) throw new Error("no on-demand cluster");
    const { json } = await get(
      sim,
      `/v2/clusters/onDemandClusters?projectId=${first.projectId}&regionId=${first.regionId}`,
    );
    const data = json.data as { count: number; onDemandClusters: Array<Record<string, unknown>> };
    expect(json.code).toBe(0);
    const expected = sim.onDemandClusters.filter(
      (c) => c.projectId === first.projectId && c.regionId === first.regionId,
    );
    expect(data.count).toBe(expected.length);
    expect(data.onDemandClusters.map((c) => c.clusterId)).toEqual(expected.map((c) => c.clusterId));
    const sampleKeys = Object.keys(REFERENCE_ON_DEMAND_CLUSTERS.onDemandClusters[0]).sort();
    for (const c of data.onDemandClusters) expect(Object.keys(c).sort()).toEqual(sampleKeys);
    expect(data.onDemandClusters[0]?.status).toBe("SUSPENDED");
    // createTime as ISO and as a number, createdBy an address: both variants a client must take.
    expect(data.onDemandClusters.map((c) => typeof c.createTime)).toEqual(["string", "number"]);
    expect(String(data.onDemandClusters[0]?.createdBy)).toMatch(/@example\.com$/);
  });

  it("lists nothing for a region without on-demand clusters, and needs both parameters", async () => {
    const [first] = sim.onDemandClusters;
    const empty = await get(
      sim,
      `/v2/clusters/onDemandClusters?projectId=${first?.projectId}&regionId=nowhere`,
    );
    expect(empty.json.data).toEqual({ count: 0, onDemandClusters: [] });
    const missing = await get(sim, `/v2/clusters/onDemandClusters?projectId=${first?.projectId}`);
    expect(missing.json.code).not.toBe(0);
  });

  it("still describes clusters at /v2/clusters/{id}", async () => {
    const cluster = sim.clusters[0];
    const { json } = await get(sim, `/v2/clusters/${cluster?.id}`);
    expect((json.data as { clusterId: string }).clusterId).toBe(cluster?.id);
  });
});

describe("simulated alert rules", () => {
  let sim: Simulator;
  simulatorPerSuite({ clusters: 4, rateLimitPerSecond: 0, alertRulesPerProject: 112 }, (s) => {
    sim = s;
  });

  it("serves 112 rules of one project in two pages of 100", async () => {
    const [project] = sim.projects;
    const page = async (n: number) =>
      (await get(sim, `/v2/alertRules?projectId=${project?.id}&pageSize=100&currentPage=${n}`)).json.data as {
        count: number;
        currentPage: number;
        alertRules: Array<Record<string, unknown>>;
      };
    const [one, two, three] = [await page(1), await page(2), await page(3)];
    expect([one.count, one.alertRules.length, two.alertRules.length, three.alertRules.length]).toEqual([
      112, 100, 12, 0,
    ]);
    expect(two.currentPage).toBe(2);
    const ids = [...one.alertRules, ...two.alertRules].map((r) => r.id);
    expect(new Set(ids).size).toBe(112);
  });

  it("sends every documented variant, a disabled rule, and actions with addresses, URLs and keys", () => {
    const rules = [...sim.alertRules.values()].flat();
    const has = (key: string) => rules.some((r) => key in r);
    for (const key of ["comparisonMethod", "comparisonOperator", "targetInstanceIds", "targetClusterIds"]) {
      expect(has(key), key).toBe(true);
    }
    expect(rules.some((r) => !r.enabled)).toBe(true);
    expect(rules.every((r) => typeof r.threshold === "string" && typeof r.windowSize === "string")).toBe(
      true,
    );
    const text = JSON.stringify(rules);
    for (const kind of ["EMAIL", "WEBHOOK", "PAGERDUTY", "OPSGENIE"])
      expect(text).toContain(`"type":"${kind}"`);
    // The reference sample's fields are all there.
    const sampleKeys = Object.keys(REFERENCE_ALERT_RULES.alertRules[0]).filter(
      (k) => k !== "comparisonMethod" && k !== "targetClusterIds",
    );
    for (const r of rules) for (const k of sampleKeys) expect(Object.keys(r)).toContain(k);
  });

  it("needs projectId and keeps pageSize within 1..100", async () => {
    expect((await get(sim, "/v2/alertRules")).json.code).not.toBe(0);
    const [project] = sim.projects;
    expect((await get(sim, `/v2/alertRules?projectId=${project?.id}&pageSize=101`)).json.code).not.toBe(0);
  });
});
