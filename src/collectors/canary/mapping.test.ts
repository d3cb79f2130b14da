import { describe, expect, it } from "vitest";
import type { CanaryTarget } from "./config.js";
import { mapCanary } from "./mapping.js";
import { CanaryMemory, DESCRIBE_EVERY_MS, type ProbeResult } from "./state.js";

const TARGET: CanaryTarget = {
  clusterId: "in01-0123456789abcdef",
  dbName: "default",
  collectionName: "docs",
  operation: "search",
};
const LABELS = {
  cluster_id: TARGET.clusterId,
  db_name: "default",
  collection_name: "docs",
  operation: "search",
};

/** Every sample of one target after `probes`, as `family{labels} value` lines. */
function lines(probes: readonly ProbeResult[]): string[] {
  const memory = new CanaryMemory();
  let series = memory.record(TARGET, probes[0] as ProbeResult);
  for (const p of probes.slice(1)) series = memory.record(TARGET, p);
  return mapCanary(TARGET, series).samples.map((s) => {
    const { cluster_id: _c, db_name: _d, collection_name: _n, operation: _o, ...rest } = s.labels;
    expect({ cluster_id: _c, db_name: _d, collection_name: _n, operation: _o }).toEqual(LABELS);
    const extra = Object.entries(rest).map(([k, v]) => `${k}=${v}`);
    return `${s.family}${s.suffix ?? ""}${extra.length > 0 ? `{${extra.join(",")}}` : ""} ${s.value}`;
  });
}

describe("a target's series", () => {
  it("count each probe by outcome, time the successes in their buckets, and add up the cost", () => {
    expect(
      lines([
        { outcome: "success", seconds: 0.004, cost: 1, atMs: 1_000_000 },
        { outcome: "success", seconds: 0.3, cost: 2, atMs: 1_060_000 },
        { outcome: "timeout", atMs: 1_120_000 },
        { outcome: "success", seconds: 12, cost: null, atMs: 1_180_000 },
        { outcome: "refused", atMs: 1_240_000 },
      ]),
    ).toEqual([
      "vdbcloud_canary_up 0",
      "vdbcloud_canary_last_success_timestamp_seconds 1180",
      "vdbcloud_canary_duration_seconds_bucket{le=0.005} 1",
      "vdbcloud_canary_duration_seconds_bucket{le=0.01} 1",
      "vdbcloud_canary_duration_seconds_bucket{le=0.025} 1",
      "vdbcloud_canary_duration_seconds_bucket{le=0.05} 1",
      "vdbcloud_canary_duration_seconds_bucket{le=0.1} 1",
      "vdbcloud_canary_duration_seconds_bucket{le=0.25} 1",
      "vdbcloud_canary_duration_seconds_bucket{le=0.5} 2",
      "vdbcloud_canary_duration_seconds_bucket{le=1} 2",
      "vdbcloud_canary_duration_seconds_bucket{le=2.5} 2",
      "vdbcloud_canary_duration_seconds_bucket{le=5} 2",
      "vdbcloud_canary_duration_seconds_bucket{le=10} 2",
      "vdbcloud_canary_duration_seconds_bucket{le=+Inf} 3",
      "vdbcloud_canary_duration_seconds_sum 12.304",
      "vdbcloud_canary_duration_seconds_count 3",
      "vdbcloud_canary_requests_total{outcome=success} 3",
      "vdbcloud_canary_requests_total{outcome=error} 0",
      "vdbcloud_canary_requests_total{outcome=timeout} 1",
      "vdbcloud_canary_requests_total{outcome=refused} 1",
      "vdbcloud_canary_vcu_total 3",
    ]);
  });

  it("show no last success before one, and every outcome at 0 from the first probe", () => {
    const out = lines([{ outcome: "error", atMs: 1_000_000 }]);
    expect(out).toContain("vdbcloud_canary_up 0");
    expect(out.filter((l) => l.includes("last_success"))).toEqual([]);
    expect(out.filter((l) => l.startsWith("vdbcloud_canary_requests_total"))).toEqual([
      "vdbcloud_canary_requests_total{outcome=success} 0",
      "vdbcloud_canary_requests_total{outcome=error} 1",
      "vdbcloud_canary_requests_total{outcome=timeout} 0",
      "vdbcloud_canary_requests_total{outcome=refused} 0",
    ]);
    expect(out).toContain("vdbcloud_canary_duration_seconds_count 0");
  });
});

describe("the canary's memory", () => {
  it("keeps a schema an hour, a refused search's hold as long, and forgets targets no longer kept", () => {
    const memory = new CanaryMemory();
    const schema = { vectorFields: [{ name: "v", type: "FloatVector", dim: 2 }] };
    memory.described(TARGET, schema, 0);
    expect(memory.schema(TARGET, DESCRIBE_EVERY_MS - 1)).toBe(schema);
    expect(memory.schema(TARGET, DESCRIBE_EVERY_MS)).toBeUndefined();
    memory.described(TARGET, schema, 0);
    memory.searchRefused(TARGET, "refused", 0);
    expect(memory.schema(TARGET, 1)).toBeUndefined();
    expect(memory.queriedInstead(TARGET, DESCRIBE_EVERY_MS - 1)).toBe("refused");
    expect(memory.queriedInstead(TARGET, DESCRIBE_EVERY_MS)).toBeUndefined();
    memory.described(TARGET, schema, 0);
    memory.searchRefused(TARGET, "refused", 0);
    memory.described(TARGET, schema, 0);
    memory.record(TARGET, { outcome: "success", seconds: 0.01, atMs: 0 });
    memory.retain(new Set());
    expect(memory.schema(TARGET, 1)).toBeUndefined();
    expect(memory.queriedInstead(TARGET, 1)).toBeUndefined();
    // Its counters start again from the next probe.
    expect(memory.record(TARGET, { outcome: "error", atMs: 1 }).requests).toEqual({
      success: 0,
      error: 1,
      timeout: 0,
      refused: 0,
    });
  });
});

describe("a probe counted without its time on the wire", () => {
  it("counts the success, and times nothing: an unmeasured probe is never a 0 s one", () => {
    const memory = new CanaryMemory();
    const timed = memory.record(TARGET, { outcome: "success", seconds: 0.01, atMs: 0 });
    const untimed = memory.record(TARGET, { outcome: "success", atMs: 1 });
    expect(untimed.requests.success).toBe(2);
    expect(untimed.up).toBe(true);
    expect(untimed.durations).toEqual(timed.durations);
    expect(untimed.durations.count).toBe(1);
  });
});
