import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fnv1a32 } from "../shared/hash.js";
import { nextSlot, offsetFor, type RunOutcome, type ScheduledTask, Scheduler } from "./scheduler.js";

const fakeClock = {
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout),
};

function task(
  key: string,
  intervalMs: number,
  run: (signal: AbortSignal) => Promise<RunOutcome>,
): ScheduledTask {
  return { key, collector: "c", intervalMs, run };
}

describe("nextSlot", () => {
  const interval = 1000;
  it.each<[now: number, offset: number, want: number]>([
    [0, 0, 1000],
    [999, 0, 1000],
    [1000, 0, 2000],
    [1000, 250, 1250],
    [1250, 250, 2250],
    [100, 250, 250],
  ])(`now=$0 interval=${interval} offset=$1 -> $2`, (now, offset, want) => {
    expect(nextSlot(now, interval, offset)).toBe(want);
  });
});

describe("offsetFor", () => {
  it("is stable and inside the interval, and spreads keys", () => {
    const offsets = Array.from({ length: 200 }, (_, i) => offsetFor(`cluster_metrics/in01-${i}`, 30_000));
    expect(offsets.every((o) => o >= 0 && o < 30_000)).toBe(true);
    expect(offsetFor("cluster_metrics/in01-7", 30_000)).toBe(offsets[7]);
    // Spread: every sixth of the interval holds some offsets.
    const buckets = new Set(offsets.map((o) => Math.floor(o / 5_000)));
    expect(buckets.size).toBe(6);
  });
  it("fnv1a32 matches FNV-1a reference values", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
  });
});

describe("Scheduler", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs each task at start, then once per interval at its offset", async () => {
    const times: number[] = [];
    const s = new Scheduler({ clock: fakeClock });
    s.setTasks([
      task("a", 1000, async () => {
        times.push(Date.now());
        return "ok";
      }),
    ]);
    s.start();
    await vi.advanceTimersByTimeAsync(3500);
    await s.stop();
    const offset = offsetFor("a", 1000);
    // The first slot is the first one at least half an interval after the start-up run.
    const firstSlot = offset >= 500 ? offset : 1000 + offset;
    expect(times).toEqual([0, firstSlot, firstSlot + 1000, firstSlot + 2000].filter((t) => t <= 3500));
    expect(times.length).toBeGreaterThanOrEqual(3);
  });

  it("waits out a timer that fires early instead of polling twice", async () => {
    // Node timers may run up to 1 ms before their due time.
    const earlyClock = {
      ...fakeClock,
      setTimeout: (fn: () => void, ms: number) => setTimeout(fn, Math.max(0, ms - 1)),
    };
    const times: number[] = [];
    const skipped: string[] = [];
    const s = new Scheduler({ clock: earlyClock, onSkip: (t) => skipped.push(t.key) });
    s.setTasks([
      task("a", 1000, async () => {
        times.push(Date.now());
        await new Promise((r) => setTimeout(r, 10));
        return "ok";
      }),
    ]);
    s.start();
    await vi.advanceTimersByTimeAsync(5500);
    await s.stop();
    const offset = offsetFor("a", 1000);
    const firstSlot = offset >= 500 ? offset : 1000 + offset;
    const want = [0, firstSlot, firstSlot + 1000, firstSlot + 2000, firstSlot + 3000, firstSlot + 4000];
    expect(times).toEqual(want.filter((t) => t <= 5500));
    expect(skipped).toEqual([]);
  });

  it("never overlaps a task with itself and counts the skips", async () => {
    const skipped: string[] = [];
    let concurrent = 0;
    let maxConcurrent = 0;
    const s = new Scheduler({ clock: fakeClock, onSkip: (t) => skipped.push(t.key) });
    s.setTasks([
      task("slow", 1000, async (signal) => {
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await new Promise<void>((r) => {
          const t = setTimeout(r, 2500);
          signal.addEventListener("abort", () => {
            clearTimeout(t);
            r();
          });
        });
        concurrent--;
        return "ok";
      }),
    ]);
    s.start();
    await vi.advanceTimersByTimeAsync(10_000);
    await s.stop();
    expect(maxConcurrent).toBe(1);
    expect(skipped.length).toBeGreaterThan(0);
    expect(s.status()[0]?.skipped).toBe(skipped.length);
  });

  it("backs off after permanent failures and recovers on success", async () => {
    const times: number[] = [];
    let outcome: RunOutcome = "permanent_failure";
    const s = new Scheduler({ clock: fakeClock, maxBackoffMs: 8000 });
    s.setTasks([
      task("p", 1000, async () => {
        times.push(Date.now());
        return outcome;
      }),
    ]);
    s.start();
    await vi.advanceTimersByTimeAsync(20_000);
    // 0, then >= 2 s, >= 4 s, >= 8 s (capped) apart: far fewer than 20 runs.
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(gaps[0]).toBeGreaterThanOrEqual(2000);
    expect(gaps[1]).toBeGreaterThanOrEqual(4000);
    expect(gaps.every((g) => g <= 9000)).toBe(true);
    expect(times.length).toBeLessThan(6);
    outcome = "ok";
    const before = times.length;
    await vi.advanceTimersByTimeAsync(20_000);
    // Back to one run per interval after the first success.
    expect(times.length - before).toBeGreaterThanOrEqual(18);
    await s.stop();
  });

  it("aborts in-flight runs on stop and resolves firstCycle", async () => {
    let aborted = false;
    const s = new Scheduler({ clock: fakeClock });
    s.setTasks([
      task("hang", 1000, (signal) => {
        return new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            resolve("failed");
          });
        });
      }),
    ]);
    s.start();
    const first = s.firstCycle();
    await vi.advanceTimersByTimeAsync(10);
    await s.stop();
    await first;
    expect(aborted).toBe(true);
  });

  it("adds, keeps and removes tasks on setTasks (reload)", async () => {
    const runs = new Map<string, number>();
    const mk = (key: string) =>
      task(key, 1000, async (signal) => {
        if (!signal.aborted) runs.set(key, (runs.get(key) ?? 0) + 1);
        return "ok";
      });
    const s = new Scheduler({ clock: fakeClock });
    s.setTasks([mk("a"), mk("b")]);
    s.start();
    await vi.advanceTimersByTimeAsync(2000);
    s.setTasks([mk("b"), mk("c")]);
    const aRuns = runs.get("a");
    await vi.advanceTimersByTimeAsync(3000);
    await s.stop();
    expect(runs.get("a")).toBe(aRuns);
    expect(runs.get("c")).toBeGreaterThanOrEqual(3);
    expect(
      s
        .status()
        .map((t) => t.key)
        .sort(),
    ).toEqual(["b", "c"]);
  });

  it("firstCycle waits until every task ran once", async () => {
    const s = new Scheduler({ clock: fakeClock });
    s.setTasks([
      task("fast", 1000, async () => "ok"),
      task("late", 1000, async () => {
        await new Promise((r) => setTimeout(r, 500));
        return "failed";
      }),
    ]);
    let done = false;
    void s.firstCycle().then(() => {
      done = true;
    });
    s.start();
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(done).toBe(true);
    await s.stop();
  });
});

describe("Scheduler start-up", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([0, 1, 100, 499, 500, 999])(
    "never polls twice within half an interval of start (start at %d ms into the interval)",
    async (startAt) => {
      vi.setSystemTime(startAt);
      const times = new Map<string, number[]>();
      const s = new Scheduler({ clock: fakeClock });
      s.setTasks(
        Array.from({ length: 50 }, (_, i) =>
          task(`t${i}`, 1000, async () => {
            times.set(`t${i}`, [...(times.get(`t${i}`) ?? []), Date.now()]);
            return "ok";
          }),
        ),
      );
      s.start();
      await vi.advanceTimersByTimeAsync(1600);
      await s.stop();
      for (const [key, t] of times) {
        expect(t[0], key).toBe(startAt);
        if (t[1] !== undefined) expect(t[1] - startAt, key).toBeGreaterThanOrEqual(500);
      }
    },
  );
});

describe("Scheduler.resetBackoff", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("returns a backed-off task to its normal slot", async () => {
    const times: number[] = [];
    const s = new Scheduler({ clock: fakeClock, maxBackoffMs: 60_000 });
    let outcome: RunOutcome = "permanent_failure";
    s.setTasks([
      task("k", 1000, async () => {
        times.push(Date.now());
        return outcome;
      }),
    ]);
    s.start();
    await vi.advanceTimersByTimeAsync(10_000);
    const during = times.length;
    outcome = "ok";
    s.resetBackoff();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(times.length).toBe(during + 1);
    await s.stop();
  });

  it.each([
    { room: 64, first: ["m1", "i1", "v1", "m2", "i2", "m3"] },
    { room: 1, first: ["m1", "i1", "v1"] },
  ])("starts the first runs one collector at a time in turn (room $room)", async ({ room, first }) => {
    // Registered collector by collector, as the exporter's task list is.
    const tasks = [
      ["m1", "metrics"],
      ["m2", "metrics"],
      ["m3", "metrics"],
      ["i1", "imports"],
      ["i2", "imports"],
      ["v1", "inventory"],
    ];
    const started: string[] = [];
    const s = new Scheduler({ clock: fakeClock, startupConcurrency: room });
    s.setTasks(
      tasks.map(([key, collector]) => ({
        key: key as string,
        collector: collector as string,
        intervalMs: 60_000,
        run: async () => {
          started.push(key as string);
          await new Promise((r) => setTimeout(r, 100));
          return "ok";
        },
      })),
    );
    s.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(first);
    const stopped = s.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    await stopped;
  });

  it("gates start-up runs per collector, in order, and keeps other collectors apart", async () => {
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    const started: string[] = [];
    const gated = (key: string, collector: string): ScheduledTask => ({
      key,
      collector,
      intervalMs: 60_000,
      run: async () => {
        started.push(key);
        running.set(collector, (running.get(collector) ?? 0) + 1);
        peak.set(collector, Math.max(peak.get(collector) ?? 0, running.get(collector) ?? 0));
        await new Promise((r) => setTimeout(r, 100));
        running.set(collector, (running.get(collector) ?? 0) - 1);
        return "ok";
      },
    });
    const s = new Scheduler({ clock: fakeClock, startupConcurrency: 2 });
    s.setTasks([...["a", "b", "c", "d", "e"].map((k) => gated(k, "metrics")), gated("x", "inventory")]);
    s.start();
    let ready = false;
    void s.firstCycle().then(() => {
      ready = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    // One of each collector in turn, each up to its room.
    expect(started).toEqual(["a", "x", "b"]);
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toEqual(["a", "x", "b", "c", "d"]);
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toEqual(["a", "x", "b", "c", "d", "e"]);
    expect(ready).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(ready).toBe(true);
    expect(Object.fromEntries(peak)).toEqual({ metrics: 2, inventory: 1 });
    // Tasks added later while started go through the same gate.
    s.setTasks([
      ...["a", "b", "c", "d", "e"].map((k) => gated(k, "metrics")),
      gated("x", "inventory"),
      gated("f", "metrics"),
      gated("g", "metrics"),
      gated("h", "metrics"),
    ]);
    await vi.advanceTimersByTimeAsync(0);
    expect(started.slice(6)).toEqual(["f", "g"]);
    await vi.advanceTimersByTimeAsync(100);
    expect(started.slice(6)).toEqual(["f", "g", "h"]);
    await vi.advanceTimersByTimeAsync(100);
    await s.stop();
  });

  it("frees a start-up place when a run fails or its task is removed while waiting", async () => {
    const started: string[] = [];
    const failing = (key: string): ScheduledTask =>
      task(key, 60_000, async () => {
        started.push(key);
        throw new Error("boom");
      });
    const s = new Scheduler({ clock: fakeClock, startupConcurrency: 1 });
    const all = ["a", "b", "c"].map(failing);
    s.setTasks(all);
    s.start();
    // "b" waits behind "a"; removing it lets "c" take the place "a" frees.
    s.setTasks([all[0] as ScheduledTask, all[2] as ScheduledTask]);
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(["a", "c"]);
    await s.stop();
  });

  it("rejects a start-up concurrency below one", () => {
    expect(() => new Scheduler({ startupConcurrency: 0 })).toThrow(
      new RangeError("startupConcurrency must be a whole number >= 1, got 0"),
    );
  });
});
