import type { Writable } from "node:stream";

/**
 * Writes `parts` to `out` gathered into blocks (one write per part would cost a stream
 * round per family header and per entry, tens of thousands per body), waiting for 'drain'
 * whenever the stream's buffer is full. A block is reused once its write has completed, so a
 * response of any size allocates two or three blocks, not a copy of the body.
 * Resolves false if `out` closed before the end.
 */
export async function writeGathered(
  out: Writable,
  parts: readonly Buffer[],
  blockBytes = 256 * 1024,
  /** Sees each block just before it is written (e.g. to checksum what is written). */
  onBlock?: (data: Buffer) => void,
): Promise<boolean> {
  const free: Buffer[] = [];
  const take = () => free.pop() ?? Buffer.allocUnsafeSlow(blockBytes);
  const send = async (data: Buffer, reusable?: Buffer): Promise<boolean> => {
    if (out.destroyed) return false;
    onBlock?.(data);
    const more = out.write(data, (err) => {
      if (!err && reusable) free.push(reusable);
    });
    return more || drained(out);
  };
  let block = take();
  let used = 0;
  for (const part of parts) {
    if (part.length === 0) continue;
    const large = part.length >= blockBytes;
    if (used > 0 && (large || used + part.length > blockBytes)) {
      if (!(await send(block.subarray(0, used), block))) return false;
      block = take();
      used = 0;
    }
    if (large) {
      if (!(await send(part))) return false;
      continue;
    }
    block.set(part, used);
    used += part.length;
  }
  return used === 0 || send(block.subarray(0, used), block);
}

/** Resolves true on 'drain', false if the stream closes first. */
function drained(out: Writable): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      out.off("drain", onDrain);
      out.off("close", onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    out.once("drain", onDrain);
    out.once("close", onClose);
  });
}
