/** The simulated List Private Endpoints: the reference's shape, its variants, paging and the demo's bad case. */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import {
  normalizePrivateEndpoints,
  privateEndpointsDataSchema,
} from "../upstream/endpoints/privateEndpoints.js";
import { GCP_PRIVATE_ENDPOINT, REFERENCE_PRIVATE_ENDPOINTS } from "../upstream/privateEndpointsTestkit.js";
import type { Simulator } from "./index.js";
import { simulatorPerSuite } from "./testkit.js";

interface Listed {
  count: number;
  currentPage: number;
  pageSize: number;
  endpoints: Array<Record<string, unknown>>;
}

async function list(sim: Simulator, projectId: string, query = "") {
  const res = await request(`${sim.baseUrl}/v2/projects/${projectId}/privateEndpoints${query}`, {
    headers: { authorization: "Bearer test-key" },
  });
  const json = (await res.body.json()) as { code: number; data: Listed };
  expect(json.code).toBe(0);
  return json.data;
}

describe("simulated private endpoints", () => {
  let sim: Simulator;
  simulatorPerSuite({ clusters: 6, rateLimitPerSecond: 0, privateEndpointPending: true }, (s) => {
    sim = s;
  });

  it("lists a project's endpoints with the sample's fields, gcpProjectId on Google Cloud ones only", async () => {
    const sampleKeys = Object.keys(REFERENCE_PRIVATE_ENDPOINTS.endpoints[0]).sort();
    const gcpKeys = Object.keys(GCP_PRIVATE_ENDPOINT).sort();
    const clouds = new Set<string>();
    for (const project of sim.projects) {
      const data = await list(sim, project.id, "?currentPage=1&pageSize=100");
      const expected = sim.privateEndpoints.filter((e) => e.projectId === project.id);
      expect(data).toMatchObject({ count: expected.length, currentPage: 1, pageSize: 100 });
      expect(data.endpoints.map((e) => e.endpointId)).toEqual(expected.map((e) => e.endpointId));
      for (const e of data.endpoints) {
        clouds.add(String(e.cloudId));
        expect(Object.keys(e).sort()).toEqual(e.cloudId === "gcp" ? gcpKeys : sampleKeys);
      }
      // What the exporter reads of it.
      expect(() => privateEndpointsDataSchema.parse(data)).not.toThrow();
    }
    expect([...clouds].sort()).toEqual(["aws", "azure", "gcp"]);
  });

  it("holds one endpoint that is not available, in the first project: the demo's bad case", () => {
    const bad = sim.privateEndpoints.filter(
      (e) => e.endpointStatus !== "AVAILABLE" || e.endpointServiceStatus !== "AVAILABLE",
    );
    expect(bad.map((e) => [e.projectId, e.endpointStatus, e.endpointServiceStatus])).toEqual([
      [sim.projects[0]?.id, "PENDING", "AVAILABLE"],
    ]);
  });

  it("pages by 10 when no size, or one outside 1..100, is asked, and lists none for another project", async () => {
    const [project] = sim.projects;
    const id = project?.id ?? "";
    for (const query of ["", "?pageSize=0", "?pageSize=101", "?pageSize=ten"]) {
      expect((await list(sim, id, query)).pageSize).toBe(10);
    }
    expect(await list(sim, "proj-nobody")).toEqual({ count: 0, currentPage: 1, pageSize: 10, endpoints: [] });
  });

  it("follows a status set through SimState", async () => {
    const bad = sim.privateEndpoints.find((e) => e.endpointStatus === "PENDING");
    if (!bad) throw new Error("no pending endpoint");
    sim.state.setPrivateEndpointStatus(bad.endpointId, "AVAILABLE", "REJECTED");
    try {
      const data = await list(sim, bad.projectId);
      const page = normalizePrivateEndpoints(privateEndpointsDataSchema.parse(data), {
        projectId: bad.projectId,
        pageSize: 10,
        currentPage: 1,
      });
      expect(page.endpoints.find((e) => e.endpointId === bad.endpointId)).toMatchObject({
        endpointStatus: "AVAILABLE",
        endpointServiceStatus: "REJECTED",
      });
    } finally {
      sim.state.setPrivateEndpointStatus(bad.endpointId, "PENDING", "AVAILABLE");
    }
    expect(() => sim.state.setPrivateEndpointStatus("vpce-nowhere", "AVAILABLE")).toThrow(
      /unknown private endpoint/,
    );
  });
});

describe("simulated private endpoints, many to a project", () => {
  let sim: Simulator;
  simulatorPerSuite({ clusters: 2, rateLimitPerSecond: 0, privateEndpointsPerProject: 112 }, (s) => {
    sim = s;
  });

  it("lists 112 endpoints in two pages of 100, each once", async () => {
    const [project] = sim.projects;
    const id = project?.id ?? "";
    const first = await list(sim, id, "?currentPage=1&pageSize=100");
    const second = await list(sim, id, "?currentPage=2&pageSize=100");
    expect([first.count, first.endpoints.length, second.endpoints.length]).toEqual([112, 100, 12]);
    const ids = [...first.endpoints, ...second.endpoints].map((e) => e.endpointId);
    expect(new Set(ids).size).toBe(112);
  });
});
