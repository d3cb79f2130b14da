/**
 * The exporter against a simulator with every upstream quirk on at once (open buckets,
 * results without `stat`, per-bucket counts, capped import pages, odd Spark job fields), next
 * to a twin simulator with none: same seed, same clock, same config. Every value the quirks
 * must not change is compared exactly between the two exporters; the Spark jobs are checked
 * for exact values of their own.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ALL_QUIRKS, type Simulator, startSimulator } from "../src/simulator/index.js";
import { type Harness, parseSamples, startHarness } from "./helpers/harness.js";
import { ManualClock } from "./helpers/manualClock.js";

const open: { h: Harness[]; sims: Simulator[] } = { h: [], sims: [] };

afterEach(async () => {
  for (const h of open.h) await h.close();
  for (const s of open.sims) await s.close();
  open.h = [];
  open.sims = [];
});

type Samples = ReturnType<typeof parseSamples>;

const CLUSTER_FAMILIES =
  /^vdbcloud_(cu_|storage_|vcu|requests_|vector_requests_|request_|slow_|flushes_|entities|loaded_|indexed_|entity_|collections|unloaded_|write_capacity|metrics_newest_bucket)/;
const IMPORT_FAMILIES = /^vdbcloud_import_job/;

function keyed(samples: Samples, pattern: RegExp): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (!pattern.test(s.name)) continue;
    out.set(`${s.name}${JSON.stringify(s.labels)}`, s.value);
  }
  return out;
}

function dropped(samples: Samples, reason: string): number {
  return (
    samples.find((s) => s.name === "vdbcloud_samples_dropped_total" && s.labels.reason === reason)?.value ?? 0
  );
}

describe("every quirk on at once", () => {
  it("gives exactly the values of a quirk-free upstream, and lists every job", async () => {
    const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000 + 17_000);
    const base = {
      clusters: 3,
      seed: 11,
      now: () => clock.now(),
      importJobsPerCluster: 12,
      timeScale: 0.001,
    };
    const quirky = await startSimulator({ ...base, quirks: ALL_QUIRKS });
    const plain = await startSimulator(base);
    open.sims.push(quirky, plain);
    // The demo config asks both request forms (first-form latencies with AVG and P99 among them),
    // a scope on the first cluster, import jobs, Spark jobs and inventory, at PT30S.
    const a = await startHarness({ clock, simulator: quirky });
    const b = await startHarness({ clock, simulator: plain });
    open.h.push(a, b);
    await a.exporter.scheduler.firstCycle();
    await b.exporter.scheduler.firstCycle();
    await clock.advance(90_000);
    await a.settle();
    await b.settle();

    const qa = parseSamples(await a.metrics());
    const qb = parseSamples(await b.metrics());
    const clusterA = keyed(qa, CLUSTER_FAMILIES);
    const clusterB = keyed(qb, CLUSTER_FAMILIES);
    expect(clusterB.size).toBeGreaterThan(100);
    expect(clusterA).toEqual(clusterB);
    // P99 and AVG of the first-form latencies both survived, under their own labels.
    const stats = new Set(
      qa.filter((s) => s.name === "vdbcloud_request_latency_seconds").map((s) => s.labels.stat),
    );
    expect(stats).toEqual(new Set(["avg", "p99"]));
    expect(keyed(qa, IMPORT_FAMILIES)).toEqual(keyed(qb, IMPORT_FAMILIES));

    // The quirks did reach the exporter: open buckets were seen and dropped, pages were capped.
    expect(dropped(qa, "open_bucket")).toBeGreaterThan(0);
    expect(dropped(qb, "open_bucket")).toBe(0);
    expect(dropped(qa, "unknown_stat")).toBe(0);
    expect(dropped(qa, "unknown_unit")).toBe(0);
    const pages = (sim: Simulator) => sim.stats.byEndpoint["POST /v2/vectordb/jobs/import/list"] ?? 0;
    expect(pages(quirky)).toBeGreaterThan(pages(plain));

    // Every Spark job of the simulator is exposed exactly once, in exactly one status.
    for (const ref of quirky.state.sparkJobRefs) {
      const statuses = qa.filter(
        (s) =>
          s.name === "vdbcloud_spark_job_status" &&
          s.labels.job_id === ref.jobId &&
          s.labels.project_id === ref.projectId,
      );
      expect(statuses.length, `${ref.projectId}/${ref.jobId}`).toBeGreaterThan(0);
      expect(statuses.filter((s) => s.value === 1)).toHaveLength(1);
    }
    const up = qa.filter((s) => s.name === "vdbcloud_collector_up");
    expect(up.filter((s) => s.value !== 1).map((s) => s.labels)).toEqual([]);
  });
});
