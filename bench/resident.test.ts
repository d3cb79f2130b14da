import { describe, expect, it } from "vitest";
import { parseSmapsRollup, readResident } from "./resident.js";

// A real rollup of a node process, trimmed of the lines the parser does not read.
const ROLLUP = `55d8c6a00000-7ffd3b5f4000 ---p 00000000 00:00 0                          [rollup]
Rss:               75284 kB
Pss:               74102 kB
Pss_Anon:          29080 kB
Pss_File:          45022 kB
Shared_Clean:       1292 kB
Private_Clean:     44912 kB
Anonymous:         29080 kB
Swap:                  0 kB
`;

describe("parseSmapsRollup", () => {
  it.each([
    {
      name: "a whole rollup",
      text: ROLLUP,
      want: { rssBytes: 75284 * 1024, anonymousBytes: 29080 * 1024, fileBytes: (75284 - 29080) * 1024 },
    },
    { name: "no Anonymous line", text: "Rss:  100 kB\n", want: undefined },
    { name: "no Rss line", text: "Anonymous:  100 kB\n", want: undefined },
    // Pss_Anon must not be taken for Anonymous, nor an Rss inside another name.
    { name: "only look-alike names", text: "Pss_Anon: 5 kB\nSwapRss: 7 kB\n", want: undefined },
    { name: "empty", text: "", want: undefined },
  ])("$name", ({ text, want }) => {
    expect(parseSmapsRollup(text)).toEqual(want);
  });
});

describe("readResident", () => {
  it.runIf(process.platform === "linux")(
    "reads this process: anonymous and file-backed add up to RSS",
    () => {
      const r = readResident();
      expect(r).toBeDefined();
      expect(r?.anonymousBytes).toBeGreaterThan(0);
      expect(r?.fileBytes).toBeGreaterThan(0);
      expect((r?.anonymousBytes ?? 0) + (r?.fileBytes ?? 0)).toBe(r?.rssBytes);
    },
  );
});
