/**
 * Private endpoints against the simulator, as a user meets them: every endpoint of every project
 * with its cloud, region, endpoint service and both statuses; the demo's pending one; a status
 * followed at the next listing; 112 endpoints of a project read in two pages; a refused key that
 * costs this collector alone; and not one Google Cloud project ID in /metrics.
 */
import { describe, expect, it } from "vitest";
import {
  expectNotPermittedOnce,
  nextListing,
  refuseKeyOnNextListing,
  useConsoleHarness,
} from "./helpers/consoleHarness.js";
import { matching, parseSamples, sampleValue } from "./helpers/harness.js";

const LIST = "GET /v2/projects/{projectId}/privateEndpoints";
const TARGET = { collector: "private_endpoints", target: "organization" };

/** An exporter polling only the private endpoints (and the inventory), on a manual clock. */
const start = useConsoleHarness({
  sim: { privateEndpointPending: true },
  only: ["private_endpoints", "inventory"],
});

describe("private endpoints against the simulator", () => {
  it("show every endpoint of every project with both statuses, one listing per project", async () => {
    const { harness } = await start();
    const text = await harness.metrics();
    const endpoints = harness.sim.privateEndpoints;
    expect(endpoints.length).toBe(2 * harness.sim.projects.length);
    for (const e of endpoints) {
      const id = { project_id: e.projectId, endpoint_id: e.endpointId };
      expect(
        sampleValue(text, "vdbcloud_private_endpoint_info", {
          ...id,
          region_id: e.regionId,
          cloud_id: e.cloudId,
          endpoint_service: e.endpointService,
        }),
        e.endpointId,
      ).toBe(1);
      expect(
        sampleValue(text, "vdbcloud_private_endpoint_status", {
          ...id,
          status: e.endpointStatus.toLowerCase(),
        }),
      ).toBe(1);
      expect(
        sampleValue(text, "vdbcloud_private_endpoint_service_status", {
          ...id,
          status: e.endpointServiceStatus.toLowerCase(),
        }),
      ).toBe(1);
    }
    // The demo's one bad case: the first project's pending endpoint, available at 0.
    const samples = parseSamples(text);
    const down = matching(samples, "vdbcloud_private_endpoint_status", {}).filter(
      (s) => s.labels.status !== "available" && s.value === 1,
    );
    expect(down.map((s) => [s.labels.project_id, s.labels.status])).toEqual([
      [harness.sim.projects[0]?.id, "pending"],
    ]);
    expect(
      sampleValue(text, "vdbcloud_private_endpoint_status", {
        project_id: down[0]?.labels.project_id ?? "",
        endpoint_id: down[0]?.labels.endpoint_id ?? "",
        status: "available",
      }),
    ).toBe(0);
    // Each cloud's naming (the one project here: AWS and Google Cloud), and no Google Cloud project ID.
    expect(new Set(endpoints.map((e) => e.cloudId))).toEqual(new Set(["aws", "gcp"]));
    const gcpProjects = endpoints.flatMap((e) => (e.gcpProjectId === undefined ? [] : [e.gcpProjectId]));
    expect(gcpProjects.length).toBeGreaterThan(0);
    for (const p of gcpProjects) expect(text).not.toContain(p);
    // One page per project: every project of List Projects V2 has fewer than 100 endpoints.
    expect(harness.sim.stats.byEndpoint[LIST]).toBe(harness.sim.projects.length);
    expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
    expect(harness.sim.stats.mutatingCalls).toEqual([]);
  });

  it("follow an endpoint that becomes available, and a service that is rejected, at the next listing", async () => {
    const { harness, clock } = await start();
    const pending = harness.sim.privateEndpoints.find((e) => e.endpointStatus === "PENDING");
    const other = harness.sim.privateEndpoints.find((e) => e.endpointStatus === "AVAILABLE");
    if (!pending || !other) throw new Error("no pending and available endpoints");
    harness.sim.state.setPrivateEndpointStatus(pending.endpointId, "AVAILABLE");
    harness.sim.state.setPrivateEndpointStatus(other.endpointId, "AVAILABLE", "PENDING_ACCEPTANCE");
    await nextListing(harness, clock);
    const samples = parseSamples(await harness.metrics());
    const current = (family: string, endpointId: string) =>
      matching(samples, family, { endpoint_id: endpointId })
        .filter((s) => s.value === 1)
        .map((s) => s.labels.status);
    expect(current("vdbcloud_private_endpoint_status", pending.endpointId)).toEqual(["available"]);
    // A status no longer current leaves no series behind.
    expect(
      matching(samples, "vdbcloud_private_endpoint_status", { endpoint_id: pending.endpointId }),
    ).toHaveLength(1);
    expect(current("vdbcloud_private_endpoint_service_status", other.endpointId)).toEqual([
      "pending_acceptance",
    ]);
  });

  it("read 112 endpoints of a project in two pages of 100", async () => {
    const { harness } = await start({ sim: { privateEndpointsPerProject: 112 } });
    const samples = parseSamples(await harness.metrics());
    const projects = harness.sim.projects.length;
    expect(matching(samples, "vdbcloud_private_endpoint_info", {})).toHaveLength(112 * projects);
    expect(harness.sim.stats.byEndpoint[LIST]).toBe(2 * projects);
  });

  it('a refused key (1800 "User hasn\'t authenticated") fails this collector only', async () => {
    const { harness, clock } = await start();
    // The last good listing stays until the staleness bound; the inventory, through the same key,
    // is not affected.
    expect(
      await refuseKeyOnNextListing(harness, clock, LIST, TARGET, "vdbcloud_private_endpoint_info"),
    ).toBeGreaterThan(0);
  });

  it("a key that may not list them is not permitted: up, no endpoints, one warning", async () => {
    const { harness, clock, logs } = await start();
    harness.sim.faults.set("catalogue_refusal", { rate: 1, endpoints: [LIST], code: 96013 });
    for (let i = 0; i < 2; i++) await nextListing(harness, clock);
    await expectNotPermittedOnce(harness, logs, TARGET);
  });

  it("runs on shard 0 only", async () => {
    const { harness } = await start({ shard: { index: 1, total: 2 } });
    const text = await harness.metrics();
    expect(matching(parseSamples(text), "vdbcloud_private_endpoint_info", {})).toEqual([]);
    expect(harness.sim.stats.byEndpoint[LIST] ?? 0).toBe(0);
  });
});
