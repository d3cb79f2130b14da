import { describe, expect, it } from "vitest";
import { createRng, hashString, hexFromHash, hexString, mix, signedUnit, unit } from "./random.js";

describe("random", () => {
  it("hashes strings stably and spreads similar inputs", () => {
    expect(hashString("in01-a")).toBe(hashString("in01-a"));
    expect(hashString("in01-a")).not.toBe(hashString("in01-b"));
    expect(mix(1, 2)).not.toBe(mix(2, 1));
  });

  it("maps hashes into [0, 1) and [-1, 1) with a roughly uniform spread", () => {
    let sum = 0;
    let lo = 1;
    let hi = 0;
    for (let i = 0; i < 10_000; i++) {
      const u = unit(mix(42, i));
      sum += u;
      lo = Math.min(lo, u);
      hi = Math.max(hi, u);
    }
    expect(sum / 10_000).toBeCloseTo(0.5, 1);
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThan(1);
    expect(signedUnit(0)).toBe(-1);
  });

  it("replays the same sequence for the same seed", () => {
    const a = createRng(5);
    const b = createRng(5);
    const c = createRng(6);
    const seqA = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(seqA);
    expect([c(), c(), c()]).not.toEqual(seqA);
  });

  it.each([1, 16, 22])("makes %i hex digits", (n) => {
    expect(hexString(createRng(1), n)).toMatch(new RegExp(`^[0-9a-f]{${n}}$`));
    expect(hexFromHash(123, n)).toMatch(new RegExp(`^[0-9a-f]{${n}}$`));
  });
});
