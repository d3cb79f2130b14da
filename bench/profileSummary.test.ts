import { describe, expect, it } from "vitest";
import { type CpuProfile, hotFunctions } from "./profileSummary.js";

const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });

const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)", "", -1) },
    { id: 2, callFrame: frame("parse", "file:///app/dist/src/upstream/transport.js", 9) },
    { id: 3, callFrame: frame("", "file:///app/node_modules/undici/lib/core.js", 99) },
    { id: 4, callFrame: frame("(idle)", "", -1) },
  ],
  samples: [2, 3, 2, 4, 2, 1],
  timeDeltas: [1000, 2000, 1000, 5000, 1000, 0],
};

describe("hotFunctions", () => {
  it("ranks functions by self time weighted by the samples' deltas, with a short place", () => {
    expect(hotFunctions(PROFILE, 3)).toEqual([
      { name: "(idle)", where: "", selfMs: 5, share: 0.5 },
      { name: "parse", where: "src/upstream/transport.js:10", selfMs: 3, share: 0.3 },
      { name: "(anonymous)", where: "node_modules/undici/lib/core.js:100", selfMs: 2, share: 0.2 },
    ]);
  });

  it("keeps only the top N", () => {
    expect(hotFunctions(PROFILE, 1).map((f) => f.name)).toEqual(["(idle)"]);
  });
});
