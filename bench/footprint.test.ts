import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatResting, RUNTIME_MODULES } from "./footprint.js";

const MIB = 1024 * 1024;

describe("RUNTIME_MODULES", () => {
  it("names every runtime dependency of package.json, and nothing else", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const packages = new Set(RUNTIME_MODULES.map((m) => m.split("/")[0]));
    expect([...packages].sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it("names modules that resolve (a deep path an upgrade moved would fail here)", () => {
    const req = createRequire(import.meta.url);
    for (const m of RUNTIME_MODULES) expect(() => req.resolve(m), m).not.toThrow();
  });
});

describe("formatResting", () => {
  it.each([
    {
      name: "split known",
      f: { rssBytes: 75 * MIB, anonymousBytes: 30 * MIB, fileBytes: 45 * MIB, heapUsedBytes: 0 },
      want: "75.0 MiB (30.0 anonymous + 45.0 file-backed)",
    },
    {
      name: "split unknown",
      f: { rssBytes: 75.25 * MIB, anonymousBytes: null, fileBytes: null, heapUsedBytes: 0 },
      want: "75.3 MiB",
    },
  ])("$name", ({ f, want }) => {
    expect(formatResting(f)).toBe(want);
  });
});
