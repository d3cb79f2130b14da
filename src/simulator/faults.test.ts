import { describe, expect, it } from "vitest";
import { Faults, validateFault } from "./faults.js";

describe("Faults.pick", () => {
  it("picks nothing when no fault is active", () => {
    expect(new Faults(1).pick("GET /v2/regions", undefined)).toBeUndefined();
  });

  it("tries kinds in a fixed order: hang before http_500", () => {
    const f = new Faults(1);
    f.set("http_500", { rate: 1 });
    f.set("hang", { rate: 1 });
    expect(f.pick("GET /v2/regions", undefined)?.kind).toBe("hang");
    f.clear("hang");
    expect(f.pick("GET /v2/regions", undefined)?.kind).toBe("http_500");
  });

  it("needs a cluster when filtered by cluster", () => {
    const f = new Faults(1);
    f.set("http_500", { rate: 1, clusters: ["in01-a"] });
    expect(f.pick("GET /v2/regions", undefined)).toBeUndefined();
    expect(f.pick("GET /v2/clusters/{id}", "in01-b")).toBeUndefined();
    expect(f.pick("GET /v2/clusters/{id}", "in01-a")?.kind).toBe("http_500");
  });

  it("fires at about the given rate", () => {
    const f = new Faults(3);
    f.set("http_503", { rate: 0.25 });
    let hits = 0;
    for (let i = 0; i < 4000; i++) if (f.pick("GET /v2/regions", undefined)) hits++;
    expect(hits / 4000).toBeGreaterThan(0.2);
    expect(hits / 4000).toBeLessThan(0.3);
  });

  it.each([
    [{ rate: -0.1 }, /rate/],
    [{ rate: "1" }, /rate/],
    [{ rate: 1, endpoints: "GET /v2/regions" }, /endpoints/],
    [{ rate: 1, durationMs: -5 }, /durationMs/],
    [{ rate: 1, abort: "yes" }, /abort/],
    [null, /object/],
  ])("refuses spec %j", (spec, message) => {
    expect(() => validateFault("http_500", spec)).toThrow(
      expect.objectContaining({ code: "INVALID_FAULT", message: expect.stringMatching(message) }),
    );
  });
});
