import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { writeGathered } from "./blocks.js";

const b = (s: string) => Buffer.from(s);

describe("writeGathered", () => {
  it("writes every byte in order, waiting for drain when the stream is full", async () => {
    const parts = Array.from({ length: 2000 }, (_, i) => b(`line ${i}\n`));
    const got: Buffer[] = [];
    let writes = 0;
    const out = new Writable({
      highWaterMark: 100,
      write(chunk: Buffer, _enc, cb) {
        writes++;
        // A copy: the writer may reuse the block once this write completed.
        got.push(Buffer.from(chunk));
        setImmediate(cb);
      },
    });
    expect(await writeGathered(out, parts, 256)).toBe(true);
    expect(Buffer.concat(got).equals(Buffer.concat(parts))).toBe(true);
    // Gathered: far fewer writes than parts.
    expect(writes).toBeLessThan(parts.length / 10);
  });

  it("reuses a block only after its write completed (the bytes sent are never overwritten)", async () => {
    const parts = Array.from({ length: 500 }, (_, i) => b(`${String(i).padStart(4, "0")}\n`));
    const held: Buffer[] = [];
    const pending: (() => void)[] = [];
    const blocks = new Set<ArrayBufferLike>();
    const out = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _enc, cb) {
        blocks.add(chunk.buffer);
        // Copy only when the write completes: a block reused earlier would show here.
        pending.push(() => {
          held.push(Buffer.from(chunk));
          cb();
        });
        setTimeout(() => pending.shift()?.(), 1);
      },
    });
    expect(await writeGathered(out, parts, 64)).toBe(true);
    await new Promise((r) => out.end(r));
    expect(Buffer.concat(held).equals(Buffer.concat(parts))).toBe(true);
    // Forty blocks of bytes went through a handful of allocations.
    expect(blocks.size).toBeLessThanOrEqual(3);
  });

  it("stops when the stream closes midway and says so", async () => {
    const out = new PassThrough({ highWaterMark: 10 });
    const parts = Array.from({ length: 100 }, () => b("x".repeat(50)));
    const p = writeGathered(out, parts, 64);
    setImmediate(() => out.destroy());
    expect(await p).toBe(false);
  });
});
