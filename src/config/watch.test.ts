import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ConfigMapDir, configMapDir } from "../../test/helpers/configMapDir.js";
import { watchPath } from "./watch.js";

const POLL_MS = 20;

async function changesWithin(ms: number, counter: () => number, before: number): Promise<number> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && counter() === before) await new Promise((r) => setTimeout(r, POLL_MS));
  return counter();
}

describe("watchPath", () => {
  const stops: Array<() => void> = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  it.each<{ name: string; change: (w: ConfigMapDir) => void }>([
    { name: "the symlink swap of a ConfigMap update", change: (w) => w.swap("b: 2\n") },
    { name: "a swap to content of the same size", change: (w) => w.swap("a: 2\n") },
    { name: "an edit in place", change: (w) => writeFileSync(w.file, "a: 1\nb: 2\n") },
    { name: "the file disappearing", change: (w) => rmSync(join(w.dir, "..data")) },
  ])("reports $name", async ({ change }) => {
    const w = configMapDir("a: 1\n");
    let changes = 0;
    stops.push(watchPath(w.file, POLL_MS, () => changes++));
    // Let the first stat land before changing anything.
    await new Promise((r) => setTimeout(r, POLL_MS * 3));
    change(w);
    expect(await changesWithin(2000, () => changes, 0)).toBe(1);
  });

  it("stays quiet while nothing changes, and after it is stopped", async () => {
    const w = configMapDir("a: 1\n");
    let changes = 0;
    const stop = watchPath(w.file, POLL_MS, () => changes++);
    await new Promise((r) => setTimeout(r, POLL_MS * 10));
    expect(changes).toBe(0);
    stop();
    w.swap("b: 2\n");
    await new Promise((r) => setTimeout(r, POLL_MS * 10));
    expect(changes).toBe(0);
  });
});
