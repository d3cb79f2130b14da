import type { Writable } from "node:stream";
import { nextTurn } from "../shared/nextTurn.js";

/**
 * Fixed-size write blocks shared by every response of the process. A scrape of a body of many
 * MB goes through a few of them; without sharing, each scrape allocated its own off-heap blocks,
 * which stayed in RSS until a garbage collection noticed them (docs/performance.md). Holds at
 * most `maxIdle` free blocks between writes.
 */
export class BlockPool {
  private readonly free: Buffer[] = [];
  /** Blocks ever allocated by this pool (for tests and the bench). */
  allocated = 0;

  constructor(
    readonly blockBytes: number,
    readonly maxIdle: number,
  ) {
    if (!(blockBytes > 0) || !(maxIdle >= 0)) throw new RangeError("blockBytes > 0 and maxIdle >= 0");
  }

  /** A block of exactly blockBytes, its content undefined. */
  take(): Buffer {
    const b = this.free.pop();
    if (b) return b;
    this.allocated += 1;
    return Buffer.allocUnsafeSlow(this.blockBytes);
  }

  /** Returns a block taken from this pool whose bytes nobody reads any more. */
  give(block: Buffer): void {
    if (this.free.length < this.maxIdle) this.free.push(block);
  }

  get idle(): number {
    return this.free.length;
  }
}

// A turn of the loop every MiB: a body written without one stalled the loop for its whole
// write, and with one the stalls were a fraction of that at the same or lower latency
// (docs/performance.md, "Figures behind the code").
const DEFAULT_IN_FLIGHT = 4 * 1024 * 1024;
const DEFAULT_YIELD_EVERY = 1024 * 1024;

/**
 * Parts this long or longer are written as they are, not copied into a block: a family's run
 * segments (64 KiB, see FamilyBody) are most of a body, and copying them per scrape into
 * blocks would be work for nothing; one write per 64 KiB is few.
 */
const DIRECT_BYTES = 64 * 1024;

/** The pool of the scrape path: 256 KiB blocks, up to 4 MiB kept idle. */
export const SCRAPE_BLOCKS = new BlockPool(256 * 1024, 16);

/** How writeGathered gathers and paces. */
interface GatherOptions {
  /** Where blocks come from and return to (default SCRAPE_BLOCKS). */
  readonly pool?: BlockPool;
  /**
   * Bytes written but not yet taken by `out` before the writer waits (default 4 MiB). Above the
   * stream's own high-water mark on purpose: waiting for 'drain' at 16 KiB cost one event-loop
   * turn per block, each one a chance for a poll's work to delay the scrape.
   */
  readonly inFlightBytes?: number;
  /**
   * Bytes copied between two turns of the event loop (default 1 MiB). A socket that takes every
   * write at once completes them without ever returning to the loop (write callbacks and await
   * continuations run back to back), so without this one body held the loop to its end.
   */
  readonly yieldEveryBytes?: number;
  /** Sees each block just before it is written (e.g. to checksum what is written). */
  readonly onBlock?: (data: Buffer) => void;
}

/**
 * Writes the buffers of `lists`, in order, to `out` gathered into pooled blocks (one write per
 * part would cost a stream round per family header and per entry, tens of thousands per body).
 * A block returns to the
 * pool once its write completed, so bytes handed to `out` are never overwritten; at most
 * `inFlightBytes` (plus one block) are outstanding. Parts of a block's size or 64 KiB, whichever
 * is less, or more are written as they are. Resolves false if `out` closed or failed before the end.
 */
export async function writeGathered(
  out: Writable,
  lists: readonly (readonly Buffer[])[],
  opts: GatherOptions = {},
): Promise<boolean> {
  const pool = opts.pool ?? SCRAPE_BLOCKS;
  const budget = opts.inFlightBytes ?? DEFAULT_IN_FLIGHT;
  const yieldEvery = opts.yieldEveryBytes ?? DEFAULT_YIELD_EVERY;
  let sinceYield = 0;
  const blockBytes = pool.blockBytes;
  const directBytes = Math.min(blockBytes, DIRECT_BYTES);
  let inFlight = 0;
  let failed = false;
  let wake: (() => void) | undefined;
  const onClose = () => wake?.();
  out.on("close", onClose);

  const send = async (data: Buffer, block?: Buffer): Promise<boolean> => {
    if (failed || out.destroyed || out.writableEnded) return false;
    opts.onBlock?.(data);
    inFlight += data.length;
    sinceYield += data.length;
    out.write(data, (err) => {
      inFlight -= data.length;
      if (err) failed = true;
      else if (block) pool.give(block);
      wake?.();
    });
    while (inFlight > budget) {
      if (failed || out.destroyed) return false;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    if (sinceYield >= yieldEvery) {
      sinceYield = 0;
      await nextTurn();
    }
    return !failed && !out.destroyed;
  };

  try {
    let block = pool.take();
    let used = 0;
    for (const parts of lists) {
      for (const part of parts) {
        if (part.length === 0) continue;
        const large = part.length >= directBytes;
        if (used > 0 && (large || used + part.length > blockBytes)) {
          if (!(await send(block.subarray(0, used), block))) return false;
          block = pool.take();
          used = 0;
        }
        if (large) {
          if (!(await send(part))) return false;
          continue;
        }
        block.set(part, used);
        used += part.length;
      }
    }
    if (used === 0) {
      pool.give(block);
      return !failed && !out.destroyed;
    }
    return await send(block.subarray(0, used), block);
  } finally {
    out.off("close", onClose);
  }
}
