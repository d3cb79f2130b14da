import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32, deflateHead, gzipWithTail } from "./gzipJoin.js";

describe("crc32", () => {
  it.each([
    ["", 0],
    ["a", 0xe8b7be43],
    ["123456789", 0xcbf43926],
    ["The quick brown fox jumps over the lazy dog", 0x414fa339],
  ])("%j", (text, want) => {
    expect(crc32(Buffer.from(text))).toBe(want);
  });
  it("continues from a previous value", () => {
    const whole = crc32(Buffer.from("hello world"));
    expect(crc32(Buffer.from(" world"), crc32(Buffer.from("hello")))).toBe(whole);
  });
  it("matches the CRC in zlib's own gzip trailer", () => {
    const body = Buffer.from(`${"x".repeat(100_000)}y`);
    const gz = gzipSync(body);
    expect(crc32(body)).toBe(gz.readUInt32LE(gz.length - 8));
  });
});

describe("gzipWithTail", () => {
  it.each([
    { head: "", tail: "# EOF\n" },
    { head: "metric 1\n", tail: "self 2\n# EOF\n" },
    { head: 'm{a="b"} 1\n'.repeat(50_000), tail: "s 1\n".repeat(300) },
  ])(
    "is one gzip member that decodes to head + tail ($head.length + $tail.length bytes)",
    async ({ head, tail }) => {
      const h = await deflateHead(Buffer.from(head));
      const gz = Buffer.concat(gzipWithTail(h, Buffer.from(tail)));
      expect(gunzipSync(gz).toString()).toBe(head + tail);
      // One member: the header magic occurs once at the start and the trailer holds the total size.
      expect(gz.readUInt32LE(gz.length - 4)).toBe(Buffer.byteLength(head + tail));
      expect(gz.subarray(0, 2).toString("hex")).toBe("1f8b");
    },
  );
  it("reuses one head with different tails", async () => {
    const h = await deflateHead(Buffer.from("shared head\n"));
    expect(gunzipSync(Buffer.concat(gzipWithTail(h, Buffer.from("one\n")))).toString()).toBe(
      "shared head\none\n",
    );
    expect(gunzipSync(Buffer.concat(gzipWithTail(h, Buffer.from("two\n")))).toString()).toBe(
      "shared head\ntwo\n",
    );
  });
});
