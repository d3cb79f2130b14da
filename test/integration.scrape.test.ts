import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { demoConfig } from "../src/app/demo.js";
import { buildConfig } from "../src/config/load.js";
import { type Harness, parseSamples, startHarness, TEST_API_KEY } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body as sent (still compressed) and decoded. */
  readonly wire: Buffer;
  readonly body: string;
}

/** GET /metrics with exactly these headers (fetch would add and undo Accept-Encoding itself). */
function scrape(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/metrics`, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (b: Buffer) => parts.push(b));
      res.on("end", () => {
        const wire = Buffer.concat(parts);
        const gz = res.headers["content-encoding"] === "gzip";
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          wire,
          body: (gz ? gunzipSync(wire) : wire).toString("utf8"),
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const OM = "application/openmetrics-text;version=1.0.0;q=1,text/plain;version=0.0.4;q=0.5";
const CU = "vdbcloud_cu_computation_ratio";

async function started(): Promise<{ harness: Harness; clock: ManualClock }> {
  const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
  const harness = await startHarness({ clock, sim: { now: () => clock.now(), clusters: 3 } });
  await harness.exporter.scheduler.firstCycle();
  await harness.settle();
  return { harness, clock };
}

describe("/metrics served from the store's snapshot", () => {
  it.each([
    { name: "text", headers: {}, om: false, gzip: false },
    { name: "text, gzip", headers: { "accept-encoding": "gzip" }, om: false, gzip: true },
    { name: "OpenMetrics", headers: { accept: OM }, om: true, gzip: false },
    {
      name: "OpenMetrics, gzip",
      headers: { accept: OM, "accept-encoding": "gzip, deflate" },
      om: true,
      gzip: true,
    },
    { name: "gzip refused with q=0", headers: { "accept-encoding": "gzip;q=0" }, om: false, gzip: false },
  ])("negotiates $name: the published body exactly, then the self-metrics", async ({ headers, om, gzip }) => {
    ({ harness: h } = await started());
    const published = await h.exporter.store.publishNow();
    // Twice: the first gzip scrape compresses on demand, the second is served from the cache.
    for (let i = 0; i < 2; i++) {
      const r = await scrape(h.url, headers);
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toContain(om ? "application/openmetrics-text" : "text/plain");
      expect(r.headers["content-encoding"]).toBe(gzip ? "gzip" : undefined);
      expect(Number(r.headers["content-length"])).toBe(r.wire.length);
      expect(r.body.startsWith((om ? published.openMetrics : published.text).toString("utf8"))).toBe(true);
      expect(r.body.endsWith("# EOF\n")).toBe(om);
      expect(parseSamples(r.body).filter((s) => s.name === CU).length).toBeGreaterThan(0);
    }
  });

  it("answers concurrent scrapes during publishes with whole snapshots, gzip equal to plain", async () => {
    let clock: ManualClock;
    ({ harness: h, clock } = await started());
    const harness = h;
    const series = parseSamples(await harness.metrics()).filter((s) => s.name === CU).length;
    expect(series).toBeGreaterThan(0);
    const variants = [
      {},
      { "accept-encoding": "gzip" },
      { accept: OM },
      { accept: OM, "accept-encoding": "gzip" },
    ];
    // Polls land (the store changes and publishes) while scrapes of every kind are in flight.
    const landing = (async () => {
      for (let i = 0; i < 4; i++) {
        await clock.advance(30_000);
        await new Promise((r) => setTimeout(r, 15));
      }
      await harness.settle();
    })();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => scrape(harness.url, variants[i % variants.length] ?? {})),
    );
    await landing;
    for (const r of answers) {
      expect(r.status).toBe(200);
      // Every cluster series exactly once: never a torn or doubled snapshot.
      const cu = parseSamples(r.body).filter((s) => s.name === CU);
      expect(cu.length).toBe(series);
      expect(new Set(cu.map((s) => JSON.stringify(s.labels))).size).toBe(series);
    }
    // Once settled, the gzip body of each format is the plain body of the same snapshot.
    const published = await harness.exporter.store.publishNow();
    for (const om of [false, true]) {
      const base = om ? { accept: OM } : {};
      const gz = await scrape(harness.url, { ...base, "accept-encoding": "gzip" });
      expect(gz.body.startsWith((om ? published.openMetrics : published.text).toString())).toBe(true);
    }
  });

  it("keeps answering during a reload that drops a cluster, and its series leave with it", async () => {
    ({ harness: h } = await started());
    const harness = h;
    const before = parseSamples(await harness.metrics()).filter((s) => s.name === CU);
    const dropped = harness.sim.clusters[0]?.id as string;
    expect(before.some((s) => s.labels.cluster_id === dropped)).toBe(true);
    const raw = demoConfig(harness.sim, { listen: "127.0.0.1:0" });
    (raw.api as Record<string, unknown>).api_key = TEST_API_KEY;
    const clusters = raw.clusters as { id: string }[];
    raw.clusters = clusters.filter((c) => c.id !== dropped);
    const config = await buildConfig(raw);
    const during = Promise.all(
      Array.from({ length: 10 }, (_, i) => scrape(harness.url, i % 2 ? { "accept-encoding": "gzip" } : {})),
    );
    await harness.exporter.applyConfig(config);
    for (const r of await during) {
      expect(r.status).toBe(200);
      expect(parseSamples(r.body).filter((s) => s.name === CU).length).toBeGreaterThan(0);
    }
    const after = parseSamples(await harness.metrics()).filter((s) => s.name === CU);
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((s) => s.labels.cluster_id === dropped)).toBe(false);
  });
});
