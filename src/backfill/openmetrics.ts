/**
 * Joins finished chunks into one OpenMetrics text: each family once (HELP, TYPE, then every
 * sample), each series' samples together and in time order, `# EOF` last. Only one segment (one
 * series of one chunk) is in memory at a time, so the output may be far larger than memory.
 */
import type { FileHandle } from "node:fs/promises";
import type { Writable } from "node:stream";
import { renderHeader } from "../exposition/render.js";
import type { FamilyDef } from "../metrics/sample.js";
import type { ChunkSpool } from "./spool.js";

/** Writes `text` and waits when the stream asks to (a slow disk or pipe). */
async function put(out: Writable, data: string | Uint8Array): Promise<void> {
  if (!out.write(data)) await new Promise<void>((resolve) => out.once("drain", resolve));
}

/**
 * Writes the OpenMetrics text of the finished chunks `targets` (per target, its chunk keys in
 * time order; keys of unfinished chunks are skipped) to `out`. Families come sorted by name,
 * then within each family the targets in order, each target's series sorted, each series'
 * chunks in time order; a family `exposes` denies (the config's family lists) is left out.
 * Returns the number of sample lines' bytes written.
 */
export async function writeOpenMetrics(
  spool: ChunkSpool,
  targets: readonly (readonly string[])[],
  out: Writable,
  exposes: (family: string) => boolean = () => true,
): Promise<number> {
  const done = targets.map((keys) => keys.filter((k) => spool.isDone(k)));
  const families = new Map<string, FamilyDef>();
  for (const keys of done) {
    for (const key of keys) {
      for (const f of (await spool.readIndex(key)).families) {
        if (!families.has(f.name) && exposes(f.name)) {
          families.set(f.name, { name: f.name, help: f.help, type: f.type });
        }
      }
    }
  }
  let bytes = 0;
  for (const name of [...families.keys()].sort()) {
    await put(out, renderHeader(families.get(name) as FamilyDef, true));
    for (const keys of done) bytes += await writeTargetFamily(spool, keys, name, out);
  }
  await put(out, "# EOF\n");
  return bytes;
}

/** One target's series of family `name`, each series through all of the target's chunks. */
async function writeTargetFamily(
  spool: ChunkSpool,
  keys: readonly string[],
  name: string,
  out: Writable,
): Promise<number> {
  const bySeries = new Map<string, { key: string; offset: number; length: number }[]>();
  for (const key of keys) {
    const family = (await spool.readIndex(key)).families.find((f) => f.name === name);
    for (const [series, offset, length] of family?.series ?? []) {
      const list = bySeries.get(series) ?? [];
      list.push({ key, offset, length });
      bySeries.set(series, list);
    }
  }
  let bytes = 0;
  const handles = new Map<string, FileHandle>();
  try {
    for (const series of [...bySeries.keys()].sort()) {
      for (const seg of bySeries.get(series) ?? []) {
        let handle = handles.get(seg.key);
        if (handle === undefined) {
          handle = await spool.openData(seg.key);
          handles.set(seg.key, handle);
        }
        const buffer = Buffer.allocUnsafe(seg.length);
        const { bytesRead } = await handle.read(buffer, 0, seg.length, seg.offset);
        if (bytesRead !== seg.length) throw new Error(`chunk ${seg.key} is shorter than its index`);
        await put(out, buffer);
        bytes += seg.length;
      }
    }
  } finally {
    await Promise.allSettled([...handles.values()].map((h) => h.close()));
  }
  return bytes;
}
