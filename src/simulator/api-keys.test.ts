/** The simulated List API Keys: both shapes of the reference, paging, the demo's bad cases, a refusal. */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { OLDER_SAMPLE_API_KEYS, REFERENCE_API_KEYS } from "../upstream/apiKeysTestkit.js";
import { apiKeysDataSchema, normalizeApiKeys } from "../upstream/endpoints/apiKeys.js";
import { generateApiKeys } from "./api-keys.js";
import { SIM_OWN_KEY_NAME, type Simulator, type SimulatorOptions, startSimulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";
import { generateWorld } from "./world.js";

const YEAR_MS = 365 * 86_400_000;

async function get(sim: Simulator, path: string) {
  const res = await request(`${sim.baseUrl}${path}`, { headers: { authorization: "Bearer test-key" } });
  return {
    status: res.statusCode,
    json: (await res.body.json()) as { code: number; data: never; message?: string },
  };
}

interface ListData {
  count: number;
  currentPage: number;
  pageSize: number;
  apiKeys: Array<Record<string, unknown>>;
}

/** A simulator with `options`, closed after `use`. */
async function withSim(options: SimulatorOptions, use: (sim: Simulator) => Promise<void>): Promise<void> {
  const sim = await startSimulator({ clusters: 4, rateLimitPerSecond: 0, ...options });
  try {
    await use(sim);
  } finally {
    await sim.close();
  }
}

describe("simulated API keys, the current shape", () => {
  let sim: Simulator;
  simulatorPerSuite({ clusters: 4, rateLimitPerSecond: 0 }, (s) => {
    sim = s;
  });

  it("lists every key with the reference's fields, people's fields included, and the secret never", async () => {
    const { json } = await get(sim, "/v2/api-keys?currentPage=1&pageSize=100");
    expect(json.code).toBe(0);
    const data = json.data as ListData;
    expect([data.count, data.currentPage, data.pageSize]).toEqual([sim.apiKeys.length, 1, 100]);
    expect(data.apiKeys.map((k) => k.apiKeyId)).toEqual(sim.apiKeys.map((k) => k.apiKeyId));
    const sampleKeys = Object.keys(REFERENCE_API_KEYS.apiKeys[0]).sort();
    for (const k of data.apiKeys) expect(Object.keys(k).sort()).toEqual(sampleKeys);
    expect(data.apiKeys.some((k) => String(k.createdBy).includes("@"))).toBe(true);
    // The endpoint's reader takes it whole.
    const page = normalizeApiKeys(apiKeysDataSchema.parse(data));
    expect(page.apiKeys.map((k) => k.name)).toEqual(sim.apiKeys.map((k) => k.name));
  });

  it("is healthy by default: the own key Read-Only everywhere, no key a year old", () => {
    const own = sim.apiKeys.find((k) => k.name === SIM_OWN_KEY_NAME);
    expect(own?.orgRole).toBe("Member");
    expect(new Set(own?.projects.map((p) => p.role))).toEqual(new Set(["Read-Only"]));
    expect(own?.projects.length).toBe(sim.projects.length);
    for (const k of sim.apiKeys) expect(Date.now() - k.createTimeMs).toBeLessThan(YEAR_MS);
    // Every role the reference names, and one it does not.
    expect(new Set(sim.apiKeys.map((k) => k.orgRole))).toEqual(new Set(["Member", "Owner", "Billing-Admin"]));
    expect(sim.apiKeys.flatMap((k) => k.projects.map((p) => p.role))).toContain("Data Reader");
  });

  it("pages as asked, 10 by default, and refuses a page size out of range", async () => {
    const first = (await get(sim, "/v2/api-keys?pageSize=2&currentPage=1")).json.data as ListData;
    const third = (await get(sim, "/v2/api-keys?pageSize=2&currentPage=3")).json.data as ListData;
    expect(first.apiKeys.map((k) => k.name)).toEqual(sim.apiKeys.slice(0, 2).map((k) => k.name));
    expect(third.apiKeys.map((k) => k.name)).toEqual(sim.apiKeys.slice(4, 6).map((k) => k.name));
    expect(((await get(sim, "/v2/api-keys")).json.data as ListData).pageSize).toBe(10);
    expect((await get(sim, "/v2/api-keys?pageSize=101")).json.code).not.toBe(0);
  });
});

describe("simulated API keys, the variants", () => {
  it("the demo's bad cases: the own key Admin in the first project, two keys over a year old", () => {
    const world = generateWorld({ seed: 1, clusters: 4, collectionsPerCluster: 1, nowMs: 0 });
    const keys = generateApiKeys(world, 1, YEAR_MS * 3, { badCases: true });
    const own = keys.find((k) => k.name === SIM_OWN_KEY_NAME);
    expect(own?.projects[0]).toMatchObject({ projectId: world.projects[0]?.id, role: "Admin" });
    const old = keys.filter((k) => YEAR_MS * 3 - k.createTimeMs > YEAR_MS).map((k) => k.orgRole);
    expect(old.sort()).toEqual(["Billing-Admin", "Owner"]);
    // The same seed, the same keys.
    expect(generateApiKeys(world, 1, YEAR_MS * 3, { badCases: true })).toEqual(keys);
  });

  it("the older shape: role bindings and role lists, an epoch createTime", async () => {
    await withSim({ apiKeysShape: "older" }, async (sim) => {
      const data = (await get(sim, "/v2/api-keys?pageSize=100")).json.data as ListData;
      const sampleKeys = Object.keys(OLDER_SAMPLE_API_KEYS.apiKeys[0]).sort();
      for (const k of data.apiKeys) expect(Object.keys(k).sort()).toEqual(sampleKeys);
      const page = normalizeApiKeys(apiKeysDataSchema.parse(data));
      const owner = sim.apiKeys.find((k) => k.orgRole === "Owner");
      const read = page.apiKeys.find((k) => k.apiKeyId === owner?.apiKeyId);
      expect(read?.orgRoles).toEqual(["Org Owner"]);
      expect(read?.createdAtMs).toBe(owner?.createTimeMs);
      const own = page.apiKeys.find((k) => k.name === SIM_OWN_KEY_NAME);
      expect(own?.projectRoles.map((p) => p.role)).toEqual(sim.projects.map(() => "Read-Only"));
    });
  });

  it("a key that may not list keys: 96013 under HTTP 403", async () => {
    await withSim({ apiKeysRefused: true }, async (sim) => {
      const { status, json } = await get(sim, "/v2/api-keys");
      expect([status, json.code]).toEqual([403, 96013]);
    });
  });

  it("with listers: only they may list keys, every other key is refused there and only there", async () => {
    await withSim({ apiKeysListers: ["owner-key"] }, async (sim) => {
      const as = async (key: string, path: string) => {
        const res = await request(`${sim.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
        return [res.statusCode, ((await res.body.json()) as { code: number }).code];
      };
      expect(await as("test-key", "/v2/api-keys")).toEqual([403, 96013]);
      expect(await as("owner-key", "/v2/api-keys")).toEqual([200, 0]);
      expect(await as("test-key", "/v2/projects")).toEqual([200, 0]);
    });
  });

  it("more keys than a page: 112 extra make two pages of 100", async () => {
    await withSim({ apiKeysExtra: 112 }, async (sim) => {
      expect(sim.apiKeys).toHaveLength(117);
      const second = (await get(sim, "/v2/api-keys?pageSize=100&currentPage=2")).json.data as ListData;
      expect([second.count, second.apiKeys.length]).toEqual([117, 17]);
    });
  });

  it("refuses a shape it does not know", async () => {
    await expect(startSimulator({ apiKeysShape: "newest" as never })).rejects.toThrow(/apiKeysShape/);
  });
});
