/**
 * Resident memory split by kind, read from /proc/self/smaps_rollup (Linux): anonymous pages are
 * the process's own (heaps, stacks, malloc arenas); file-backed pages are mostly the node binary's
 * code and read-only data, paged in as they are first touched and shared with every other
 * process that maps the same file. The split tells how much of a footprint the process's code
 * could change at all.
 */
import { readFileSync } from "node:fs";

/** Resident bytes in all, and of them the anonymous and the file-backed. */
export interface Resident {
  readonly rssBytes: number;
  readonly anonymousBytes: number;
  readonly fileBytes: number;
}

const field = (text: string, name: string): number | undefined => {
  const m = new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(text);
  return m?.[1] === undefined ? undefined : Number(m[1]) * 1024;
};

/** The split in a smaps_rollup text; undefined when its Rss or Anonymous line is missing. */
export function parseSmapsRollup(text: string): Resident | undefined {
  const rss = field(text, "Rss");
  const anonymous = field(text, "Anonymous");
  if (rss === undefined || anonymous === undefined) return undefined;
  // Shared memory (shmem) pages are neither anonymous nor a file the process mapped read-only;
  // node maps none, and they are counted with the file-backed here.
  return { rssBytes: rss, anonymousBytes: anonymous, fileBytes: rss - anonymous };
}

/** This process's split now; undefined where /proc has no smaps_rollup (not Linux, old kernel). */
export function readResident(): Resident | undefined {
  try {
    return parseSmapsRollup(readFileSync("/proc/self/smaps_rollup", "utf8"));
  } catch {
    return undefined;
  }
}

/** A process's memory at rest; anonymous and file-backed are null where /proc does not tell. */
export interface RestingMemory {
  readonly rssBytes: number;
  readonly anonymousBytes: number | null;
  readonly fileBytes: number | null;
  readonly heapUsedBytes: number;
}

/** This process's memory now (the caller runs a full collection first, to read it at rest). */
export function restingMemory(): RestingMemory {
  const resident = readResident();
  const { rss, heapUsed } = process.memoryUsage();
  return {
    rssBytes: resident?.rssBytes ?? rss,
    anonymousBytes: resident?.anonymousBytes ?? null,
    fileBytes: resident?.fileBytes ?? null,
    heapUsedBytes: heapUsed,
  };
}
