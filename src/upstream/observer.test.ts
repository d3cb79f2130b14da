import { describe, expect, it } from "vitest";
import { NOOP_OBSERVER, safeObserver } from "./observer.js";
import type { ClientObserver } from "./types.js";

describe("safeObserver", () => {
  it("returns the no-op observer for none", () => {
    expect(safeObserver(undefined)).toBe(NOOP_OBSERVER);
  });

  it("forwards events and swallows exceptions", () => {
    const seen: string[] = [];
    const throwing: ClientObserver = {
      attempt: (e, o, s) => {
        seen.push(`attempt ${e} ${o} ${s}`);
        throw new Error("bug");
      },
      retry: (e, d) => {
        seen.push(`retry ${e} ${d}`);
        throw new Error("bug");
      },
      rateLimited: (e) => {
        seen.push(`rateLimited ${e}`);
        throw new Error("bug");
      },
      schemaError: (e) => {
        seen.push(`schemaError ${e}`);
        throw new Error("bug");
      },
    };
    const safe = safeObserver(throwing);
    expect(() => {
      safe.attempt("GET /v2/regions", "success", 0.5);
      safe.retry("GET /v2/regions", 10);
      safe.rateLimited("GET /v2/regions");
      safe.schemaError("GET /v2/regions");
    }).not.toThrow();
    expect(seen).toEqual([
      "attempt GET /v2/regions success 0.5",
      "retry GET /v2/regions 10",
      "rateLimited GET /v2/regions",
      "schemaError GET /v2/regions",
    ]);
  });
});
