/**
 * Storage integrations against the simulator, as a user meets them: every integration of every
 * project with its status, the broken one in ERROR; its message in the log once per change and
 * nowhere else; Describe Storage Integration never called, so none of the credentials it names
 * reaches /metrics, the landing page or the logs; a key without the role is not permitted.
 */
import { describe, expect, it } from "vitest";
import { BROKEN_INTEGRATION_MESSAGE, type SimStorageIntegration } from "../src/simulator/index.js";
import { everyOutput, expectNotPermittedOnce, useConsoleHarness } from "./helpers/consoleHarness.js";
import { matching, parseSamples, sampleValue } from "./helpers/harness.js";

const LIST = "GET /v2/storageIntegrations";
const DESCRIBE = "GET /v2/storageIntegrations/{integrationId}";
const TARGET = { collector: "storage_integrations", target: "organization" };

const startHarness = useConsoleHarness({
  sim: { storageIntegrationError: true },
  only: ["storage_integrations", "inventory"],
});

/** An exporter polling the storage integrations (and the inventory, for the projects), on a manual clock. */
async function start(opts: { sim?: Record<string, unknown>; shard?: { index: number; total: number } } = {}) {
  const { harness, logs, clock } = await startHarness(opts);
  /** Lets the demo's interval (PT1M) pass: the next slot is within an interval and a half. */
  const cycle = async () => {
    for (let i = 0; i < 6; i++) {
      await clock.advance(15_000);
      await harness.settle();
    }
  };
  return { harness, logs, cycle };
}

/** The collector's own lines about integrations, parsed. */
function integrationLines(logs: readonly string[]): Array<Record<string, unknown>> {
  return logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.collector === "storage_integrations" && "integration_id" in l);
}

/** What no output may hold: every credential identifier Describe would show. */
function credentialsOf(integrations: readonly SimStorageIntegration[]): string[] {
  return integrations.flatMap((s) => Object.values(s.externalCred));
}

describe("storage integrations against the simulator", () => {
  it("show every integration of every project, the broken one in error, one listing per project", async () => {
    const { harness } = await start();
    const text = await harness.metrics();
    const all = harness.sim.storageIntegrations;
    expect(all.length).toBe(2 * harness.sim.projects.length);
    for (const s of all) {
      const id = { project_id: s.projectId, integration_id: s.integrationId };
      expect(
        sampleValue(text, "vdbcloud_storage_integration_info", {
          ...id,
          name: s.name,
          region_id: s.regionId,
          bucket_name: s.bucketName,
        }),
      ).toBe(1);
      const current = matching(parseSamples(text), "vdbcloud_storage_integration_status", id).filter(
        (x) => x.value === 1,
      );
      expect(current.map((x) => x.labels.status)).toEqual([s.status.toLowerCase()]);
    }
    const errors = matching(parseSamples(text), "vdbcloud_storage_integration_status", { status: "error" });
    expect(errors.filter((x) => x.value === 1)).toHaveLength(1);
    expect(harness.sim.stats.byEndpoint[LIST]).toBe(harness.sim.projects.length);
    expect(sampleValue(text, "vdbcloud_collector_up", TARGET)).toBe(1);
  });

  it("log the broken integration's message once per change, never in /metrics or on the landing page", async () => {
    const { harness, logs, cycle } = await start();
    const broken = harness.sim.storageIntegrations.find((s) => s.status === "ERROR");
    if (!broken) throw new Error("no broken integration");
    await cycle();
    await cycle();
    expect(harness.sim.stats.byEndpoint[LIST]).toBeGreaterThanOrEqual(3 * harness.sim.projects.length);
    harness.sim.state.setStorageIntegrationStatus(broken.integrationId, "ERROR", "NoSuchBucket: gone");
    await cycle();
    harness.sim.state.setStorageIntegrationStatus(broken.integrationId, "ACTIVE", "");
    await cycle();
    await cycle();
    const lines = integrationLines(logs);
    expect(lines.map((l) => [l.level, l.integration_id, l.status, l.message])).toEqual([
      [40, broken.integrationId, "error", BROKEN_INTEGRATION_MESSAGE],
      [40, broken.integrationId, "error", "NoSuchBucket: gone"],
      [30, broken.integrationId, "active", undefined],
    ]);
    const metrics = await harness.metrics();
    const landing = await (await fetch(`${harness.url}/`)).text();
    for (const text of [metrics, landing, JSON.stringify(await harness.exporter.landing())]) {
      expect(text).not.toContain("Access Denied");
      expect(text).not.toContain("NoSuchBucket");
    }
    expect(
      sampleValue(metrics, "vdbcloud_storage_integration_status", {
        project_id: broken.projectId,
        integration_id: broken.integrationId,
        status: "active",
      }),
    ).toBe(1);
  });

  it("never call Describe Storage Integration: no credential in /metrics, on the landing page or in the logs", async () => {
    const { harness, logs, cycle } = await start();
    await cycle();
    const secrets = credentialsOf(harness.sim.storageIntegrations);
    expect(secrets.length).toBe(3 * harness.sim.storageIntegrations.length);
    expect(harness.sim.stats.byEndpoint[DESCRIBE] ?? 0).toBe(0);
    expect(
      Object.keys(harness.sim.stats.byEndpoint).filter((e) => e.startsWith("GET /v2/storageIntegrations/")),
    ).toEqual([]);
    expect(logs.length).toBeGreaterThan(0);
    for (const [where, text] of await everyOutput(harness, logs)) {
      expect(
        secrets.filter((s) => text.includes(s)),
        where,
      ).toEqual([]);
      expect(text, where).not.toMatch(/arn:aws:iam|gserviceaccount|externalCred/);
    }
  });

  it("read every page: 112 integrations of each project in two pages of 100", async () => {
    const { harness } = await start({ sim: { storageIntegrationsPerProject: 112 } });
    const text = await harness.metrics();
    const projects = harness.sim.projects.length;
    expect(matching(parseSamples(text), "vdbcloud_storage_integration_info", {})).toHaveLength(
      112 * projects,
    );
    expect(harness.sim.stats.byEndpoint[LIST]).toBe(2 * projects);
  });

  it("a key without the role is not permitted: up, one warning", async () => {
    const { harness, logs, cycle } = await start();
    harness.sim.faults.set("catalogue_refusal", { rate: 1, endpoints: [LIST], code: 96013 });
    await cycle();
    await cycle();
    await expectNotPermittedOnce(harness, logs, TARGET);
  });

  it("run on shard 0 only", async () => {
    const { harness } = await start({ shard: { index: 1, total: 2 } });
    const text = await harness.metrics();
    expect(matching(parseSamples(text), "vdbcloud_storage_integration_info", {})).toEqual([]);
    expect(harness.sim.stats.byEndpoint[LIST] ?? 0).toBe(0);
  });
});
