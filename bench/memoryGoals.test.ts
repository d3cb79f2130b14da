import { describe, expect, it } from "vitest";
import { evaluateMemoryGoals, type MemoryInputs, steadyGoalBytes } from "./memoryGoals.js";
import type { Summary } from "./stats.js";

const MIB = 1024 * 1024;
const s = (p50: number): Summary => ({ count: 10, p50, p99: p50 * 2, max: p50 * 3, mean: p50 });

function inputs(over: Partial<MemoryInputs> = {}): MemoryInputs {
  return {
    series: 100_000,
    steadyRssBytes: 140 * MIB,
    peakRssBytes: 190 * MIB,
    footprintBytes: 55 * MIB,
    dependenciesFootprintBytes: 50 * MIB,
    latencies: {
      exporter: new Map([["text", s(3)]]),
      floor: new Map([["text", s(2.5)]]),
      promClient: new Map(),
    },
    ...over,
  };
}

describe("evaluateMemoryGoals", () => {
  it("scales the steady goal with the series: 150 MiB at 100k, 300 MiB at 250k", () => {
    expect(steadyGoalBytes(100_000) / MIB).toBe(150);
    expect(steadyGoalBytes(250_000) / MIB).toBe(300);
  });

  it("passes within every goal", () => {
    const checks = evaluateMemoryGoals(inputs());
    expect(checks.map((c) => c.pass)).toEqual([true, true, true, true]);
    expect(checks[3]?.detail).toBe("text 1.20x");
    expect(checks[2]?.detail).toBe("55 MiB; node with the runtime dependencies alone 50 MiB");
  });

  it("judges the footprint itself, not what the exporter adds to the dependencies", () => {
    const checks = evaluateMemoryGoals(
      inputs({ footprintBytes: 75 * MIB, dependenciesFootprintBytes: 68 * MIB }),
    );
    expect(checks[2]).toMatchObject({
      pass: false,
      detail: "75 MiB; node with the runtime dependencies alone 68 MiB",
    });
  });

  it.each([
    { name: "steady over", over: { steadyRssBytes: 151 * MIB }, index: 0 },
    { name: "peak over", over: { peakRssBytes: 201 * MIB }, index: 1 },
    { name: "footprint over", over: { footprintBytes: 61 * MIB }, index: 2 },
    {
      name: "p50 over 1.5x the floor",
      over: {
        latencies: {
          exporter: new Map([["text", s(4)]]),
          floor: new Map([["text", s(2.5)]]),
          promClient: new Map(),
        },
      },
      index: 3,
    },
  ])("fails on $name", ({ over, index }) => {
    const checks = evaluateMemoryGoals(inputs(over));
    expect(checks.map((c) => c.pass)).toEqual([0, 1, 2, 3].map((i) => i !== index));
  });
});
