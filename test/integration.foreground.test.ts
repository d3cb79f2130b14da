/**
 * Scrapes first, as the exporter wires it: while a /metrics answer is in progress (the
 * exporter's foreground entered, as the app does for each answer), no poll sends a request (the
 * clients ask the foreground for their turn), and the polls go on once the answer is written.
 * The clock of the polls is the test's; the hold is real time.
 */
import { afterEach, expect, it } from "vitest";
import { type Harness, startHarness } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const INTERVAL = 30_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it("sends no upstream request while a scrape is answered, and every one once it is written", async () => {
  const clock = new ManualClock(Math.floor(Date.now() / INTERVAL) * INTERVAL);
  h = await startHarness({
    clock,
    sim: { now: () => clock.now(), clusters: 3 },
    config: (raw) => {
      raw.import_jobs = { enabled: false };
      raw.inventory = { enabled: false };
      raw.spark_jobs = { jobs: [] };
    },
  });
  await h.exporter.scheduler.firstCycle();
  await h.settle();
  const before = h.sim.stats.requests;

  const end = h.exporter.foreground.enter();
  await clock.advance(INTERVAL);
  expect(h.exporter.scheduler.status().some((t) => t.running)).toBe(true);
  // Well inside the 250 ms a scrape may hold the polls.
  await new Promise((r) => setTimeout(r, 100));
  expect(h.sim.stats.requests).toBe(before);

  end();
  await h.settle();
  expect(h.sim.stats.requests).toBeGreaterThanOrEqual(before + 3);
});
