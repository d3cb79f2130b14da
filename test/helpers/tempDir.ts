/**
 * Temporary directories of the tests, removed when the test file that made them ends (the
 * setup file's afterAll runs after the file's own, so processes using a directory are stopped
 * by then). Runs of the suite used to leave hundreds of directories in the OS temp dir.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/** A fresh directory named `<prefix>XXXXXX` under the OS temp dir, removed after the file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory `tempDir` made in this test file (the setup file calls it). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
