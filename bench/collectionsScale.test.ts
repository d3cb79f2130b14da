import { describe, expect, it } from "vitest";
import { parseBenchArgs } from "./args.js";
import { parseCollectionsShape } from "./collectionsScale.js";
import { BenchError } from "./errors.js";

describe("--collections", () => {
  it.each([
    ["100x50", { clusters: 100, perCluster: 50 }],
    [" 3x7 ", { clusters: 3, perCluster: 7 }],
  ])("reads %s", (text, want) => {
    expect(parseCollectionsShape(text)).toEqual(want);
  });

  it.each(["100", "100x", "x50", "0x50", "100x0", "100*50", "1.5x2", "100x5000"])("rejects %s", (text) => {
    expect(() => parseCollectionsShape(text)).toThrow(BenchError);
  });

  it("is absent unless given, and parsed when given", () => {
    expect(parseBenchArgs([]).collections).toBeUndefined();
    expect(parseBenchArgs(["--collections", "100x50"]).collections).toEqual({
      clusters: 100,
      perCluster: 50,
    });
    expect(() => parseBenchArgs(["--collections", "lots"])).toThrow(/--collections takes/);
  });
});
