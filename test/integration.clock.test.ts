import { afterEach, describe, expect, it } from "vitest";
import { type Harness, parseSamples, startHarness } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const METRICS = "POST /v2/clusters/{id}/metrics/query";
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Steps the manual clock in small increments until `work` settles (client waits are on it). */
async function drive<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let done = false;
  const tracked = work.finally(() => {
    done = true;
  });
  for (let i = 0; i < 2_000 && !done; i++) await clock.advance(50, () => new Promise((r) => setImmediate(r)));
  return tracked;
}

function rateLimited(text: string): number {
  return parseSamples(text)
    .filter(
      (s) =>
        s.name === "vdbcloud_api_requests_total" &&
        s.labels.endpoint === METRICS &&
        s.labels.outcome === "rate_limited",
    )
    .reduce((n, s) => n + s.value, 0);
}

describe("one clock", () => {
  it("drives the cloud client's waits: a Retry-After is waited out on the exporter's clock", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    h = await startHarness({
      clock,
      clientClock: clock,
      sim: { now: () => clock.now(), clusters: 1 },
      config: (raw) => {
        raw.api = { ...(raw.api as object), max_retries: 1 };
        raw.clusters = (raw.clusters as { scopes?: unknown }[]).map((c) => ({ ...c, scopes: [] }));
        raw.import_jobs = { enabled: false };
        raw.inventory = { enabled: false };
        raw.spark_jobs = { jobs: [] };
      },
    });
    const harness = h;
    await drive(clock, harness.exporter.scheduler.firstCycle());
    expect(harness.exporter.scheduler.status().some((t) => t.running)).toBe(false);

    const successes = (text: string): number =>
      parseSamples(text).find(
        (x) =>
          x.name === "vdbcloud_api_requests_total" &&
          x.labels.endpoint === METRICS &&
          x.labels.outcome === "success",
      )?.value ?? 0;
    const before = successes(await harness.metrics());
    harness.sim.faults.set("rate_limit_429", { rate: 1, endpoints: [METRICS], retryAfterSeconds: 5 });
    // On to the next poll of the metrics task; its retry is then 5 s of the exporter's clock away.
    for (let i = 0; i < 200 && rateLimited(await harness.metrics()) === 0; i++) await clock.advance(1_000);
    expect(rateLimited(await harness.metrics())).toBe(1);
    expect(harness.exporter.scheduler.status().some((t) => t.running)).toBe(true);

    harness.sim.faults.clear();
    // Six seconds of the exporter's clock: the retry goes out at once. Had the client slept in
    // real time, it would still be waiting out its five seconds after the second allowed here.
    await clock.advance(6_000);
    for (let i = 0; i < 100 && harness.exporter.scheduler.status().some((t) => t.running); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(harness.exporter.scheduler.status().some((t) => t.running)).toBe(false);
    const text = await harness.metrics();
    expect(rateLimited(text)).toBe(1);
    expect(successes(text)).toBeGreaterThan(before);
  }, 30_000);
});
