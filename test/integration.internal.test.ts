import { afterEach, describe, expect, it } from "vitest";
import { deflateHead } from "../src/exposition/gzipJoin.js";
import { type Harness, parseSamples, startHarness } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

function count(text: string, where: string): number | undefined {
  return parseSamples(text).find(
    (s) => s.name === "vdbcloud_internal_errors_total" && s.labels.where === where,
  )?.value;
}

describe("a failure of background work", () => {
  it("is counted, logged, and the exporter keeps serving the last good state", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
    let failing = false;
    const logs: string[] = [];
    h = await startHarness({
      clock,
      logs,
      sim: { now: () => clock.now(), clusters: 2 },
      compress: (body) =>
        failing ? Promise.reject(new Error("injected compression failure")) : deflateHead(body),
    });
    await h.exporter.scheduler.firstCycle();
    await h.settle();
    const before = await h.metrics();
    expect(count(before, "publish")).toBe(0);
    const series = parseSamples(before).filter((s) => s.name === "vdbcloud_cu_computation_ratio").length;
    expect(series).toBeGreaterThan(0);

    failing = true;
    // Polls land, the store changes, and its background publish fails.
    await clock.advance(60_000);
    await h.settle();
    await new Promise((r) => setTimeout(r, 100));
    const during = await (await fetch(`${h.url}/metrics`)).text();
    expect(count(during, "publish")).toBeGreaterThanOrEqual(1);
    // Still the last good rendering of every cluster series.
    expect(parseSamples(during).filter((s) => s.name === "vdbcloud_cu_computation_ratio")).toHaveLength(
      series,
    );
    expect(logs.some((l) => l.includes("background work failed") && l.includes('"where":"publish"'))).toBe(
      true,
    );

    failing = false;
    await clock.advance(30_000);
    await h.settle();
    const after = await h.metrics();
    expect(parseSamples(after).filter((s) => s.name === "vdbcloud_cu_computation_ratio")).toHaveLength(
      series,
    );
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
  });
});
