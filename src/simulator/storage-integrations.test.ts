/** The simulated List Storage Integrations and Describe Storage Integration: the reference's shape, paging, the demo's broken one. */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { REFERENCE_STORAGE_INTEGRATIONS } from "../upstream/storageIntegrationsTestkit.js";
import { BROKEN_INTEGRATION_MESSAGE, type Simulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";

async function get(sim: Simulator, path: string) {
  const res = await request(`${sim.baseUrl}${path}`, { headers: { authorization: "Bearer test-key" } });
  return (await res.body.json()) as { code: number; data: never; message?: string };
}

interface ListData {
  count: number;
  currentPage: number;
  pageSize: number;
  storageIntegrations: Array<Record<string, unknown>>;
}

describe("simulated storage integrations", () => {
  let sim: Simulator;
  simulatorPerSuite({ clusters: 4, rateLimitPerSecond: 0, storageIntegrationError: true }, (s) => {
    sim = s;
  });

  it("lists a project's integrations with the reference's fields and nothing of their credentials", async () => {
    const [project] = sim.projects;
    const json = await get(sim, `/v2/storageIntegrations?projectId=${project?.id}`);
    expect(json.code).toBe(0);
    const data = json.data as ListData;
    const mine = sim.storageIntegrations.filter((s) => s.projectId === project?.id);
    expect([data.count, data.currentPage, data.pageSize]).toEqual([mine.length, 1, 10]);
    expect(data.storageIntegrations.map((s) => s.integrationId)).toEqual(mine.map((s) => s.integrationId));
    const sampleKeys = Object.keys(REFERENCE_STORAGE_INTEGRATIONS.storageIntegrations[0]).sort();
    for (const s of data.storageIntegrations) expect(Object.keys(s).sort()).toEqual(sampleKeys);
    expect(JSON.stringify(data)).not.toMatch(/externalCred|arn:aws|gserviceaccount/);
  });

  it("holds one integration in ERROR with its reason, the first project's second; the rest ACTIVE with an empty message", async () => {
    const broken = sim.storageIntegrations.filter((s) => s.status !== "ACTIVE");
    expect(broken.map((s) => [s.projectId, s.status, s.message])).toEqual([
      [sim.projects[0]?.id, "ERROR", BROKEN_INTEGRATION_MESSAGE],
    ]);
    expect(sim.storageIntegrations.filter((s) => s.projectId === sim.projects[0]?.id)[1]).toBe(broken[0]);
    for (const s of sim.storageIntegrations) if (s.status === "ACTIVE") expect(s.message).toBe("");
  });

  it("describes an integration with its credentials' identifiers, as the service does", async () => {
    const [first] = sim.storageIntegrations;
    const json = await get(sim, `/v2/storageIntegrations/${first?.integrationId}`);
    expect(json.data).toMatchObject({
      integrationId: first?.integrationId,
      externalCred: first?.externalCred,
    });
    expect((await get(sim, "/v2/storageIntegrations/integ-none")).code).not.toBe(0);
  });

  it("needs the project, and follows a status set through SimState", async () => {
    expect((await get(sim, "/v2/storageIntegrations")).code).not.toBe(0);
    const [first] = sim.storageIntegrations;
    sim.state.setStorageIntegrationStatus(first?.integrationId ?? "", "ERROR", "bucket gone");
    const data = (await get(sim, `/v2/storageIntegrations?projectId=${first?.projectId}`)).data as ListData;
    expect(data.storageIntegrations[0]).toMatchObject({ status: "ERROR", message: "bucket gone" });
    sim.state.setStorageIntegrationStatus(first?.integrationId ?? "", "ACTIVE", "");
    expect(() => sim.state.setStorageIntegrationStatus("integ-none", "ACTIVE", "")).toThrow(
      /unknown storage integration/,
    );
  });
});

describe("simulated storage integrations, many", () => {
  let sim: Simulator;
  simulatorPerSuite({ clusters: 2, rateLimitPerSecond: 0, storageIntegrationsPerProject: 112 }, (s) => {
    sim = s;
  });

  it("serves 112 integrations of one project in two pages of 100", async () => {
    const [project] = sim.projects;
    const page = async (n: number) =>
      (await get(sim, `/v2/storageIntegrations?projectId=${project?.id}&pageSize=100&currentPage=${n}`))
        .data as ListData;
    const [one, two, three] = [await page(1), await page(2), await page(3)];
    expect([one.count, one.storageIntegrations.length, two.storageIntegrations.length]).toEqual([
      112, 100, 12,
    ]);
    expect(three.storageIntegrations).toEqual([]);
    expect(two.currentPage).toBe(2);
    const ids = [...one.storageIntegrations, ...two.storageIntegrations].map((s) => s.integrationId);
    expect(new Set(ids).size).toBe(112);
  });
});
