import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "./tempDir.js";
import { findTool, MissingToolError, toolOrSkip, toolPath } from "./tools.js";

const root = tempDir("vdbcloud-tools-");
const binA = join(root, "a");
const binB = join(root, "b");
mkdirSync(binA);
mkdirSync(binB);
// bin A holds a non-executable decoy, bin B the real (executable) tool.
writeFileSync(join(binA, "promtool"), "not executable");
chmodSync(join(binA, "promtool"), 0o644);
writeFileSync(join(binB, "promtool"), "#!/bin/sh\n");
chmodSync(join(binB, "promtool"), 0o755);
const searchPath = [binA, binB].join(delimiter);

describe("findTool", () => {
  it.each([
    ["the first executable match", "promtool", searchPath, join(binB, "promtool")],
    ["undefined when nowhere on the path", "prometheus", searchPath, undefined],
    ["undefined for an empty path", "promtool", "", undefined],
  ] as const)("returns %s", (_what, name, path, expected) => {
    expect(findTool(name, path)).toBe(expected);
  });
});

describe("toolOrSkip", () => {
  it("returns the path when the tool is found", () => {
    const lookup = toolOrSkip("promtool", { searchPath, ci: true });
    expect(lookup).toEqual({ path: join(binB, "promtool"), skip: false });
    expect(toolPath(lookup)).toBe(join(binB, "promtool"));
  });

  it("prints a visible SKIPPED message with the install command when missing outside CI", () => {
    const messages: string[] = [];
    const lookup = toolOrSkip("prometheus", { searchPath, ci: false, log: (m) => messages.push(m) });
    expect(lookup).toEqual({ skip: true });
    expect(messages).toEqual([
      "SKIPPED: prometheus not installed (apt-get install -y --no-install-recommends prometheus)",
    ]);
    expect(() => toolPath(lookup)).toThrow(/skipped tool/);
  });

  it("throws under CI when the tool is missing", () => {
    const messages: string[] = [];
    let caught: unknown;
    try {
      toolOrSkip("prometheus", { searchPath, ci: true, log: (m) => messages.push(m) });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MissingToolError);
    expect((caught as MissingToolError).code).toBe("MISSING_TOOL");
    expect((caught as MissingToolError).tool).toBe("prometheus");
    expect(messages).toEqual([]);
  });
});
