import { describe, expect, it } from "vitest";
import { DEFAULT_PLAN, memoryByKind, planFaults, SOAK_FAULT_KINDS } from "./faultPlan.js";

const MIN = 60_000;

describe("planFaults", () => {
  it.each([
    { minutes: 3, episodes: 5, perEpisode: 2, lengthMs: 15_000 },
    { minutes: 2, episodes: 2, perEpisode: 5, lengthMs: 15_000 },
    { minutes: 5, episodes: 10, perEpisode: 1, lengthMs: 17_000 },
    { minutes: 30, episodes: 38, perEpisode: 1, lengthMs: 40_000 },
  ])(
    "$minutes min: $episodes episodes of $perEpisode kinds, $lengthMs ms",
    ({ minutes, episodes, perEpisode, lengthMs }) => {
      const plan = planFaults(minutes * MIN);
      expect(plan).toHaveLength(episodes);
      expect(plan.every((e) => e.kinds.length === perEpisode)).toBe(true);
      expect(plan.every((e) => e.endMs - e.startMs === lengthMs)).toBe(true);
    },
  );

  it.each([2, 3, 5, 10])("in %d minutes covers every kind, within warm-up and tail, with gaps", (minutes) => {
    const total = minutes * MIN;
    const plan = planFaults(total);
    expect(new Set(plan.flatMap((e) => e.kinds))).toEqual(new Set(SOAK_FAULT_KINDS));
    expect(plan[0]?.startMs).toBe(DEFAULT_PLAN.warmupMs);
    expect(plan.at(-1)?.endMs).toBeLessThanOrEqual(total - DEFAULT_PLAN.tailMs);
    for (let i = 1; i < plan.length; i++) {
      expect((plan[i]?.startMs ?? 0) - (plan[i - 1]?.endMs ?? 0)).toBe(DEFAULT_PLAN.gapMs);
    }
  });

  it("plans nothing when warm-up and tail take the whole run", () => {
    expect(planFaults(DEFAULT_PLAN.warmupMs + DEFAULT_PLAN.tailMs)).toEqual([]);
  });

  it("gives one short episode with every kind when only a little time is left", () => {
    const plan = planFaults(DEFAULT_PLAN.warmupMs + DEFAULT_PLAN.tailMs + 10_000);
    expect(plan).toHaveLength(1);
    expect(plan[0]?.kinds).toHaveLength(SOAK_FAULT_KINDS.length);
  });
});

describe("memoryByKind", () => {
  const plan = [
    { startMs: 10_000, endMs: 20_000, kinds: ["hang"] as const },
    { startMs: 25_000, endMs: 35_000, kinds: ["http_500", "truncated"] as const },
  ];
  const at = (atMs: number, value: number) => ({ atMs, value });

  it.each([
    {
      name: "samples before, in, just after and between episodes",
      samples: [at(0, 100), at(12_000, 200), at(21_000, 250), at(23_000, 120), at(30_000, 140)],
      afterMs: 2_000,
      want: [
        { kind: "http_500", samples: 1, max: 140, median: 140 },
        { kind: "hang", samples: 2, max: 250, median: 200 },
        { kind: "truncated", samples: 1, max: 140, median: 140 },
        { kind: "none", samples: 2, max: 120, median: 100 },
      ],
    },
    {
      name: "an overlap goes to the later episode",
      samples: [at(26_000, 300)],
      afterMs: 10_000,
      want: [
        { kind: "http_500", samples: 1, max: 300, median: 300 },
        { kind: "truncated", samples: 1, max: 300, median: 300 },
      ],
    },
    { name: "no samples", samples: [], afterMs: 0, want: [] },
  ])("$name", ({ samples, afterMs, want }) => {
    expect(memoryByKind(samples, plan, afterMs)).toEqual(want);
  });
});
