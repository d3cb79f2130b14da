import { constants, deflateRawSync } from "node:zlib";
import { crc32, type DeflatedHead } from "./gzipJoin.js";

/** One family of a snapshot: its headers in both formats and its sample lines, in few buffers. */
export interface SnapshotFamily {
  readonly textHeader: Buffer;
  readonly omHeader: Buffer;
  readonly chunks: readonly Buffer[];
}

/**
 * A published, immutable state of the store, ready to be written to a socket: references to
 * the per-family headers and per-entry sample lines as they were when it was taken. Nothing
 * is joined: the two formats differ only in their family headers, so a response writes
 * `segments(openMetrics)` in order. The buffers are shared with the store and never modified
 * (a new poll replaces an entry's buffers, it never writes into them).
 */
export interface Published {
  readonly version: number;
  readonly series: number;
  readonly builtAtMs: number;
  readonly buildMs: number;
  /** Byte length of the text 0.0.4 and the OpenMetrics body (without `# EOF`). */
  readonly textLength: number;
  readonly openMetricsLength: number;
  /**
   * The body as lists of buffers written in order: per family a list of its header, then the
   * family's own list of buffers (built at publish: its compacted run in pieces and the entries
   * changed since, see FamilyBody). A scrape walks these lists and makes no list of all their
   * buffers: one per scrape was large enough for V8's large-object space, which only a full
   * collection frees.
   */
  segments(openMetrics: boolean): readonly (readonly Buffer[])[];
  /**
   * Joined copies and their synchronous compressions, for tests and tools. Each access makes
   * a full copy: the scrape path writes `segments()` and takes gzip from the store's cache.
   */
  readonly text: Buffer;
  readonly openMetrics: Buffer;
  readonly textGzip: DeflatedHead;
  readonly openMetricsGzip: DeflatedHead;
}

/** The snapshot of `families` (sorted by the caller), counted `series` series. */
export class Snapshot implements Published {
  readonly textLength: number;
  readonly openMetricsLength: number;

  constructor(
    readonly version: number,
    private readonly families: readonly SnapshotFamily[],
    readonly series: number,
    readonly builtAtMs: number,
    readonly buildMs: number,
  ) {
    let text = 0;
    let om = 0;
    for (const f of families) {
      let body = 0;
      for (const c of f.chunks) body += c.length;
      text += f.textHeader.length + body;
      om += f.omHeader.length + body;
    }
    this.textLength = text;
    this.openMetricsLength = om;
  }

  segments(openMetrics: boolean): readonly (readonly Buffer[])[] {
    const out: (readonly Buffer[])[] = [];
    for (const f of this.families) out.push([openMetrics ? f.omHeader : f.textHeader], f.chunks);
    return out;
  }

  get text(): Buffer {
    return Buffer.concat(this.segments(false).flat(), this.textLength);
  }

  get openMetrics(): Buffer {
    return Buffer.concat(this.segments(true).flat(), this.openMetricsLength);
  }

  get textGzip(): DeflatedHead {
    return deflateSync(this.text);
  }

  get openMetricsGzip(): DeflatedHead {
    return deflateSync(this.openMetrics);
  }
}

function deflateSync(body: Buffer): DeflatedHead {
  const deflated = deflateRawSync(body, {
    level: constants.Z_BEST_SPEED,
    finishFlush: constants.Z_SYNC_FLUSH,
  });
  return { deflated, crc: crc32(body), length: body.length };
}
