import { afterEach, describe, expect, it } from "vitest";
import type { FaultKind, FaultSpec } from "../src/simulator/faults.js";
import { type Harness, matching, parseSamples, startHarness } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const METRICS = "POST /v2/clusters/{id}/metrics/query";
const INTERVAL = 30_000;
const STALENESS = 5; // intervals (the default)
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Waits (real time) until no poll is running, so a manual-clock step has fully landed. */
async function idle(harness: Harness): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (!harness.exporter.scheduler.status().some((t) => t.running)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("polls still running after 10 s");
}

async function step(clock: ManualClock, harness: Harness, ms: number): Promise<void> {
  await clock.advance(ms);
  await idle(harness);
}

const find = (text: string, name: string, labels: Record<string, string>) =>
  matching(parseSamples(text), name, labels);

/**
 * Starts the exporter and lets its start-up cycle land, then moves half an interval on: first
 * slots fall 0.5 to 1.5 intervals after start, so from here each step of one interval polls
 * every target exactly once.
 */
async function faultHarness(clock: ManualClock, logs?: string[]): Promise<Harness> {
  const harness = await startHarness({
    clock,
    ...(logs ? { logs } : {}),
    sim: { now: () => clock.now(), clusters: 3 },
    config: (raw) => {
      raw.api = { ...(raw.api as object), request_timeout: "PT1S", max_retries: 1 };
      raw.clusters = (raw.clusters as { scopes?: unknown }[]).map((c) => ({ ...c, scopes: [] }));
      raw.import_jobs = { enabled: false };
      raw.inventory = { enabled: false };
      raw.spark_jobs = { jobs: [] };
    },
  });
  await harness.exporter.scheduler.firstCycle();
  await step(clock, harness, INTERVAL / 2);
  return harness;
}

describe("fault injection on one cluster's metrics", () => {
  it.each<{ kind: FaultKind; spec?: Partial<FaultSpec>; outcome: string; permanent?: boolean }>([
    { kind: "http_500", outcome: "http_error" },
    { kind: "http_502", outcome: "http_error" },
    { kind: "http_503", outcome: "http_error" },
    { kind: "hang", outcome: "timeout" },
    { kind: "slow_body", spec: { durationMs: 4000, chunks: 4 }, outcome: "timeout" },
    { kind: "truncated", outcome: "schema_error" },
    { kind: "non_json", outcome: "schema_error" },
    { kind: "wrong_shape", outcome: "schema_error" },
    { kind: "rate_limit_429", spec: { retryAfterSeconds: 1 }, outcome: "rate_limited" },
    { kind: "rate_limit_code", outcome: "rate_limited" },
    { kind: "invalid_key", outcome: "auth_error", permanent: true },
    { kind: "illegal_token_code0", outcome: "auth_error", permanent: true },
    { kind: "unknown_cluster", outcome: "not_found", permanent: true },
  ])(
    "$kind: keeps serving, marks only the victim down, counts $outcome, ages out, recovers",
    async ({ kind, spec, outcome, permanent }) => {
      const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
      h = await faultHarness(clock);
      await h.exporter.scheduler.firstCycle();
      const [victim, bystander] = h.sim.clusters.filter((c) => c.status === "RUNNING").map((c) => c.id);
      if (!victim || !bystander) throw new Error("need two running clusters");
      const before = find(await h.metrics(), "vdbcloud_storage_bytes", { cluster_id: victim });
      expect(before.length).toBe(1);

      h.sim.faults.set(kind, { rate: 1, endpoints: [METRICS], clusters: [victim], ...spec });
      await step(clock, h, INTERVAL);
      let text = await h.metrics();
      expect(
        find(text, "vdbcloud_collector_up", { collector: "cluster_metrics", target: victim })[0]?.value,
      ).toBe(0);
      expect(
        find(text, "vdbcloud_collector_up", { collector: "cluster_metrics", target: bystander })[0]?.value,
      ).toBe(1);
      // Last good value kept within the staleness bound.
      expect(find(text, "vdbcloud_storage_bytes", { cluster_id: victim })).toEqual(before);
      // Counted by kind.
      expect(
        find(text, "vdbcloud_api_requests_total", { endpoint: METRICS, outcome })[0]?.value,
      ).toBeGreaterThan(0);
      if (outcome === "schema_error") {
        expect(
          find(text, "vdbcloud_api_schema_errors_total", { endpoint: METRICS })[0]?.value,
        ).toBeGreaterThan(0);
      }
      if (outcome === "rate_limited") {
        expect(
          find(text, "vdbcloud_api_rate_limited_total", { endpoint: METRICS })[0]?.value,
        ).toBeGreaterThan(0);
      }
      if (permanent) {
        // Permanent errors are not retried within a poll.
        expect(find(text, "vdbcloud_api_retries_total", { endpoint: METRICS })[0]?.value).toBe(0);
      }

      // Beyond the staleness bound the victim's values disappear; the bystander's stay.
      await step(clock, h, STALENESS * INTERVAL);
      h.exporter.store.sweep();
      text = await h.metrics();
      expect(find(text, "vdbcloud_storage_bytes", { cluster_id: victim })).toEqual([]);
      expect(find(text, "vdbcloud_storage_bytes", { cluster_id: bystander }).length).toBe(1);

      // Recovery: transient faults within one interval; permanent ones at the next slow retry.
      h.sim.faults.clear();
      await step(clock, h, permanent ? 32 * INTERVAL : INTERVAL);
      text = await h.metrics();
      expect(
        find(text, "vdbcloud_collector_up", { collector: "cluster_metrics", target: victim })[0]?.value,
      ).toBe(1);
      expect(find(text, "vdbcloud_storage_bytes", { cluster_id: victim }).length).toBe(1);
    },
  );

  it("backs a permanently failing target off to a slow retry and logs once per state change", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    const logs: string[] = [];
    h = await faultHarness(clock, logs);
    await h.exporter.scheduler.firstCycle();
    const victim = h.sim.clusters.find((c) => c.status === "RUNNING")?.id as string;
    h.sim.faults.set("unknown_cluster", { rate: 1, endpoints: [METRICS], clusters: [victim] });
    const start = h.sim.stats.byEndpointCluster[METRICS]?.[victim] ?? 0;
    for (let i = 0; i < 20; i++) await step(clock, h, INTERVAL);
    const polls = (h.sim.stats.byEndpointCluster[METRICS]?.[victim] ?? 0) - start;
    // 20 intervals at 2^n backoff: far fewer polls than 20.
    expect(polls).toBeGreaterThan(1);
    expect(polls).toBeLessThanOrEqual(5);
    const failing = logs.filter((l) => l.includes('"target failing"') && l.includes(victim));
    expect(failing.length).toBe(1);
    h.sim.faults.clear();
    for (let i = 0; i < 40; i++) await step(clock, h, INTERVAL);
    expect(logs.filter((l) => l.includes('"target recovered"') && l.includes(victim)).length).toBe(1);
  });

  it("answers /metrics promptly while every upstream request hangs", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    h = await faultHarness(clock);
    await h.exporter.scheduler.firstCycle();
    h.sim.faults.set("hang", { rate: 1 });
    await clock.advance(INTERVAL);
    // Polls are hanging right now; the scrape does not wait for them.
    expect(h.exporter.scheduler.status().some((t) => t.running)).toBe(true);
    const started = Date.now();
    const res = await fetch(`${h.url}/metrics`);
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBeGreaterThan(1000);
    // Generous: the point is that it does not wait for the 1 s request timeout plus retries.
    expect(Date.now() - started).toBeLessThan(900);
    await idle(h);
  });
});
