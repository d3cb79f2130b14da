/**
 * The client's limiter against the simulator's in every window mode: a burst of calls on one
 * endpoint drains at the full budget and draws no rate-limit answer, whichever way the server
 * counts its second. Rates are raised (50 per second) so that two windows pass quickly.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RATE_LIMIT_MODES, type Simulator, startSimulator } from "../src/simulator/index.js";
import { type CloudClient, createCloudClient } from "../src/upstream/client.js";

const RATE = 50;
const MARGIN_MS = 40;
const KEY = "ratelimit-test-key";

let open: Array<Simulator | CloudClient> = [];
afterEach(async () => {
  await Promise.all(open.map((o) => o.close()));
  open = [];
});

describe("client limiter against the simulator's window modes", () => {
  it.each(RATE_LIMIT_MODES)("%s: three windows' worth at once, no rate-limit answer", async (mode) => {
    const sim = await startSimulator({ clusters: 1, rateLimitPerSecond: RATE, rateLimitMode: mode });
    const client = createCloudClient({
      baseUrl: sim.baseUrl,
      controllerUrl: sim.controllerUrlTemplate,
      apiKey: KEY,
      requestTimeoutMs: 5_000,
      rateLimit: RATE,
      rateLimitMarginMs: MARGIN_MS,
      maxRetries: 0,
      maxResponseBytes: 1_000_000,
      maxInFlight: 16,
    });
    open.push(sim, client);
    const started = Date.now();
    const results = await Promise.allSettled(Array.from({ length: 3 * RATE }, () => client.listRegions({})));
    const elapsed = Date.now() - started;
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(sim.stats.rateLimited).toBe(0);
    // The third window's worth waited for two windows of 1 s + margin.
    expect(elapsed).toBeGreaterThanOrEqual(2 * (1_000 + MARGIN_MS));
  });

  it("a burst-allowing sender is refused by the default (sliding) simulator", async () => {
    const sim = await startSimulator({ clusters: 1, rateLimitPerSecond: RATE });
    open.push(sim);
    const send = () =>
      fetch(`${sim.baseUrl}/v2/regions`, { headers: { authorization: `Bearer ${KEY}` } }).then(
        (r) => r.status,
      );
    // A full window, then half a bucket's refill 500 ms later: 75 in a second.
    const first = await Promise.all(Array.from({ length: RATE }, send));
    await new Promise((r) => setTimeout(r, 500));
    const second = await Promise.all(Array.from({ length: RATE / 2 }, send));
    expect(first.every((s) => s === 200)).toBe(true);
    expect(second.every((s) => s === 429)).toBe(true);
    expect(sim.stats.rateLimited).toBe(RATE / 2);
  });
});
