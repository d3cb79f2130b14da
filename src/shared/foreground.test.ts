import { afterEach, describe, expect, it, vi } from "vitest";
import { Foreground } from "./foreground.js";

afterEach(() => {
  vi.useRealTimers();
});

/** Timeouts are the test's; immediates (the turns of the loop) stay real. */
const useFakeTimeouts = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });

/** One real turn of the event loop. */
const loopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `p` settled within two turns of the event loop. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await loopTurn();
  await loopTurn();
  return done;
}

/** A foreground on a clock the test moves; its slice starts used up until the first turn. */
function foreground(maxHoldMs = 250, sliceMs = 4) {
  let nowMs = 0;
  const fg = new Foreground({ maxHoldMs, sliceMs, now: () => nowMs });
  return {
    fg,
    tick: (ms: number) => {
      nowMs += ms;
    },
  };
}

describe("Foreground", () => {
  it("lets background work go at once within its slice, and ends the slice with one turn of the loop", async () => {
    useFakeTimeouts();
    const { fg, tick } = foreground();
    // No slice yet: the first step waits for a turn of the loop, which starts one.
    expect(await settled(fg.turn() as Promise<void>)).toBe(true);
    expect(fg.turn()).toBeUndefined();
    tick(3);
    expect(fg.turn()).toBeUndefined();
    tick(2);
    const later = fg.turn();
    expect(later).toBeInstanceOf(Promise);
    expect(await settled(later as Promise<void>)).toBe(true);
    expect(fg.turn()).toBeUndefined();
  });

  it("releases waiting steps one per turn of the loop, in order", async () => {
    useFakeTimeouts();
    const { fg, tick } = foreground();
    tick(10);
    const order: number[] = [];
    const steps = [0, 1, 2].map((i) => (fg.turn() as Promise<void>).then(() => order.push(i)));
    await loopTurn();
    expect(order).toEqual([0]);
    await loopTurn();
    expect(order).toEqual([0, 1]);
    await Promise.all(steps);
    expect(order).toEqual([0, 1, 2]);
  });

  it.each([
    { name: "one span", spans: 1 },
    { name: "two overlapping spans", spans: 2 },
  ])("holds background work until the last of $name ends", async ({ spans }) => {
    useFakeTimeouts();
    const { fg } = foreground();
    const ends = Array.from({ length: spans }, () => fg.enter());
    const waiting = fg.turn() as Promise<void>;
    expect(waiting).toBeInstanceOf(Promise);
    for (const end of ends.slice(0, -1)) end();
    expect(await settled(waiting)).toBe(false);
    ends.at(-1)?.();
    expect(await settled(waiting)).toBe(true);
    expect(fg.busy).toBe(false);
  });

  it("ends a span after maxHoldMs, so a slow reader never holds the polling longer", async () => {
    useFakeTimeouts();
    const { fg } = foreground(250);
    const end = fg.enter();
    const waiting = fg.turn() as Promise<void>;
    await vi.advanceTimersByTimeAsync(249);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
    expect(fg.busy).toBe(false);
    // Ending it late changes nothing: the count is not taken twice.
    end();
    const again = fg.enter();
    expect(fg.busy).toBe(true);
    again();
    expect(fg.busy).toBe(false);
  });

  it("lets a waiting step go maxHoldMs after it asked, even while spans follow each other without a gap", async () => {
    useFakeTimeouts();
    const { fg, tick } = foreground(250);
    // Both clock and timers move together: spans' ends and the hold run on the timers.
    const pass = async (ms: number) => {
      tick(ms);
      await vi.advanceTimersByTimeAsync(ms);
    };
    const first = fg.enter();
    await pass(10);
    const waiting = fg.turn() as Promise<void>;
    await pass(190);
    const second = fg.enter();
    await pass(40);
    first();
    expect(fg.busy).toBe(true);
    expect(await settled(waiting)).toBe(false);
    await pass(19);
    expect(await settled(waiting)).toBe(false);
    // 250 ms after it asked, with the second span still in progress.
    await pass(1);
    expect(await settled(waiting)).toBe(true);
    expect(fg.busy).toBe(true);
    second();
  });

  it("counts an end called twice once", () => {
    const { fg } = foreground();
    const a = fg.enter();
    const b = fg.enter();
    a();
    a();
    expect(fg.busy).toBe(true);
    b();
    expect(fg.busy).toBe(false);
  });
});
