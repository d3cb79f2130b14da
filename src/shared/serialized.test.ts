import { describe, expect, it } from "vitest";
import { serialized } from "./serialized.js";

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

describe("serialized", () => {
  it("runs once per call when calls do not overlap", async () => {
    let runs = 0;
    const run = serialized(async () => ++runs);
    expect(await run()).toBe(1);
    expect(await run()).toBe(2);
  });

  it("gives calls made during a run one shared follow-up run, after it", async () => {
    const g = gate();
    let runs = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const run = serialized(async () => {
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      const n = ++runs;
      if (n === 1) await g.opened;
      concurrent--;
      return n;
    });
    const first = run();
    const second = run();
    const third = run();
    expect(second).toBe(third);
    g.open();
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    expect(runs).toBe(2);
    expect(maxConcurrent).toBe(1);
  });

  it("still runs the follow-up when the first run fails", async () => {
    const g = gate();
    let runs = 0;
    const run = serialized(async () => {
      runs++;
      if (runs === 1) {
        await g.opened;
        throw new Error("bad file");
      }
      return runs;
    });
    const first = run();
    const second = run();
    g.open();
    await expect(first).rejects.toThrow("bad file");
    expect(await second).toBe(2);
  });
});
