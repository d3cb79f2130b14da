import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Semaphore", () => {
  it("rejects an invalid permit count", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
    expect(() => new Semaphore(1.5)).toThrow(RangeError);
  });

  it("never hands out more than its permits and serves waiters FIFO", async () => {
    const sem = new Semaphore(2);
    const order: number[] = [];
    const releases = await Promise.all([sem.acquire(), sem.acquire()]);
    expect(sem.free).toBe(0);
    const waiting = [2, 3, 4].map((i) =>
      sem.acquire().then((release) => {
        order.push(i);
        return release;
      }),
    );
    await tick();
    expect(order).toEqual([]);
    releases[0]?.();
    await tick();
    expect(order).toEqual([2]);
    releases[1]?.();
    await tick();
    expect(order).toEqual([2, 3]);
    const later = await Promise.all(waiting.slice(0, 2));
    for (const release of later) release();
    const last = await waiting[2];
    last?.();
    expect(order).toEqual([2, 3, 4]);
    expect(sem.free).toBe(2);
  });

  it("ignores a second call of the same release", async () => {
    const sem = new Semaphore(1);
    const release = await sem.acquire();
    release();
    release();
    expect(sem.free).toBe(1);
  });

  it("removes an aborted waiter without consuming a permit", async () => {
    const sem = new Semaphore(1);
    const release = await sem.acquire();
    const ctl = new AbortController();
    const aborted = sem.acquire(ctl.signal);
    ctl.abort(new Error("stop"));
    await expect(aborted).rejects.toThrow("stop");
    release();
    expect(sem.free).toBe(1);
    await expect(sem.acquire(AbortSignal.abort(new Error("pre")))).rejects.toThrow("pre");
  });
});
