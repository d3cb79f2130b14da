import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_RATE_LIMIT_MARGIN_MS, RateLimiter, usableRate } from "./rateLimiter.js";
import { Semaphore } from "./semaphore.js";

const KEY = "GET /v2/regions";

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Starts `n` acquisitions on `key` and records when (fake Date.now) and in what order each resolves. */
function queue(limiter: RateLimiter, n: number, key = KEY) {
  const times: number[] = [];
  const order: number[] = [];
  const all = Promise.all(
    Array.from({ length: n }, (_, i) =>
      limiter.acquire(key).then(() => {
        times.push(Date.now());
        order.push(i);
      }),
    ),
  );
  return { times, order, all };
}

function maxInWindow(times: readonly number[], windowMs: number): number {
  let max = 0;
  for (const start of times) {
    max = Math.max(max, times.filter((t) => t >= start && t < start + windowMs).length);
  }
  return max;
}

/**
 * A strict server: admits a request unless `rate` were admitted in the second before it
 * (`(t - 1 s, t]`), and does not count refusals. Returns how many it refused.
 */
function strictSlidingRefusals(arrivals: readonly number[], rate: number): number {
  const admitted: number[] = [];
  let refused = 0;
  for (const t of [...arrivals].sort((a, b) => a - b)) {
    if (admitted.filter((a) => a > t - 1_000).length >= rate) refused++;
    else admitted.push(t);
  }
  return refused;
}

/** Deterministic values in [0, 1) (a linear congruential generator). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe("usableRate", () => {
  it.each([
    [20, 0, 20],
    [20, 40, 20 / 1.04],
    [20, 50, 20 / 1.05],
    [10, 1000, 5],
  ])("rate %d, margin %d ms -> %d per second", (rate, margin, usable) => {
    expect(usableRate(rate, margin)).toBeCloseTo(usable, 9);
  });
});

describe("RateLimiter", () => {
  it.each([
    [{ rate: 0 }, "rate must be a whole number >= 1, got 0"],
    [{ rate: 2.5 }, "rate must be a whole number >= 1, got 2.5"],
    [{ rate: 5, marginMs: -1 }, "marginMs must be >= 0, got -1"],
    [{ rate: 5, marginMs: Number.NaN }, "marginMs must be >= 0, got NaN"],
  ])("rejects %o", (opts, message) => {
    expect(() => new RateLimiter(opts)).toThrow(new RangeError(message));
  });

  it("paces grants evenly, one per (1 s + margin) / rate", async () => {
    const limiter = new RateLimiter({ rate: 20, marginMs: 40 });
    const q = queue(limiter, 21);
    await vi.advanceTimersByTimeAsync(0);
    expect(q.times).toEqual([1_000_000]);
    await vi.advanceTimersByTimeAsync(51);
    expect(q.times).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.times).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_000);
    await q.all;
    expect(q.times).toEqual(Array.from({ length: 21 }, (_, i) => 1_000_000 + i * 52));
  });

  it("grants an isolated request at once", async () => {
    const limiter = new RateLimiter({ rate: 20, marginMs: 40 });
    await limiter.acquire(KEY);
    await vi.advanceTimersByTimeAsync(52);
    const q = queue(limiter, 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(q.times).toEqual([1_000_052]);
  });

  it.each([
    [20, 40],
    [20, 0],
    [4, 40],
    [3, 250],
    [1, 0],
  ])("never grants more than rate=%d in any window of 1 s + %d ms", async (rate, marginMs) => {
    const limiter = new RateLimiter({ rate, marginMs });
    const windowMs = 1_000 + marginMs;
    const n = rate * 6;
    const q = queue(limiter, n);
    await vi.advanceTimersByTimeAsync(10_000);
    await q.all;
    expect(maxInWindow(q.times, windowMs)).toBe(rate);
    // ...and it does use the budget: six windows' worth drains in six windows less one spacing
    // (plus under a millisecond per grant, as waits are rounded up to whole milliseconds).
    const ideal = 1_000_000 + 6 * windowMs - windowMs / rate;
    expect(q.times.at(-1)).toBeGreaterThanOrEqual(Math.floor(ideal));
    expect(q.times.at(-1)).toBeLessThanOrEqual(ideal + n);
  });

  it("keeps the window for steady arrivals at the usable rate (no burst after idle beyond rate)", async () => {
    const limiter = new RateLimiter({ rate: 20, marginMs: 40 });
    const times: number[] = [];
    // Arrivals every 30 ms (33/s) for 5 s, each acquiring as it comes.
    const pending: Promise<void>[] = [];
    for (let i = 0; i < 166; i++) {
      pending.push(limiter.acquire(KEY).then(() => void times.push(Date.now())));
      await vi.advanceTimersByTimeAsync(30);
    }
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(pending);
    expect(maxInWindow(times, 1_040)).toBe(20);
  });

  it("uses the default margin when none is given", async () => {
    const limiter = new RateLimiter({ rate: 1 });
    const q = queue(limiter, 2);
    await vi.advanceTimersByTimeAsync(5_000);
    await q.all;
    expect(q.times).toEqual([1_000_000, 1_000_000 + 1_000 + DEFAULT_RATE_LIMIT_MARGIN_MS]);
  });

  it("follows a clock that steps back instead of waiting out the step", async () => {
    let now = 10_000_000;
    const limiter = new RateLimiter({ rate: 2, marginMs: 0, now: () => now });
    await limiter.acquire(KEY);
    now = 5_000_000;
    let granted = false;
    void limiter.acquire(KEY).then(() => {
      granted = true;
    });
    // The step back counts as "just granted": the next waits one spacing (500 ms), not 5 000 s.
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toBe(false);
    now += 500;
    await vi.advanceTimersByTimeAsync(500);
    expect(granted).toBe(true);
  });

  it("keeps a pause as long as asked when the clock steps back during it", async () => {
    let now = 10_000_000;
    const limiter = new RateLimiter({ rate: 2, marginMs: 0, now: () => now });
    await limiter.acquire(KEY);
    limiter.penalize(KEY, 2_000);
    now = 5_000_000;
    let granted = false;
    void limiter.acquire(KEY).then(() => {
      granted = true;
    });
    // The pause still ends 2 s after it began, on the stepped clock: not 5,000 s later.
    now += 1_500;
    await vi.advanceTimersByTimeAsync(1_500);
    expect(granted).toBe(false);
    now += 600;
    await vi.advanceTimersByTimeAsync(600);
    expect(granted).toBe(true);
  });

  it("serves waiters in FIFO order", async () => {
    const limiter = new RateLimiter({ rate: 2, marginMs: 0 });
    const q = queue(limiter, 6);
    await vi.advanceTimersByTimeAsync(5_000);
    await q.all;
    expect(q.order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("keeps a newcomer behind the queue even when a slot has freed", async () => {
    const limiter = new RateLimiter({ rate: 1, marginMs: 0 });
    const order: string[] = [];
    await limiter.acquire(KEY);
    const first = limiter.acquire(KEY).then(() => order.push("first"));
    await vi.advanceTimersByTimeAsync(999);
    const second = limiter.acquire(KEY).then(() => order.push("second"));
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all([first, second]);
    expect(order).toEqual(["first", "second"]);
  });

  it("keeps one timer per key however many wait", async () => {
    const limiter = new RateLimiter({ rate: 1 });
    const q = queue(limiter, 50);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    await q.all;
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps the logs of different keys independent", async () => {
    const limiter = new RateLimiter({ rate: 1 });
    await limiter.acquire("a");
    let bGranted = false;
    void limiter.acquire("b").then(() => {
      bGranted = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(bGranted).toBe(true);
  });

  it("rejects an aborted waiter, gives its turn to the next, and stops the timer when none is left", async () => {
    const limiter = new RateLimiter({ rate: 1, marginMs: 0 });
    await limiter.acquire(KEY);
    const ctl = new AbortController();
    const aborted = limiter.acquire(KEY, ctl.signal);
    const next = queue(limiter, 1);
    ctl.abort(new Error("shutdown"));
    await expect(aborted).rejects.toThrow("shutdown");
    await vi.advanceTimersByTimeAsync(1_000);
    // The aborted waiter was recorded as nothing: the next one got the first free slot.
    expect(next.times).toEqual([1_001_000]);

    const lone = new AbortController();
    const pending = limiter.acquire(KEY, lone.signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    lone.abort();
    await expect(pending).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at once for an already aborted signal", async () => {
    const limiter = new RateLimiter({ rate: 10 });
    await expect(limiter.acquire(KEY, AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
  });

  it("pauses a penalized key for the given time, then runs at full pace at once", async () => {
    const limiter = new RateLimiter({ rate: 10, marginMs: 40 });
    limiter.penalize(KEY, 2_000);
    const q = queue(limiter, 11);
    const other = queue(limiter, 1, "other");
    await vi.advanceTimersByTimeAsync(0);
    expect(other.times).toEqual([1_000_000]);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(q.times).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    // Full pace again at once: one per 104 ms from the end of the pause, no ramp.
    expect(q.times).toEqual([1_002_000]);
    await vi.advanceTimersByTimeAsync(1_040);
    expect(q.times).toEqual(Array.from({ length: 11 }, (_, i) => 1_002_000 + i * 104));
    await q.all;
  });

  it("holds a waiter already asleep until its slot for a pause that began meanwhile", async () => {
    const limiter = new RateLimiter({ rate: 1, marginMs: 0 });
    await limiter.acquire(KEY);
    const q = queue(limiter, 1);
    await vi.advanceTimersByTimeAsync(500);
    limiter.penalize(KEY, 3_000);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(q.times).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.times).toEqual([1_003_500]);
  });

  it("keeps the longer of two pauses", async () => {
    const limiter = new RateLimiter({ rate: 10 });
    limiter.penalize(KEY, 3_000);
    limiter.penalize(KEY, 1_000);
    const q = queue(limiter, 1);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(q.times).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.times).toEqual([1_003_000]);
  });

  describe("counts a request from when it leaves, not from its grant", () => {
    /**
     * 60 requests through `rate` 20 and a 40 ms margin; request `late` waits `delayMs` after its
     * grant before it leaves (a full in-flight pool, a busy event loop); every other one leaves
     * at its grant. Returns when each left.
     */
    async function sendTimes(limiter: RateLimiter, late: number, delayMs: number, report: boolean) {
      const left: number[] = [];
      const all = Array.from({ length: 60 }, async (_, i) => {
        const permit = await limiter.grant(KEY);
        if (i === late) await new Promise((r) => setTimeout(r, delayMs));
        left.push(Date.now());
        if (report) permit.sent();
        permit.release();
      });
      await vi.advanceTimersByTimeAsync(20_000);
      await Promise.all(all);
      return left;
    }

    it("a grant-only count lets a delayed request make 21 in one second (the cause)", async () => {
      // The request granted right after a delayed one was released is counted at its release:
      // what `acquire` callers get. Here the delay is reported only on release, as if unseen.
      const limiter = new RateLimiter({ rate: 20, marginMs: 40 });
      const left: number[] = [];
      const all = Array.from({ length: 60 }, async (_, i) => {
        await limiter.acquire(KEY);
        if (i === 5) await new Promise((r) => setTimeout(r, 300));
        left.push(Date.now());
      });
      await vi.advanceTimersByTimeAsync(20_000);
      await Promise.all(all);
      expect(maxInWindow(left, 1_000)).toBe(21);
      expect(strictSlidingRefusals(left, 20)).toBeGreaterThan(0);
    });

    it.each([
      [5, 60],
      [5, 300],
      [19, 900],
      [0, 2_500],
    ])("request %d leaving %d ms after its grant: never 21 in a second", async (late, delayMs) => {
      const limiter = new RateLimiter({ rate: 20, marginMs: 40 });
      const left = await sendTimes(limiter, late, delayMs, true);
      expect(maxInWindow(left, 1_040)).toBe(20);
      expect(strictSlidingRefusals(left, 20)).toBe(0);
    });

    it("waits for a granted request until it is answered, then a window after it left", async () => {
      const limiter = new RateLimiter({ rate: 2, marginMs: 0 });
      const first = await limiter.grant(KEY);
      const second = limiter.acquire(KEY); // at 1_000_500 (spacing)
      await vi.advanceTimersByTimeAsync(500);
      await second;
      let third = false;
      void limiter.acquire(KEY).then(() => {
        third = true;
      });
      await vi.advanceTimersByTimeAsync(5_000);
      // The first request still has not left: it may leave at any moment, so no third grant.
      expect(third).toBe(false);
      first.sent(); // leaves at 1_005_500
      await vi.advanceTimersByTimeAsync(300);
      // Left, but not answered: the server may not have counted it yet.
      expect(third).toBe(false);
      // Answered 300 ms after it left: a second after its answer (no margin here).
      first.release();
      await vi.advanceTimersByTimeAsync(999);
      expect(third).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(third).toBe(true);
      expect(Date.now()).toBe(1_006_800);
    });

    it.each([
      { marginMs: 100, latency: 20, next: 1_100 },
      { marginMs: 100, latency: 100, next: 1_100 },
      { marginMs: 100, latency: 420, next: 1_420 },
      { marginMs: 40, latency: 300, next: 1_300 },
      { marginMs: 100, latency: 3_000, next: 4_000 },
    ])(
      "margin $marginMs ms, answered after $latency ms: its chain's next leaves $next ms after it",
      async ({ marginMs, latency, next }) => {
        // One request per window: the second waits for the first's chain.
        const limiter = new RateLimiter({ rate: 1, marginMs });
        const permit = await limiter.grant(KEY);
        permit.sent();
        const q = queue(limiter, 1);
        await vi.advanceTimersByTimeAsync(latency);
        expect(q.times).toEqual([]);
        permit.release();
        await vi.advanceTimersByTimeAsync(5_000);
        await q.all;
        // A window after it left, and a second after its answer: the server counted it by then.
        expect(q.times).toEqual([1_000_000 + next]);
      },
    );

    it("counts a released, never-sent permit as leaving at its release", async () => {
      const limiter = new RateLimiter({ rate: 1, marginMs: 0 });
      const permit = await limiter.grant(KEY);
      await vi.advanceTimersByTimeAsync(300);
      permit.release();
      permit.sent(); // no effect once released
      const q = queue(limiter, 1);
      await vi.advanceTimersByTimeAsync(999);
      expect(q.times).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(q.times).toEqual([1_001_300]);
    });
  });

  it.each([90, 95, 100])(
    "at %i percent of the budget with arrival jitter below the default margin, a strict server refuses nothing",
    async (percent) => {
      // Targets ask at the share of the budget, at random offsets; each request reaches the
      // server 0..margin ms after it leaves (network jitter, a stall at either end).
      const limiter = new RateLimiter({ rate: 20 });
      const random = lcg(percent);
      const perSecond = (20 * percent) / 100;
      const arrivals: number[] = [];
      const all: Promise<void>[] = [];
      for (let i = 0; i < perSecond * 30; i++) {
        await vi.advanceTimersByTimeAsync(Math.floor((2 * 1_000 * random()) / perSecond));
        all.push(
          limiter.acquire(KEY).then(() => {
            arrivals.push(Date.now() + random() * DEFAULT_RATE_LIMIT_MARGIN_MS);
          }),
        );
      }
      await vi.advanceTimersByTimeAsync(60_000);
      await Promise.all(all);
      expect(arrivals).toHaveLength(perSecond * 30);
      expect(strictSlidingRefusals(arrivals, 20)).toBe(0);
    },
  );

  it("keeps the usable rate when every timer fires late (a busy loop), and still every window", async () => {
    // Each wait wakes 3 ms late: paced from the late grants, 20 per 1,040 ms would become 20
    // per 1,100 ms. The slots keep the pace; the window after each send keeps every second.
    const lateSleep = (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, ms + 3);
        signal?.addEventListener("abort", () => {
          clearTimeout(t);
          reject(signal.reason);
        });
      });
    const limiter = new RateLimiter({ rate: 20, marginMs: 40, sleep: lateSleep });
    const q = queue(limiter, 201);
    await vi.advanceTimersByTimeAsync(20_000);
    await q.all;
    // The lateness counts once per window (the window runs from a late send), not once per
    // grant: 10 windows x 3 ms, against 200 x 3 ms when pacing from late grants.
    const took = (q.times.at(-1) as number) - 1_000_000;
    expect(took).toBeLessThanOrEqual(200 * 52 + 11 * 3);
    expect(took).toBeGreaterThanOrEqual(200 * 52 - 52);
    expect(maxInWindow(q.times, 1_040)).toBe(20);
    expect(strictSlidingRefusals(q.times, 20)).toBe(0);
  });

  it("the default margin leaves at least 90% of the budget usable", () => {
    expect(usableRate(20, DEFAULT_RATE_LIMIT_MARGIN_MS) / 20).toBeGreaterThanOrEqual(0.9);
  });
});

/**
 * A clock the test drives, injected through `now` and `sleep`: a sleep is a timer on it, and
 * `runUntil` fires the timers in order, letting the promises of each settle before the next.
 */
function virtualClock() {
  let t = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fire: () => void }>();
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  const at = (ms: number, fn: () => void): void => {
    timers.set(++seq, { at: t + Math.max(0, ms), fire: fn });
  };
  const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const id = seq + 1;
      at(ms, resolve);
      signal?.addEventListener("abort", () => {
        timers.delete(id);
        reject(signal.reason);
      });
    });
  return {
    now: () => t,
    sleep,
    /** Runs `fn` at `ms` from now on this clock. */
    at,
    async runUntil(end: number): Promise<void> {
      await settle();
      for (;;) {
        let next: [number, { at: number; fire: () => void }] | undefined;
        for (const e of timers) if (e[1].at <= end && (!next || e[1].at < next[1].at)) next = e;
        if (next === undefined) break;
        timers.delete(next[0]);
        t = Math.max(t, next[1].at);
        next[1].fire();
        await settle();
      }
      t = end;
      await settle();
    },
  };
}

describe("the turn before the slot, on an injected clock", () => {
  beforeEach(() => {
    vi.useRealTimers();
  });

  /**
   * Requests as the client sends them: the endpoint's turn (a permit), then one of `slots`
   * connection slots, then the request leaves and holds its slot for `answerMs(i)`. Returns
   * when each request of each endpoint left. `order` "slot first" and `countAt` "grant" are
   * the earlier designs, kept to show what each costs.
   */
  async function client(
    requests: readonly { readonly endpoint: string; readonly at: number }[],
    opts: {
      readonly rateOf: (endpoint: string) => number;
      readonly slots: number;
      readonly answerMs: (i: number) => number;
      readonly marginMs?: number;
      readonly runMs: number;
      readonly order?: "turn first" | "slot first";
      readonly countAt?: "send" | "grant";
    },
  ): Promise<Map<string, number[]>> {
    const clock = virtualClock();
    const limiter = new RateLimiter({
      rate: 1,
      rateOf: opts.rateOf,
      marginMs: opts.marginMs ?? 100,
      now: clock.now,
      sleep: clock.sleep,
    });
    const slots = new Semaphore(opts.slots);
    const left = new Map<string, number[]>();
    const done: Promise<void>[] = [];
    requests.forEach((r, i) => {
      clock.at(r.at, () => {
        done.push(
          (async () => {
            const slotFirst = opts.order === "slot first";
            const early = slotFirst ? await slots.acquire() : undefined;
            const permit = await limiter.grant(r.endpoint);
            if (opts.countAt === "grant") {
              // Counted when granted, done with at once (the earlier client's acquire).
              permit.sent();
              permit.release();
            }
            const release = early ?? (await slots.acquire());
            permit.sent();
            const times = left.get(r.endpoint) ?? [];
            times.push(clock.now());
            left.set(r.endpoint, times);
            await clock.sleep(opts.answerMs(i));
            release();
            permit.release();
          })(),
        );
      });
    });
    await clock.runUntil(opts.runMs);
    await Promise.all(done);
    return left;
  }

  const burst = (endpoint: string, n: number, at = 0) => Array.from({ length: n }, () => ({ endpoint, at }));

  it("slot first (the earlier order): the other endpoint waits behind the whole backlog", async () => {
    const left = await client([...burst("A", 40), ...burst("B", 1, 10)], {
      rateOf: () => 20,
      slots: 1,
      answerMs: () => 5,
      runMs: 10_000,
      order: "slot first",
    });
    // A's 39 waiting requests held the slot in turn, each for its 55 ms turn.
    expect(left.get("B")?.[0]).toBeGreaterThan(39 * 55);
  });

  it.each([
    {
      name: "a backlog of one endpoint, one slot: the other endpoint leaves at once",
      requests: [...burst("A", 40), ...burst("B", 1, 10)],
      slots: 1,
      answerMs: () => 5,
      // B waits for nothing A holds: it leaves when it asks.
      firstLeaves: { A: 0, B: 10 },
    },
    {
      name: "three endpoints' backlogs, four slots: each starts at once",
      requests: [...burst("A", 60), ...burst("B", 60), ...burst("C", 60)],
      slots: 4,
      answerMs: () => 30,
      firstLeaves: { A: 0, B: 0, C: 0 },
    },
  ])("$name", async ({ requests, slots, answerMs, firstLeaves }) => {
    const left = await client(requests, { rateOf: () => 20, slots, answerMs, runMs: 10_000 });
    for (const [endpoint, at] of Object.entries(firstLeaves)) expect(left.get(endpoint)?.[0]).toBe(at);
    // Each endpoint drains at its own budget: 20 per 1.1 s, whatever the others do.
    for (const times of left.values()) {
      expect(maxInWindow(times, 1_100)).toBe(Math.min(20, times.length));
      if (times.length > 20) expect(times.at(-1)).toBeLessThanOrEqual(Math.ceil((times.length / 20) * 1_100));
    }
  });

  it("counted at the grant (the earlier count), a stall sends more than the budget in a second", async () => {
    const left = await client(burst("A", 100), {
      rateOf: () => 20,
      slots: 1,
      answerMs: (i) => (i === 0 ? 2_000 : 1),
      runMs: 120_000,
      countAt: "grant",
    });
    const times = left.get("A") ?? [];
    expect(maxInWindow(times, 1_000)).toBeGreaterThan(20);
    expect(strictSlidingRefusals(times, 20)).toBeGreaterThan(0);
  });

  it.each([
    {
      name: "every answer slow (one slot, 300 ms): requests wait for the slot after their turn",
      slots: 1,
      answerMs: () => 300,
    },
    {
      name: "a stall: the first answer takes 2 s, the granted turns behind it leave together",
      slots: 1,
      answerMs: (i: number) => (i === 0 ? 2_000 : 1),
    },
    {
      name: "every fifth answer slow (two slots, 900 ms)",
      slots: 2,
      answerMs: (i: number) => (i % 5 === 0 ? 900 : 10),
    },
    {
      name: "answers slower than a window on every slot (four slots, 1.5 s)",
      slots: 4,
      answerMs: () => 1_500,
    },
  ])("late requests never leave faster than the budget: $name", async ({ slots, answerMs }) => {
    const left = await client(burst("A", 100), { rateOf: () => 20, slots, answerMs, runMs: 120_000 });
    const times = left.get("A") ?? [];
    expect(times).toHaveLength(100);
    // Counted from when each left: never more than 20 in 1.1 s, so a strict server counting
    // a sliding second refuses none, even with each arrival up to the margin late.
    expect(maxInWindow(times, 1_100)).toBeLessThanOrEqual(20);
    const jitter = lcg(7);
    expect(
      strictSlidingRefusals(
        times.map((t) => t + jitter() * 100),
        20,
      ),
    ).toBe(0);
  });

  /**
   * 200 requests at full budget on 16 slots to a server that stalls from `stallAt` for
   * `stallMs`: what arrives meanwhile is counted (and answered 2 ms later) when it ends, as a
   * single-threaded server catching up. Returns when the server counted each request.
   */
  async function throughStall(stallAt: number, stallMs: number, release: "at the answer" | "when sent") {
    const clock = virtualClock();
    const limiter = new RateLimiter({ rate: 20, now: clock.now, sleep: clock.sleep });
    const slots = new Semaphore(16);
    const counted: number[] = [];
    const all = Array.from({ length: 200 }, async () => {
      const permit = await limiter.grant(KEY);
      const free = await slots.acquire();
      permit.sent();
      if (release === "when sent") permit.release();
      const arrives = clock.now() + 1;
      const at = arrives >= stallAt && arrives < stallAt + stallMs ? stallAt + stallMs : arrives;
      counted.push(at);
      await clock.sleep(at + 2 - clock.now());
      free();
      permit.release();
    });
    await clock.runUntil(60_000);
    await Promise.all(all);
    return counted;
  }

  it.each([
    { stallAt: 3_000, stallMs: 150 },
    { stallAt: 2_500, stallMs: 400 },
    { stallAt: 4_000, stallMs: 900 },
  ])(
    "a server stalled $stallMs ms counts what waited for it late: still none refused",
    async ({ stallAt, stallMs }) => {
      const counted = await throughStall(stallAt, stallMs, "at the answer");
      expect(counted).toHaveLength(200);
      expect(strictSlidingRefusals(counted, 20)).toBe(0);
    },
  );

  it("the same stall, the request counted from when it left alone (the cause): refused", async () => {
    const counted = await throughStall(2_500, 400, "when sent");
    expect(strictSlidingRefusals(counted, 20)).toBeGreaterThan(0);
  });

  it.each([
    { rates: { A: 20, B: 7 }, penalized: undefined },
    { rates: { A: 7, B: 6, C: 7 }, penalized: undefined },
    { rates: { A: 20, B: 20 }, penalized: "A" },
  ])(
    "keeps each endpoint to its own rate and queue: $rates, paused $penalized",
    async ({ rates, penalized }) => {
      const clock = virtualClock();
      const rateOf = (key: string) => (rates as Record<string, number>)[key] ?? 1;
      const limiter = new RateLimiter({ rate: 1, rateOf, now: clock.now, sleep: clock.sleep });
      if (penalized !== undefined) limiter.penalize(penalized, 3_000);
      const granted = new Map<string, number[]>();
      const all = Object.keys(rates).flatMap((key) =>
        Array.from({ length: 60 }, () =>
          limiter.acquire(key).then(() => {
            const times = granted.get(key) ?? [];
            times.push(clock.now());
            granted.set(key, times);
          }),
        ),
      );
      await clock.runUntil(30_000);
      await Promise.all(all);
      for (const [key, rate] of Object.entries(rates)) {
        const times = granted.get(key) ?? [];
        expect(maxInWindow(times, 1_100)).toBe(rate);
        const start = key === penalized ? 3_000 : 0;
        expect(times[0]).toBe(start);
        // Its own pace: the 60th request one spacing short of 60 / rate windows, within a
        // millisecond per grant (waits are rounded up).
        const ideal = start + (59 * 1_100) / rate;
        expect(times.at(-1)).toBeGreaterThanOrEqual(Math.floor(ideal));
        expect(times.at(-1)).toBeLessThanOrEqual(ideal + 60);
      }
    },
  );

  it("rejects a key whose rate is not a whole number >= 1", () => {
    const limiter = new RateLimiter({ rate: 20, rateOf: (key) => (key === "bad" ? 0 : 20) });
    expect(() => limiter.grant("bad")).toThrow(
      new RangeError("rate of bad must be a whole number >= 1, got 0"),
    );
  });
});
