import { describe, expect, it } from "vitest";
import { resolveOptions } from "./options.js";

describe("resolveOptions", () => {
  it("applies the documented defaults", () => {
    const o = resolveOptions();
    expect(o).toMatchObject({
      host: "127.0.0.1",
      port: 0,
      clusters: 6,
      seed: 1,
      rateLimitPerSecond: 20,
      rateLimitMode: "sliding",
      listClustersShape: "object",
      timeScale: 1,
      apiKeys: undefined,
      rejectMixedMetricForms: false,
    });
    expect(o.now).toBe(Date.now);
    expect(o.unfinishedImports).toBeUndefined();
  });

  it.each([
    [{ clusters: -1 }, /clusters/],
    [{ clusters: 1.5 }, /clusters/],
    [{ port: 70_000 }, /port/],
    [{ timeScale: 0 }, /timeScale/],
    [{ rateLimitPerSecond: -1 }, /rateLimitPerSecond/],
    [{ listClustersShape: "list" as "array" }, /listClustersShape/],
    [{ rateLimitMode: "leaky" as "fixed" }, /rateLimitMode must be one of fixed, sliding, token_bucket/],
    [{ apiKeys: [""] }, /apiKeys/],
    [{ unfinishedImports: { every: 0, perCluster: 5 } }, /unfinishedImports.every must be at least 1/],
    [{ unfinishedImports: { every: 3, perCluster: -1 } }, /unfinishedImports.perCluster/],
  ])("refuses %j", (opts, message) => {
    expect(() => resolveOptions(opts)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringMatching(message) }),
    );
  });
});
