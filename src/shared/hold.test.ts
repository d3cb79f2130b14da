import { describe, expect, it } from "vitest";
import { Hold, Holds } from "./hold.js";

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

/** One call on a hold, and what it must answer. */
type Step =
  | { readonly hold: number; readonly forMs: number; readonly first: boolean }
  | { readonly until: number; readonly first: boolean }
  | { readonly release: true; readonly wasHeld: boolean }
  | { readonly at: number; readonly held: boolean; readonly due: boolean };

const at = (offsetMs: number, held: boolean, due: boolean): Step => ({ at: T0 + offsetMs, held, due });
const hold = (offsetMs: number, first: boolean, forMs = HOUR): Step => ({
  hold: T0 + offsetMs,
  forMs,
  first,
});
const release = (wasHeld: boolean): Step => ({ release: true, wasHeld });

const CASES: { name: string; steps: Step[] }[] = [
  { name: "a fresh hold is free: neither held nor due", steps: [at(0, false, false), release(false)] },
  {
    name: "held until its time, due from then on",
    steps: [
      hold(0, true),
      at(0, true, false),
      at(HOUR - 1, true, false),
      at(HOUR, false, true),
      at(9 * HOUR, false, true),
    ],
  },
  {
    name: "refused again: held anew from then, and not the first",
    steps: [
      hold(0, true),
      hold(HOUR, false),
      at(HOUR, true, false),
      at(2 * HOUR - 1, true, false),
      at(2 * HOUR, false, true),
    ],
  },
  {
    name: "released: free, the end reported once, then a new hold is the first again",
    steps: [
      hold(0, true),
      release(true),
      at(1, false, false),
      release(false),
      hold(2, true),
      at(2, true, false),
    ],
  },
  {
    name: "a due hold released still reports the end",
    steps: [hold(0, true), at(HOUR, false, true), release(true)],
  },
  {
    name: "the duration is the caller's",
    steps: [hold(0, true, 1_000), at(999, true, false), at(1_000, false, true)],
  },
  {
    name: "held until a time given outright",
    steps: [
      { until: T0 + 500, first: true },
      at(499, true, false),
      at(500, false, true),
      { until: T0 + 900, first: false },
    ],
  },
];

describe("Hold", () => {
  it.each(CASES)("$name", ({ steps }) => {
    const h = new Hold();
    for (const step of steps) {
      if ("hold" in step) expect(h.hold(step.hold, step.forMs)).toBe(step.first);
      else if ("until" in step) expect(h.holdUntil(step.until)).toBe(step.first);
      else if ("release" in step) expect(h.release()).toBe(step.wasHeld);
      else {
        expect(h.isHeld(step.at)).toBe(step.held);
        expect(h.due(step.at)).toBe(step.due);
      }
    }
  });

  it("says since when and until when it holds, and nothing while free", () => {
    const h = new Hold();
    expect([h.active, h.sinceMs, h.untilMs]).toEqual([false, null, null]);
    h.hold(T0, HOUR);
    expect([h.active, h.sinceMs, h.untilMs]).toEqual([true, T0, T0 + HOUR]);
    h.holdUntil(T0 + 5);
    expect([h.active, h.sinceMs, h.untilMs]).toEqual([true, null, T0 + 5]);
    h.release();
    expect([h.active, h.sinceMs, h.untilMs]).toEqual([false, null, null]);
  });
});

describe("Holds", () => {
  it.each(CASES)("$name (per key, other keys untouched)", ({ steps }) => {
    const h = new Holds<string>();
    h.hold("other", T0, 10 * HOUR, "x");
    for (const step of steps) {
      if ("hold" in step) expect(h.hold("k", step.hold, step.forMs, "v")).toBe(step.first);
      else if ("until" in step) expect(h.holdUntil("k", step.until, "v")).toBe(step.first);
      else if ("release" in step) expect(h.release("k")).toBe(step.wasHeld);
      else {
        expect(h.isHeld("k", step.at)).toBe(step.held);
        expect(h.due("k", step.at)).toBe(step.due);
      }
    }
    expect(h.isHeld("other", T0 + HOUR)).toBe(true);
  });

  it("keeps the latest value while held, and forgets a released or unretained key", () => {
    const h = new Holds<string>();
    expect(h.get("a")).toBeUndefined();
    h.hold("a", T0, HOUR, "first");
    h.holdUntil("a", T0 + 2 * HOUR, "second");
    h.hold("b", T0, HOUR, "b");
    expect(h.get("a")).toEqual({ value: "second", untilMs: T0 + 2 * HOUR });
    expect([h.has("a"), h.size]).toEqual([true, 2]);
    h.release("a");
    expect([h.has("a"), h.get("a"), h.size]).toEqual([false, undefined, 1]);
    h.retain((key) => key !== "b");
    expect(h.size).toBe(0);
  });
});
