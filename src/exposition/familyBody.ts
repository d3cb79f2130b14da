/**
 * The sample lines of one family, as few buffers as a scrape can write: a run (a few segments)
 * that holds every entry's lines as of the last compaction, and the entries put or removed since.
 *
 * Why: a family holds one entry per target, and a snapshot listing each entry's buffer made a
 * scrape gather one small buffer per entry, a large share of the scrape's time (docs/performance.md,
 * "Figures behind the code"). Entries change a few per second and per family, so most of a
 * family's bytes can stay in the run: a snapshot lists the run in the pieces between the entries
 * changed since (their old bytes are cut out) and then the changed entries' own buffers.
 *
 * The run is cut into segments of SEGMENT_BYTES, below glibc's mmap threshold (128 KiB, which
 * the runtime settings also pin): a larger buffer is a fresh mapping whose every page faults on
 * the first write, and copying a family of several MB into one held the event loop many times
 * longer per compaction than copying it into heap memory that malloc reuses (docs/performance.md).
 */
export class FamilyBody {
  /**
   * Entries whose bytes are in the run: the index k of each, whose bytes are at
   * [offsets[k], offsets[k + 1]) of the run. Numbers, not a view per entry: a compaction then
   * makes no object per entry. Map order is run order.
   */
  private readonly inRun = new Map<string, number>();
  private offsets = new Uint32Array(1);
  /** The run: segments of SEGMENT_BYTES (the last one shorter); offsets run across them. */
  private segments: Buffer[] = [];
  /** Ranges of the run (start, end pairs) holding bytes of entries changed since it was made. */
  private cuts: number[] = [];
  /** Entries put since the run was made, with their bytes, in put order. */
  private readonly fresh = new Map<string, Buffer>();
  /** Entries added (not there before) since the run was made. */
  private addedSince = 0;
  private byteCount = 0;

  /** Number of entries. */
  get size(): number {
    return this.inRun.size + this.fresh.size;
  }

  /** Entries replaced or removed since the last compaction: each cuts a piece out of the run. */
  get replaced(): number {
    return this.cuts.length / 2;
  }

  /** Entries added since the last compaction (new ids), each listed apart. */
  get added(): number {
    return this.addedSince;
  }

  /** Bytes of the current entries (what a compaction copies). */
  get bytes(): number {
    return this.byteCount;
  }

  /** Sets entry `id` to `chunk`, which is never modified afterwards. */
  set(id: string, chunk: Buffer): void {
    if (!this.remove(id)) this.addedSince++;
    this.fresh.set(id, chunk);
    this.byteCount += chunk.length;
  }

  /** Removes entry `id`; false if there was none. */
  delete(id: string): boolean {
    return this.remove(id);
  }

  /**
   * The family's lines as buffers to write in order: the run without its cut ranges, then the
   * entries put since. Their concatenation holds every entry's current lines exactly once.
   */
  parts(): Buffer[] {
    const out = this.runPieces();
    for (const chunk of this.fresh.values()) if (chunk.length > 0) out.push(chunk);
    return out;
  }

  /**
   * Copies every entry's lines into a new run (exactly sized, not from Node's shared pool), so
   * that the fresh entries' own buffers can be freed. Snapshots taken before keep the previous
   * run: nothing they reference is modified.
   */
  compact(): void {
    const writer = new SegmentWriter(this.byteCount);
    for (const piece of this.runPieces()) writer.write(piece);
    const offsets = new Uint32Array(this.size + 1);
    let k = 0;
    let at = 0;
    // Setting an existing key keeps its place: the map stays in run order.
    for (const [id, old] of this.inRun) {
      offsets[k] = at;
      at += (this.offsets[old + 1] as number) - (this.offsets[old] as number);
      this.inRun.set(id, k++);
    }
    for (const [id, chunk] of this.fresh) {
      writer.write(chunk);
      offsets[k] = at;
      at += chunk.length;
      this.inRun.set(id, k++);
    }
    offsets[k] = at;
    this.offsets = offsets;
    this.segments = writer.segments;
    this.cuts = [];
    this.fresh.clear();
    this.addedSince = 0;
  }

  /** The run without its cut ranges, in order, as views of its segments. */
  private runPieces(): Buffer[] {
    const out: Buffer[] = [];
    const kept: number[] = [];
    if (this.cuts.length === 0) {
      for (const segment of this.segments) out.push(segment);
      return out;
    }
    const starts: number[] = [];
    for (let i = 0; i < this.cuts.length; i += 2) starts.push(i);
    starts.sort((a, b) => (this.cuts[a] as number) - (this.cuts[b] as number));
    let pos = 0;
    for (const i of starts) {
      const start = this.cuts[i] as number;
      if (start > pos) kept.push(pos, start);
      pos = this.cuts[i + 1] as number;
    }
    const total = this.runBytes();
    if (pos < total) kept.push(pos, total);
    // Kept ranges onto segments: a range may span a segment boundary.
    let seg = 0;
    let segStart = 0;
    for (let i = 0; i < kept.length; i += 2) {
      let from = kept[i] as number;
      const to = kept[i + 1] as number;
      while (from < to) {
        const segment = this.segments[seg] as Buffer;
        const segEnd = segStart + segment.length;
        if (from >= segEnd) {
          seg++;
          segStart = segEnd;
          continue;
        }
        const end = Math.min(to, segEnd);
        out.push(segment.subarray(from - segStart, end - segStart));
        from = end;
      }
    }
    return out;
  }

  private runBytes(): number {
    let n = 0;
    for (const segment of this.segments) n += segment.length;
    return n;
  }

  /** Takes entry `id` out (its run bytes cut, once); false if there was none. */
  private remove(id: string): boolean {
    const chunk = this.fresh.get(id);
    if (chunk !== undefined) {
      this.fresh.delete(id);
      this.byteCount -= chunk.length;
      return true;
    }
    const k = this.inRun.get(id);
    if (k === undefined) return false;
    this.inRun.delete(id);
    const start = this.offsets[k] as number;
    const end = this.offsets[k + 1] as number;
    this.byteCount -= end - start;
    if (end > start) this.cuts.push(start, end);
    return true;
  }
}

/** Bytes per run segment: under 128 KiB, so that malloc serves it from its reused heap. */
export const SEGMENT_BYTES = 64 * 1024;

/** Fills `total` bytes of segments in order; allocUnsafeSlow: exact allocations, no shared pool. */
class SegmentWriter {
  readonly segments: Buffer[] = [];
  private current: Buffer = EMPTY;
  private pos = 0;
  private left: number;

  constructor(total: number) {
    this.left = total;
  }

  write(bytes: Buffer): void {
    let from = 0;
    while (from < bytes.length) {
      if (this.pos === this.current.length) {
        this.current = Buffer.allocUnsafeSlow(Math.min(SEGMENT_BYTES, this.left));
        this.segments.push(this.current);
        this.pos = 0;
      }
      const n = Math.min(bytes.length - from, this.current.length - this.pos);
      this.current.set(from === 0 && n === bytes.length ? bytes : bytes.subarray(from, from + n), this.pos);
      this.pos += n;
      this.left -= n;
      from += n;
    }
  }
}

const EMPTY = Buffer.alloc(0);
