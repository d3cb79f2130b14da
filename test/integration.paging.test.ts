/**
 * The one pager and the one refusal rule against the simulator, as a user meets them: listings
 * without a total are read to their end, a server that repeats its first page never inflates a
 * number (it fails the listing, visibly), a refused billing key is a failure and a key without
 * the role is "not permitted", and a cluster refused for its plan is asked again when its plan
 * changes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, matching, parseSamples, sampleValue, startHarness } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";
import { sectionsOff } from "./helpers/sectionsOff.js";

const USAGE = "POST /v2/usage/query";
const BILLING_KEY = "sk-billing-0123456789abcdef-SECRET";
const NOW = Date.parse("2026-03-15T10:30:00Z");

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Every collector off but the ones `enable` turns on. */
function only(raw: Record<string, unknown>, enable: Record<string, unknown>): void {
  raw.metrics = { enabled: false };
  Object.assign(raw, sectionsOff());
  raw.spark_jobs = { jobs: [], discovery: { enabled: false } };
  raw.jobs = { ids: [] };
  Object.assign(raw, enable);
}

/** The month to date per series, summed: what a cost panel shows. */
function monthToDate(text: string): number {
  return parseSamples(text)
    .filter((s) => s.name === "vdbcloud_month_to_date_cost")
    .reduce((sum, s) => sum + s.value, 0);
}

async function billingHarness(sim: Record<string, unknown>) {
  const clock = new ManualClock(NOW);
  h = await startHarness({
    clock,
    sim: { clusters: 40, now: () => clock.now(), billingKeys: [BILLING_KEY], ...sim },
    config: (raw) => {
      raw.clusters = [];
      only(raw, { billing: { enabled: true, api_key: BILLING_KEY } });
    },
  });
  await clock.advance(0);
  await h.settle();
  return h;
}

describe("a server that answers page 1 to every Query Daily Usage call", () => {
  it("never shows a cost above the truth: the listing fails, counted and visible", async () => {
    const honest = await billingHarness({});
    const truth = monthToDate(await honest.metrics());
    expect(truth).toBeGreaterThan(0);
    // Several pages: a repeat would have added rows two or three times.
    expect(honest.sim.billing.usageRows("2026-03-01", "2026-03-16").length).toBeGreaterThan(200);
    await honest.close();
    h = undefined;

    const repeating = await billingHarness({ quirks: { pagesIgnored: [USAGE] } });
    const text = await repeating.metrics();
    expect(monthToDate(text)).toBeLessThanOrEqual(truth);
    expect(parseSamples(text).filter((s) => s.name === "vdbcloud_month_to_date_cost")).toEqual([]);
    expect(sampleValue(text, "vdbcloud_collector_up", { collector: "billing", target: "usage" })).toBe(0);
    expect(
      sampleValue(text, "vdbcloud_api_paging_errors_total", { endpoint: USAGE, reason: "repeated_page" }),
    ).toBeGreaterThan(0);
    // Invoices are their own listing, and still served.
    expect(sampleValue(text, "vdbcloud_collector_up", { collector: "billing", target: "invoices" })).toBe(1);
    const usage = repeating.exporter.health.list().find((t) => t.target === "usage");
    expect(usage?.lastError?.code).toBe("paging_error");
    expect(usage?.lastError?.message).toContain("POST /v2/usage/query: paging error (repeated_page)");
    // It stopped at the second page: no third call on a listing already known to be wrong.
    expect(repeating.sim.stats.byEndpoint[USAGE]).toBe(2);
  });
});

describe("the billing key refused", () => {
  it.each([
    { name: "HTTP 401", fault: "http_401" as const, spec: {} },
    { name: "an invalid token (80001)", fault: "invalid_key" as const, spec: {} },
  ])("as $name: billing is down, never shown as not permitted", async ({ fault, spec }) => {
    const logs: string[] = [];
    const clock = new ManualClock(NOW);
    h = await startHarness({
      clock,
      logs,
      sim: { clusters: 2, now: () => clock.now(), billingKeys: [BILLING_KEY] },
      config: (raw) => {
        raw.clusters = [];
        only(raw, { billing: { enabled: true, api_key: BILLING_KEY } });
      },
    });
    h.sim.faults.set(fault, { rate: 1, endpoints: [USAGE, "GET /v2/invoices"], ...spec });
    await clock.advance(0);
    await h.settle();
    const text = await h.metrics();
    expect(sampleValue(text, "vdbcloud_collector_up", { collector: "billing", target: "usage" })).toBe(0);
    expect(sampleValue(text, "vdbcloud_collector_up", { collector: "billing", target: "invoices" })).toBe(0);
    expect(matching(parseSamples(text), "vdbcloud_collector_not_permitted", {})).toEqual([]);
    const lines = logs.join("\n");
    expect(lines).not.toContain("lacks the permission");
    expect(lines).toContain("API key refused");
    expect(lines).not.toContain(BILLING_KEY);
  });

  it.each([96027, 96013, 96016])(
    "with the catalogue's permission code %i: not permitted, up, one warning",
    async (code) => {
      const logs: string[] = [];
      const clock = new ManualClock(NOW);
      h = await startHarness({
        clock,
        logs,
        sim: { clusters: 2, now: () => clock.now(), billingKeys: [BILLING_KEY] },
        config: (raw) => {
          raw.clusters = [];
          only(raw, { billing: { enabled: true, api_key: BILLING_KEY, interval: "PT5M" } });
        },
      });
      h.sim.faults.set("catalogue_refusal", { rate: 1, code, endpoints: [USAGE, "GET /v2/invoices"] });
      for (let i = 0; i < 3; i++) {
        await clock.advance(i === 0 ? 0 : 5 * 60_000);
        await h.settle();
      }
      const text = await h.metrics();
      expect(sampleValue(text, "vdbcloud_collector_up", { collector: "billing", target: "usage" })).toBe(1);
      expect(
        sampleValue(text, "vdbcloud_collector_not_permitted", {
          collector: "billing",
          target: "usage",
          credential: "billing",
        }),
      ).toBe(1);
      const warnings = logs.map((l) => JSON.parse(l)).filter((l) => l.level >= 40);
      expect(warnings.map((w) => w.msg)).toEqual([
        "credential lacks the permission this collector needs (the billing key needs the Organization Owner or Billing Admin role (billing.api_key)); its data is not collected",
      ]);
    },
  );
});

describe("listings whose answers carry no total", () => {
  it("discovers all 150 clusters of a List Clusters without count", async () => {
    h = await startHarness({
      sim: { clusters: 150, quirks: { countless: ["GET /v2/clusters"] } },
      config: (raw) => {
        raw.clusters = [];
        only(raw, { inventory: { enabled: false, interval: "PT30S", discovery: { enabled: true } } });
      },
    });
    for (let i = 0; i < 100 && h.exporter.clusters().length < 150; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(
      h.exporter
        .clusters()
        .map((c) => c.id)
        .sort(),
    ).toEqual(h.sim.clusters.map((c) => c.id).sort());
    // Two pages: 100, then 50 (short), no more.
    expect(h.sim.stats.byEndpoint["GET /v2/clusters"]).toBe(2);
    expect(h.sim.stats.lastRequest["GET /v2/clusters"]?.query).toMatchObject({ currentPage: "2" });
  });

  it("lists all 130 global clusters of a List Global Clusters without count", async () => {
    h = await startHarness({
      sim: { clusters: 12, globalClusters: 130, quirks: { countless: ["GET /v2/globalClusters"] } },
      config: (raw) => only(raw, { global_clusters: { enabled: true } }),
    });
    await h.exporter.scheduler.firstCycle();
    const text = await h.metrics();
    const listed = matching(parseSamples(text), "vdbcloud_global_cluster_info", {}).map(
      (s) => s.labels.global_cluster_id,
    );
    expect(listed.sort()).toEqual(h.sim.dataProtection.globalClusters.map((g) => g.globalClusterId).sort());
    expect(listed).toHaveLength(130);
    expect(
      sampleValue(text, "vdbcloud_collector_up", { collector: "global_clusters", target: "organization" }),
    ).toBe(1);
  });
});
