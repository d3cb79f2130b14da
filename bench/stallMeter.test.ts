import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StallMeter, threadCpuWaitReader } from "./stallMeter.js";

/** Ticks of a 5 ms timer: [monotonic ms, the thread's CPU wait so far in ms or undefined]. */
type Tick = readonly [number, number | undefined];

describe("StallMeter", () => {
  it.each<{ name: string; ticks: Tick[]; max: number; own: number | null; wait: number | null }>([
    {
      name: "ticks on time",
      ticks: [
        [0, 0],
        [5, 0],
        [10, 0],
      ],
      max: 0,
      own: 0,
      wait: 0,
    },
    {
      name: "a 40 ms task",
      ticks: [
        [0, 0],
        [45, 0],
        [50, 0],
      ],
      max: 40,
      own: 40,
      wait: 0,
    },
    {
      name: "a 60 ms stall, 25 ms of it waiting for a CPU",
      ticks: [
        [0, 100],
        [65, 125],
        [70, 125],
      ],
      max: 60,
      own: 35,
      wait: 25,
    },
    {
      // The longest stall is mostly wait; a shorter one is the exporter's own and is judged.
      name: "the longest stall mostly wait, a shorter one all own",
      ticks: [
        [0, 0],
        [65, 50],
        [110, 50],
      ],
      max: 60,
      own: 40,
      wait: 50,
    },
    {
      name: "the wait unknown",
      ticks: [
        [0, undefined],
        [45, undefined],
      ],
      max: 40,
      own: null,
      wait: null,
    },
    {
      name: "the wait unreadable once",
      ticks: [
        [0, 0],
        [45, Number.NaN],
        [50, 1],
      ],
      max: 40,
      own: null,
      wait: null,
    },
  ])("measures $name", ({ ticks, max, own, wait }) => {
    const meter = new StallMeter(5);
    for (const [at, cpuWait] of ticks) meter.tick(at, cpuWait);
    expect(meter.take()).toEqual({ maxMs: max, ownMaxMs: own, cpuWaitInMaxMs: wait });
  });

  it("starts each window afresh from the last tick", () => {
    const meter = new StallMeter(5);
    meter.tick(0, 0);
    meter.tick(45, 0);
    meter.take();
    meter.tick(55, 0);
    expect(meter.take()).toEqual({ maxMs: 5, ownMaxMs: 5, cpuWaitInMaxMs: 0 });
  });
});

describe("threadCpuWaitReader", () => {
  const dir = mkdtempSync(join(tmpdir(), "schedstat-"));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("reads the run-queue wait, the second field, in ms", () => {
    expect(threadCpuWaitReader(file("ok", "2356310 582774000 2\n"))?.()).toBe(582.774);
  });

  it.each([
    { name: "a missing file", path: join(dir, "absent") },
    { name: "a file without the field", path: file("short", "2356310\n") },
  ])("is undefined for $name", ({ path }) => {
    expect(threadCpuWaitReader(path)).toBeUndefined();
  });
});
