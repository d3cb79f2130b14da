import type { Writable } from "node:stream";

/**
 * Yields `parts` gathered into blocks of about `blockBytes`: small parts are copied into a
 * fresh block, a part at least that large is yielded as it is. Every yielded block is a new
 * buffer or one of the parts (never reused), so a consumer may keep it.
 */
export function* gather(parts: readonly Buffer[], blockBytes: number): Generator<Buffer> {
  let block: Buffer | undefined;
  let used = 0;
  for (const part of parts) {
    if (part.length === 0) continue;
    if (part.length >= blockBytes) {
      if (block && used > 0) yield block.subarray(0, used);
      block = undefined;
      used = 0;
      yield part;
      continue;
    }
    if (block && used + part.length > block.length) {
      yield block.subarray(0, used);
      block = undefined;
    }
    if (!block) {
      block = Buffer.allocUnsafeSlow(blockBytes);
      used = 0;
    }
    block.set(part, used);
    used += part.length;
  }
  if (block && used > 0) yield block.subarray(0, used);
}

/**
 * Writes `parts` to `out` gathered into blocks (one write per part would cost a stream
 * round per family header and per entry, tens of thousands per body), waiting for 'drain'
 * whenever the socket's buffer is full, so at most about one block of copies is queued
 * beyond the socket's high-water mark. Resolves false if `out` closed before the end.
 */
export async function writeGathered(
  out: Writable,
  parts: readonly Buffer[],
  blockBytes = 64 * 1024,
): Promise<boolean> {
  for (const block of gather(parts, blockBytes)) {
    if (out.destroyed) return false;
    if (!out.write(block)) {
      const open = await new Promise<boolean>((resolve) => {
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
      if (!open) return false;
    }
  }
  return true;
}
