import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BlockPool, writeGathered } from "./blocks.js";

const b = (s: string) => Buffer.from(s);

/** A writable that completes each write on a later tick and keeps a copy taken at completion. */
function slowSink(highWaterMark = 16) {
  const held: Buffer[] = [];
  const blocks = new Set<ArrayBufferLike>();
  let maxOutstanding = 0;
  let outstanding = 0;
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      blocks.add(chunk.buffer);
      outstanding += chunk.length;
      maxOutstanding = Math.max(maxOutstanding, out.writableLength);
      // Copy only when the write completes: a block reused earlier would show here.
      setTimeout(() => {
        held.push(Buffer.from(chunk));
        outstanding -= chunk.length;
        cb();
      }, 1);
    },
  });
  return { out, held, blocks, maxOutstanding: () => maxOutstanding, outstanding: () => outstanding };
}

describe("writeGathered", () => {
  it("writes every byte in order, in far fewer writes than parts", async () => {
    const parts = Array.from({ length: 2000 }, (_, i) => b(`line ${i}\n`));
    const got: Buffer[] = [];
    let writes = 0;
    const out = new Writable({
      highWaterMark: 100,
      write(chunk: Buffer, _enc, cb) {
        writes++;
        got.push(Buffer.from(chunk));
        setImmediate(cb);
      },
    });
    expect(await writeGathered(out, [parts], { pool: new BlockPool(256, 4), inFlightBytes: 1024 })).toBe(
      true,
    );
    // What is still in flight when it resolves is queued in order before end().
    await new Promise((r) => out.end(r));
    expect(Buffer.concat(got).equals(Buffer.concat(parts))).toBe(true);
    expect(writes).toBeLessThan(parts.length / 10);
  });

  it("reuses a block only after its write completed (the bytes sent are never overwritten)", async () => {
    const parts = Array.from({ length: 500 }, (_, i) => b(`${String(i).padStart(4, "0")}\n`));
    const sink = slowSink();
    const pool = new BlockPool(64, 8);
    expect(await writeGathered(sink.out, [parts], { pool, inFlightBytes: 128 })).toBe(true);
    await new Promise((r) => sink.out.end(r));
    expect(Buffer.concat(sink.held).equals(Buffer.concat(parts))).toBe(true);
    // Forty blocks of bytes went through a handful of allocations.
    expect(pool.allocated).toBeLessThanOrEqual(4);
    expect(sink.blocks.size).toBe(pool.allocated);
  });

  it.each([
    { inFlightBytes: 64, most: 64 + 64 },
    { inFlightBytes: 256, most: 256 + 64 },
    { inFlightBytes: 1024, most: 1024 + 64 },
  ])(
    "holds at most inFlightBytes ($inFlightBytes) plus one block outstanding",
    async ({ inFlightBytes, most }) => {
      const parts = Array.from({ length: 400 }, () => b("0123456789"));
      const sink = slowSink(16);
      expect(await writeGathered(sink.out, [parts], { pool: new BlockPool(64, 64), inFlightBytes })).toBe(
        true,
      );
      expect(sink.maxOutstanding()).toBeLessThanOrEqual(most);
      // And it does use the budget, beyond the stream's 16-byte high-water mark.
      expect(sink.maxOutstanding()).toBeGreaterThan(inFlightBytes >= 256 ? inFlightBytes / 2 : 16);
    },
  );

  it("shares one pool across responses: a second body allocates nothing new", async () => {
    const pool = new BlockPool(64, 16);
    const parts = Array.from({ length: 300 }, (_, i) => b(`s{i="${i}"} 1\n`));
    for (let i = 0; i < 3; i++) {
      const sink = slowSink();
      expect(await writeGathered(sink.out, [parts], { pool, inFlightBytes: 256 })).toBe(true);
      await new Promise((r) => sink.out.end(r));
      expect(Buffer.concat(sink.held).equals(Buffer.concat(parts))).toBe(true);
      if (i === 0) expect(pool.allocated).toBeGreaterThan(1);
    }
    const afterFirst = pool.allocated;
    expect(afterFirst).toBeLessThanOrEqual(6);
    expect(pool.idle).toBe(afterFirst);
  });

  it("keeps no more than maxIdle blocks between responses", async () => {
    const pool = new BlockPool(16, 2);
    const sink = slowSink();
    const parts = Array.from({ length: 100 }, () => b("abcdefgh"));
    expect(await writeGathered(sink.out, [parts], { pool, inFlightBytes: 160 })).toBe(true);
    await new Promise((r) => sink.out.end(r));
    expect(pool.allocated).toBeGreaterThan(2);
    expect(pool.idle).toBe(2);
  });

  it.each([
    { name: "a part of a block's size or more", blockBytes: 64, bigBytes: 300, direct: true },
    // A family's run segment (64 KiB) goes out as it is even where blocks are larger.
    {
      name: "a part of 64 KiB under larger blocks",
      blockBytes: 256 * 1024,
      bigBytes: 64 * 1024,
      direct: true,
    },
    {
      name: "a part under 64 KiB and under a block: copied",
      blockBytes: 256 * 1024,
      bigBytes: 64 * 1024 - 1,
      direct: false,
    },
  ])("writes $name as it is: $direct", async ({ blockBytes, bigBytes, direct }) => {
    const big = b("x".repeat(bigBytes));
    const chunks: Buffer[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        cb();
      },
    });
    expect(await writeGathered(out, [[b("a"), big, b("b")]], { pool: new BlockPool(blockBytes, 2) })).toBe(
      true,
    );
    expect(Buffer.concat(chunks).toString()).toBe(`a${"x".repeat(bigBytes)}b`);
    if (direct) {
      expect(chunks.map((c) => c.length)).toEqual([1, bigBytes, 1]);
      expect(chunks[1]).toBe(big);
    } else {
      expect(chunks).toHaveLength(1);
    }
  });

  it.each([
    { yieldEveryBytes: 1024, turns: true },
    { yieldEveryBytes: 1e12, turns: false },
  ])(
    "returns to the event loop every yieldEveryBytes ($yieldEveryBytes) even when every write completes at once",
    async ({ yieldEveryBytes, turns }) => {
      // A sink that takes every write at once, like a socket with room: no callback ever waits
      // for I/O, so only an explicit turn lets timers and I/O of the loop run mid-body.
      const out = new Writable({
        write(_chunk: Buffer, _enc, cb) {
          cb();
        },
      });
      let ranMidway = false;
      setImmediate(() => {
        ranMidway = true;
      });
      const parts = Array.from({ length: 1000 }, () => b("x".repeat(40)));
      let sawTurn = false;
      const done = writeGathered(out, [parts], {
        pool: new BlockPool(256, 64),
        inFlightBytes: 1e12,
        yieldEveryBytes,
        onBlock: () => {
          if (ranMidway) sawTurn = true;
        },
      });
      expect(await done).toBe(true);
      expect(sawTurn).toBe(turns);
    },
  );

  it("stops when the stream closes midway and says so", async () => {
    const out = new PassThrough({ highWaterMark: 10 });
    const parts = Array.from({ length: 100 }, () => b("x".repeat(50)));
    const p = writeGathered(out, [parts], { pool: new BlockPool(64, 2), inFlightBytes: 128 });
    setImmediate(() => out.destroy());
    expect(await p).toBe(false);
  });

  it("rejects a pool without room", () => {
    expect(() => new BlockPool(0, 1)).toThrow(RangeError);
  });
});
