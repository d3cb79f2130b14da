import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { abortReason, sleep } from "./sleep.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("sleep", () => {
  it("resolves only once the time has passed", async () => {
    let done = false;
    const pending = sleep(100).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(done).toBe(true);
  });

  it("rejects with the signal's reason on abort and clears its timer", async () => {
    const ctl = new AbortController();
    const pending = sleep(10_000, ctl.signal);
    expect(vi.getTimerCount()).toBe(1);
    ctl.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at once for an aborted signal, without a timer", async () => {
    await expect(sleep(10, AbortSignal.abort(new Error("pre")))).rejects.toThrow("pre");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("abortReason", () => {
  it("gives the signal's reason, or an AbortError", () => {
    expect(abortReason(AbortSignal.abort("why"))).toBe("why");
    const ctl = new AbortController();
    Object.defineProperty(ctl.signal, "reason", { value: undefined });
    expect((abortReason(ctl.signal) as DOMException).name).toBe("AbortError");
  });
});
