import { describe, expect, it } from "vitest";
import { ApiFallback, V2_RETRY_MS } from "./fallback.js";

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

describe("ApiFallback", () => {
  it("uses v2 until v2 is refused", () => {
    const f = new ApiFallback();
    expect(f.choose("c1", T0)).toBe("v2");
    expect(f.accepted("c1")).toBe(false);
    expect(f.choose("c1", T0 + 10 * HOUR)).toBe("v2");
  });

  it.each<[offsetMs: number, choice: "v1" | "v2"]>([
    [0, "v1"],
    [1, "v1"],
    [HOUR - 1, "v1"],
    [HOUR, "v2"],
    [2 * HOUR, "v2"],
  ])("after a refusal, %d ms later: %s", (offsetMs, choice) => {
    const f = new ApiFallback();
    f.refused("c1", T0);
    expect(f.choose("c1", T0 + offsetMs)).toBe(choice);
  });

  it("walks the states: refused (reported once), retried after an hour, refused again (not reported), accepted", () => {
    const f = new ApiFallback();
    const steps: string[] = [];
    const step = (nowMs: number, v2Answers: boolean) => {
      const choice = f.choose("c1", nowMs);
      if (choice === "v1") return steps.push("v1");
      if (v2Answers) return steps.push(f.accepted("c1") ? "v2 (back)" : "v2");
      return steps.push(f.refused("c1", nowMs) ? "refused, logged" : "refused");
    };
    step(T0, true);
    step(T0 + 60_000, false);
    step(T0 + 120_000, false);
    step(T0 + 60_000 + HOUR, false);
    step(T0 + 120_000 + HOUR, true);
    step(T0 + 60_000 + 2 * HOUR, true);
    step(T0 + 120_000 + 2 * HOUR, true);
    expect(steps).toEqual(["v2", "refused, logged", "v1", "refused", "v1", "v2 (back)", "v2"]);
  });

  it("keeps targets apart", () => {
    const f = new ApiFallback();
    f.refused("c1", T0);
    expect(f.choose("c1", T0)).toBe("v1");
    expect(f.choose("c2", T0)).toBe("v2");
    expect(f.refused("c2", T0)).toBe(true);
  });

  it("honours another retry period", () => {
    const f = new ApiFallback(1000);
    f.refused("c1", T0);
    expect(f.choose("c1", T0 + 999)).toBe("v1");
    expect(f.choose("c1", T0 + 1000)).toBe("v2");
    expect(V2_RETRY_MS).toBe(HOUR);
  });

  it("gives a note once per target, and forgets targets no longer retained", () => {
    const f = new ApiFallback();
    expect(f.firstTime("c1", "no region")).toBe(true);
    expect(f.firstTime("c1", "no region")).toBe(false);
    expect(f.firstTime("c2", "no region")).toBe(true);
    f.refused("c1", T0);
    f.refused("c2", T0);
    expect(f.size).toBe(2);
    f.retain(new Set(["c2"]));
    expect(f.size).toBe(1);
    expect(f.choose("c1", T0)).toBe("v2");
    expect(f.firstTime("c1", "no region")).toBe(true);
    expect(f.firstTime("c2", "no region")).toBe(false);
    // A forgotten target's fallback is reported again, as a new target's would be.
    expect(f.refused("c1", T0)).toBe(true);
  });
});
