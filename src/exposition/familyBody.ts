/**
 * The sample lines of one family, as few buffers as a scrape can write: one run buffer that
 * holds every entry's lines as of the last compaction, and the entries put or removed since.
 *
 * Why: a family holds one entry per target, and a snapshot listing each entry's buffer made a
 * scrape of 100,000 series gather ~105,000 small buffers (4.6 ms of a 12 ms scrape in a CPU
 * profile). Entries change a few per second and per family, so most of a family's bytes can
 * stay in one buffer: a snapshot lists the run in the pieces between the entries changed since
 * (their old bytes are cut out) and then the changed entries' own buffers.
 */
export class FamilyBody {
  /** Current bytes per entry; after a compaction, views of `run`. Insertion order is kept. */
  private readonly chunks = new Map<string, Buffer>();
  private run: Buffer = EMPTY;
  /** Ranges of `run` (start, end pairs) holding bytes of entries changed since it was made. */
  private cuts: number[] = [];
  /** Entries whose current bytes are not in `run` (put since it was made), in put order. */
  private readonly fresh = new Set<string>();
  /** Entries added (not there before) since the run was made. */
  private addedSince = 0;

  /** Number of entries. */
  get size(): number {
    return this.chunks.size;
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
    let n = 0;
    for (const c of this.chunks.values()) n += c.length;
    return n;
  }

  /** Sets entry `id` to `chunk`, which is never modified afterwards. */
  set(id: string, chunk: Buffer): void {
    if (this.chunks.has(id)) {
      this.cut(id);
      this.chunks.delete(id);
    } else {
      this.addedSince++;
    }
    this.chunks.set(id, chunk);
    this.fresh.delete(id);
    this.fresh.add(id);
  }

  /** Removes entry `id`; false if there was none. */
  delete(id: string): boolean {
    if (!this.chunks.has(id)) return false;
    this.cut(id);
    this.chunks.delete(id);
    this.fresh.delete(id);
    return true;
  }

  /**
   * The family's lines as buffers to write in order: the run without its cut ranges, then the
   * entries put since. Their concatenation holds every entry's current lines exactly once.
   */
  parts(): Buffer[] {
    const out: Buffer[] = [];
    if (this.cuts.length === 0) {
      if (this.run.length > 0) out.push(this.run);
    } else {
      const starts: number[] = [];
      for (let i = 0; i < this.cuts.length; i += 2) starts.push(i);
      starts.sort((a, b) => (this.cuts[a] as number) - (this.cuts[b] as number));
      let pos = 0;
      for (const i of starts) {
        const start = this.cuts[i] as number;
        if (start > pos) out.push(this.run.subarray(pos, start));
        pos = this.cuts[i + 1] as number;
      }
      if (pos < this.run.length) out.push(this.run.subarray(pos));
    }
    for (const id of this.fresh) {
      const chunk = this.chunks.get(id) as Buffer;
      if (chunk.length > 0) out.push(chunk);
    }
    return out;
  }

  /**
   * Copies every entry's lines into a new run (exactly sized, not from Node's shared pool) and
   * points the entries at it, so that the entries' own buffers can be freed. Snapshots taken
   * before keep the previous run: nothing they reference is modified.
   */
  compact(): void {
    const run = Buffer.allocUnsafeSlow(this.bytes);
    let offset = 0;
    for (const [id, chunk] of this.chunks) {
      run.set(chunk, offset);
      this.chunks.set(id, run.subarray(offset, offset + chunk.length));
      offset += chunk.length;
    }
    this.run = run;
    this.cuts = [];
    this.fresh.clear();
    this.addedSince = 0;
  }

  /** Marks the bytes `id` has in the run, if any, as cut (once: a later put is not in the run). */
  private cut(id: string): void {
    const old = this.chunks.get(id);
    if (old === undefined || old.buffer !== this.run.buffer || old.length === 0) return;
    const start = old.byteOffset - this.run.byteOffset;
    this.cuts.push(start, start + old.length);
  }
}

const EMPTY = Buffer.alloc(0);
