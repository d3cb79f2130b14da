/**
 * Finished chunks on disk, one pair of files per chunk in the work directory: the sample lines
 * (`KEY.om`, grouped by family, then series, then time) and their index (`KEY.json`: where
 * each family's series start and end). The index is renamed into place last, so a chunk is
 * done exactly when its index exists: an interruption at any moment leaves either a finished
 * chunk or none, and a resumed run neither loses nor repeats a sample.
 */
import { existsSync } from "node:fs";
import { open, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { HistoryMapping } from "../collectors/cluster-metrics/history.js";
import { renderSample } from "../exposition/render.js";
import type { FamilyDef } from "../metrics/sample.js";

/** Where one series of one family sits in a chunk's data file. */
type Segment = readonly [series: string, offset: number, length: number];

/** A chunk's index: its families, each with its series' segments, by series text. */
interface ChunkIndex {
  readonly families: readonly (FamilyDef & { readonly series: readonly Segment[] })[];
}

/** A finished chunk's data file and index, by key. */
export class ChunkSpool {
  constructor(readonly dir: string) {}

  dataPath(key: string): string {
    return join(this.dir, `${key}.om`);
  }

  indexPath(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** Whether the chunk `key` was finished (by this run or an earlier one). */
  isDone(key: string): boolean {
    return existsSync(this.indexPath(key));
  }

  /** Writes the chunk `key`: data first, then its index, each through a rename. */
  async write(key: string, mapping: HistoryMapping): Promise<number> {
    const { text, index, samples } = renderChunk(mapping);
    const data = this.dataPath(key);
    await writeFile(`${data}.tmp`, text);
    await rename(`${data}.tmp`, data);
    const idx = this.indexPath(key);
    await writeFile(`${idx}.tmp`, JSON.stringify(index));
    await rename(`${idx}.tmp`, idx);
    return samples;
  }

  async readIndex(key: string): Promise<ChunkIndex> {
    return JSON.parse(await readFile(this.indexPath(key), "utf8")) as ChunkIndex;
  }

  /** Opens a chunk's data file for positioned reads of its segments. */
  openData(key: string) {
    return open(this.dataPath(key), "r");
  }
}

/** Milliseconds as OpenMetrics seconds with three decimals (no binary rounding on the way). */
export function formatTimestamp(ms: number): string {
  const sign = ms < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(ms));
  return `${sign}${Math.floor(abs / 1000)}.${String(abs % 1000).padStart(3, "0")}`;
}

/**
 * The chunk's data text and index. Sample lines are the live exposition's (`renderSample`)
 * with the bucket's timestamp appended; families and series are sorted by name so that any
 * run writes the same bytes for the same samples.
 */
function renderChunk(mapping: HistoryMapping): { text: string; index: ChunkIndex; samples: number } {
  const byFamily = new Map<string, Map<string, string[]>>();
  for (const s of mapping.samples) {
    const line = renderSample(s);
    const cut = line.lastIndexOf(" ");
    const series = line.slice(0, cut);
    const sample = `${line.slice(0, -1)} ${formatTimestamp(s.timestampMs)}\n`;
    let family = byFamily.get(s.family);
    if (family === undefined) {
      family = new Map();
      byFamily.set(s.family, family);
    }
    const lines = family.get(series);
    if (lines === undefined) family.set(series, [sample]);
    else lines.push(sample);
  }
  const parts: string[] = [];
  let offset = 0;
  const families: (FamilyDef & { series: Segment[] })[] = [];
  const defs = new Map(mapping.families.map((f) => [f.name, f] as const));
  for (const name of [...byFamily.keys()].sort()) {
    const def = defs.get(name);
    const family = byFamily.get(name);
    if (def === undefined || family === undefined) continue;
    const series: Segment[] = [];
    for (const key of [...family.keys()].sort()) {
      const text = (family.get(key) ?? []).join("");
      const length = Buffer.byteLength(text);
      series.push([key, offset, length]);
      parts.push(text);
      offset += length;
    }
    families.push({ name: def.name, help: def.help, type: def.type, series });
  }
  return { text: parts.join(""), index: { families }, samples: mapping.samples.length };
}
