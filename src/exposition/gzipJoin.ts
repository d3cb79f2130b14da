import { promisify } from "node:util";
import * as zlib from "node:zlib";
import { nextTurn } from "../shared/nextTurn.js";
import { type BlockPool, SCRAPE_BLOCKS, writeGathered } from "./blocks.js";

const deflateRawAsync = promisify(zlib.deflateRaw);

/**
 * A body compressed once, ahead of time, to which a small tail can be appended per response
 * while the result stays ONE gzip member. (Concatenated gzip members are valid, but curl and
 * some other clients decode only the first member.)
 *
 * The head is raw deflate ended with a sync flush: byte-aligned and without a final block, so
 * another raw deflate stream can follow it directly. The CRC-32 of the head is kept so the
 * gzip trailer can be completed over head + tail.
 */
export interface DeflatedHead {
  readonly deflated: Buffer;
  readonly crc: number;
  readonly length: number;
}

/** Compresses `body` on the zlib thread pool (never blocking the event loop). */
export async function deflateHead(body: Buffer, level = zlib.constants.Z_BEST_SPEED): Promise<DeflatedHead> {
  // Larger output chunks: zlib hands back each one to the main thread, which then joins them;
  // at the 16 KiB default that bookkeeping took several times longer (docs/performance.md).
  const deflated = await deflateRawAsync(body, {
    level,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
    chunkSize: 64 * 1024,
  });
  return { deflated, crc: await crc32Sliced(body), length: body.length };
}

/**
 * Compresses the concatenation of the buffers of `segments` like `deflateHead`, without ever
 * holding the whole body: the buffers are gathered into blocks of `pool` that are fed to one
 * zlib stream (on the thread pool) one at a time, so that compressing holds two blocks, not
 * megabytes of input.
 */
export async function deflateParts(
  segments: readonly (readonly Buffer[])[],
  level = zlib.constants.Z_BEST_SPEED,
  pool: BlockPool = SCRAPE_BLOCKS,
): Promise<DeflatedHead> {
  const deflate = zlib.createDeflateRaw({ level, chunkSize: 64 * 1024 });
  const out: Buffer[] = [];
  let failure: Error | undefined;
  deflate.on("data", (b: Buffer) => out.push(b));
  deflate.on("error", (err) => {
    failure = err;
  });
  let crc = 0;
  let length = 0;
  try {
    const complete = await writeGathered(deflate, segments, {
      pool,
      inFlightBytes: pool.blockBytes,
      onBlock: (block) => {
        crc = crc32(block, crc);
        length += block.length;
      },
    });
    if (!complete || failure) throw failure ?? new Error("deflate stream closed early");
    // A sync flush, never end(): the head must stay open for the response's tail.
    await new Promise<void>((resolve) => deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
    if (failure) throw failure;
  } finally {
    deflate.removeAllListeners("data");
    deflate.destroy();
  }
  return { deflated: Buffer.concat(out), crc, length };
}

/** `tail` as the final raw deflate stream after a head (what gzipWithTail appends). */
export function deflateTail(tail: Buffer): Buffer {
  return zlib.deflateRawSync(tail, { level: zlib.constants.Z_BEST_SPEED });
}

/**
 * Returns the chunks of one gzip member holding `head` then `tail`; `tailDeflated` is
 * `deflateTail(tail)`, made here unless the caller kept it.
 */
export function gzipWithTail(head: DeflatedHead, tail: Buffer, tailDeflated = deflateTail(tail)): Buffer[] {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(tail, head.crc), 0);
  trailer.writeUInt32LE((head.length + tail.length) % 2 ** 32, 4);
  return [GZIP_HEADER, head.deflated, tailDeflated, trailer];
}

// ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=unknown (RFC 1952 section 2.3).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);

/** CRC-32 (the gzip one) of `data`, continuing from `previous` (the CRC of what came before). */
export function crc32(data: Uint8Array, previous = 0): number {
  // zlib.crc32 exists from Node 20.15 (package.json engines requires 20.18.1).
  return zlib.crc32(data, previous);
}

/** CRC-32 of a large buffer in 1 MiB slices, yielding to the event loop between them. */
async function crc32Sliced(data: Buffer): Promise<number> {
  const slice = 1 << 20;
  let crc = 0;
  for (let off = 0; off < data.length; off += slice) {
    crc = crc32(data.subarray(off, Math.min(off + slice, data.length)), crc);
    if (off + slice < data.length) await nextTurn();
  }
  return crc;
}
