import { existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "./tempDir.js";

describe("tempDir", () => {
  it("makes fresh directories under the OS temp dir and removes them, contents included", () => {
    const a = tempDir("vdbcloud-tempdir-");
    const b = tempDir("vdbcloud-tempdir-");
    expect(a).not.toBe(b);
    expect(dirname(a)).toBe(tmpdir());
    writeFileSync(join(a, "file"), "x");
    removeTempDirs();
    expect([existsSync(a), existsSync(b)]).toEqual([false, false]);
    // Nothing is left to remove twice.
    expect(() => removeTempDirs()).not.toThrow();
  });
});
