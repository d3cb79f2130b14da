import { describe, expect, it } from "vitest";
import { DEFAULT_PLAN, planFaults, SOAK_FAULT_KINDS } from "./faultPlan.js";

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
