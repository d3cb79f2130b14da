import { describe, expect, it } from "vitest";
import { inShard, ownsGlobalCalls, shardOf } from "./shard.js";

describe("shardOf", () => {
  it("is stable and within range", () => {
    // Pinned values: a change would silently move clusters between running exporters.
    // FNV-1a("a") is 0xe40c292c = 3826002220, the published test vector.
    expect(shardOf("a", 1000)).toBe(220);
    expect(shardOf("in01-0123456789abcdef", 1000)).toBe(872);
    expect(shardOf("proj/job", 4)).toBe(2);
    expect([shardOf("a", 1), shardOf("b", 1)]).toEqual([0, 0]);
    for (let i = 0; i < 200; i++) {
      const s = shardOf(`cluster-${i}`, 7);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThan(7);
    }
  });

  it("spreads keys over every shard", () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 400; i++) {
      const shard = shardOf(`in01-${i}`, 4);
      counts[shard] = (counts[shard] ?? 0) + 1;
    }
    for (const c of counts) expect(c).toBeGreaterThan(50);
  });

  it.each([0, -1, 1.5])("rejects total %d", (total) => {
    expect(() => shardOf("a", total)).toThrow(RangeError);
  });

  it("assigns every key to exactly one shard", () => {
    for (const key of ["a", "b", "in01-x", "proj/job"]) {
      const owners = [0, 1, 2].filter((index) => inShard(key, { index, total: 3 }));
      expect(owners).toHaveLength(1);
    }
    expect(inShard("anything", undefined)).toBe(true);
  });

  it("gives account-wide calls to shard 0", () => {
    expect(ownsGlobalCalls(undefined)).toBe(true);
    expect(ownsGlobalCalls({ index: 0, total: 2 })).toBe(true);
    expect(ownsGlobalCalls({ index: 1, total: 2 })).toBe(false);
  });
});
