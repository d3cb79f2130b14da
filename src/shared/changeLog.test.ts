import { describe, expect, it } from "vitest";
import { ChangeLog, CoalescingWindow, type WindowTimers } from "./changeLog.js";

type Step =
  | { readonly changed: string; readonly state: number; readonly news: boolean }
  | { readonly record: string; readonly state: number }
  | { readonly forget: string }
  | { readonly retain: readonly string[] };

/** Runs `steps` on a fresh log and returns what each `changed` said, and the keys left. */
function run(log: ChangeLog<number>, steps: readonly Step[]): { news: boolean[]; size: number } {
  const news: boolean[] = [];
  for (const step of steps) {
    if ("changed" in step) news.push(log.changed(step.changed, step.state));
    else if ("record" in step) log.record(step.record, step.state);
    else if ("forget" in step) log.forget(step.forget);
    else log.retain((key) => step.retain.includes(key));
  }
  return { news, size: log.size };
}

const c = (key: string, state: number, news: boolean): Step => ({ changed: key, state, news });

describe("ChangeLog: news once per change of state", () => {
  it.each<{ name: string; quiet?: number; steps: Step[]; size: number }>([
    { name: "a first state is news without a quiet state", steps: [c("a", 0, true)], size: 1 },
    {
      name: "the quiet state is no news for a key never logged",
      quiet: 0,
      steps: [c("a", 0, false)],
      size: 0,
    },
    {
      name: "the same state again is no news; another one is",
      quiet: 0,
      steps: [c("a", 2, true), c("a", 2, false), c("a", 3, true), c("a", 3, false)],
      size: 1,
    },
    {
      name: "back to quiet is news once, and the key is forgotten",
      quiet: 0,
      steps: [c("a", 2, true), c("a", 0, true), c("a", 0, false)],
      size: 0,
    },
    { name: "keys are apart", steps: [c("a", 1, true), c("b", 1, true), c("a", 1, false)], size: 2 },
    {
      name: "a recorded state is no news (a silent change)",
      quiet: 0,
      steps: [c("a", 2, true), { record: "a", state: 1 }, c("a", 1, false), c("a", 2, true)],
      size: 1,
    },
    {
      name: "recording the quiet state forgets the key",
      quiet: 0,
      steps: [c("a", 2, true), { record: "a", state: 0 }, c("a", 2, true)],
      size: 1,
    },
    {
      name: "a forgotten key's state is news again",
      steps: [c("a", 1, true), { forget: "a" }, c("a", 1, true)],
      size: 1,
    },
    {
      name: "retain forgets the keys it is not given",
      steps: [c("a", 1, true), c("b", 1, true), { retain: ["b"] }, c("a", 1, true), c("b", 1, false)],
      size: 2,
    },
  ])("$name", ({ quiet, steps, size }) => {
    const log = new ChangeLog<number>(quiet === undefined ? {} : { quiet });
    const expected = steps.flatMap((s) => ("changed" in s ? [s.news] : []));
    expect(run(log, steps)).toEqual({ news: expected, size });
  });

  it("tells what was last logged", () => {
    const log = new ChangeLog<string>({ quiet: "" });
    log.changed("a", "x");
    expect([log.last("a"), log.has("a"), log.last("b"), log.has("b")]).toEqual(["x", true, undefined, false]);
  });
});

/** Timers that move only when the test says so. */
function manualTimers(): WindowTimers & { advance(ms: number): void } {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  return {
    set: (fn, ms) => {
      pending.set(++next, { at: now + ms, fn });
      return next;
    },
    clear: (h) => void pending.delete(h as number),
    advance(ms) {
      now += ms;
      for (const [h, t] of [...pending].sort(([, a], [, b]) => a.at - b.at)) {
        if (t.at > now) continue;
        pending.delete(h);
        t.fn();
      }
    },
  };
}

describe("CoalescingWindow", () => {
  it.each<{ name: string; restart: boolean; touches: number[]; closes: number[] }>([
    {
      name: "closes a window after the change that opened it",
      restart: false,
      touches: [0, 400, 900],
      closes: [1000],
    },
    {
      name: "settles: each change pushes the close further",
      restart: true,
      touches: [0, 400, 900],
      closes: [1900],
    },
    {
      name: "a change after a close opens another",
      restart: false,
      touches: [0, 1500],
      closes: [1000, 2500],
    },
    { name: "nothing closes what nothing opened", restart: true, touches: [], closes: [] },
  ])("$name", ({ restart, touches, closes }) => {
    const timers = manualTimers();
    const closed: number[] = [];
    let now = 0;
    const w = new CoalescingWindow(1000, () => closed.push(now), { restart, timers });
    for (let t = 0; t <= 3000; t += 100) {
      if (t > 0) {
        now = t;
        timers.advance(100);
      }
      if (touches.includes(t)) w.touch();
    }
    expect(closed).toEqual(closes);
  });

  it("closes at once when asked, and not again when its timer would have", () => {
    const timers = manualTimers();
    let closed = 0;
    const w = new CoalescingWindow(1000, () => closed++, { timers });
    w.touch();
    w.close();
    timers.advance(1000);
    expect(closed).toBe(1);
  });
});
