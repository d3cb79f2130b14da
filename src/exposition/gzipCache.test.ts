import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { FamilyDef } from "../metrics/sample.js";
import { BlockPool } from "./blocks.js";
import { deflateHead, deflateParts, gzipWithTail } from "./gzipJoin.js";
import { SampleStore } from "./store.js";

const fam: FamilyDef = { name: "vdbcloud_things_total", help: "Things.", type: "counter" };
const g: FamilyDef = { name: "vdbcloud_level", help: 'Level "x".', type: "gauge" };
const key = (t: string) => ({ collector: "c", target: t, slot: "data" });
const END = Buffer.from("# EOF\n");

function put(store: SampleStore, target: string, value: number): void {
  store.put(
    key(target),
    [fam, g],
    [
      { family: fam.name, labels: { cluster_id: target }, value },
      { family: g.name, labels: { cluster_id: target, note: 'a"b\n' }, value: value / 2 },
    ],
    null,
  );
}

/** The body a gzip scrape would decode, without the tail appended to it. */
const unzip = (head: Awaited<ReturnType<SampleStore["gzipped"]>>) =>
  gunzipSync(Buffer.concat(gzipWithTail(head, END)))
    .toString()
    .slice(0, -END.length);

describe("deflateParts", () => {
  it.each([
    { name: "no parts", parts: [] as string[], block: 8 },
    { name: "small parts across blocks", parts: ["a", "bc", "def", "ghij", "k"], block: 4 },
    { name: "a part larger than a block", parts: ["x".repeat(1000), "y", "z".repeat(10)], block: 64 },
  ])(
    "compresses the concatenation, like deflateHead over the joined body: $name",
    async ({ parts, block }) => {
      const bufs = parts.map((p) => Buffer.from(p));
      const joined = Buffer.concat(bufs);
      const head = await deflateParts([bufs], undefined, new BlockPool(block, 2));
      const ref = await deflateHead(joined);
      expect(head.crc).toBe(ref.crc);
      expect(head.length).toBe(joined.length);
      const tail = Buffer.from("tail 1\n");
      expect(gunzipSync(Buffer.concat(gzipWithTail(head, tail))).equals(Buffer.concat([joined, tail]))).toBe(
        true,
      );
    },
  );
});

describe("SampleStore gzip", () => {
  it("decompresses to exactly the plain body of the same snapshot, in both formats", async () => {
    const store = new SampleStore();
    for (let i = 0; i < 300; i++) put(store, `t${i}`, i);
    const p = await store.publishNow();
    expect(unzip(await store.gzipped(false))).toBe(p.text.toString());
    expect(unzip(await store.gzipped(true))).toBe(p.openMetrics.toString());
    expect(Buffer.concat(p.segments(false).flat()).equals(p.text)).toBe(true);
    expect(p.textLength).toBe(p.text.length);
    expect(p.openMetricsLength).toBe(p.openMetrics.length);
    store.close();
  });

  it("segments are the family headers and the entries' own buffers, never copies; an old snapshot keeps its state", async () => {
    const store = new SampleStore();
    for (let i = 0; i < 50; i++) put(store, `t${i}`, i);
    const p = await store.publishNow();
    const text = p.segments(false);
    const om = p.segments(true);
    // Per family: [header], then its entries; the formats share every entry buffer.
    expect(text.length % 2).toBe(0);
    expect(text.length).toBeLessThan(10);
    for (let i = 1; i < text.length; i += 2) expect(om[i]).toBe(text[i]);
    expect(Buffer.concat(text.flat()).equals(p.text)).toBe(true);
    expect(Buffer.concat(om.flat()).equals(p.openMetrics)).toBe(true);
    put(store, "t0", 99);
    const q = await store.publishNow();
    // A response still writing the old snapshot sees its own state.
    expect(Buffer.concat(text.flat()).equals(p.text)).toBe(true);
    expect(Buffer.concat(q.segments(false).flat()).equals(p.text)).toBe(false);
    store.close();
  });

  it("compresses nothing until a client asks, then keeps the asked format up to date on publishNow", async () => {
    let calls = 0;
    const store = new SampleStore({
      compress: (body) => {
        calls++;
        return deflateHead(body);
      },
    });
    put(store, "a", 1);
    await store.publishNow();
    expect(calls).toBe(0);
    expect(unzip(await store.gzipped(false))).toContain('cluster_id="a"} 1\n');
    expect(calls).toBe(1);
    put(store, "b", 2);
    const p = await store.publishNow();
    // Only text was asked for: OpenMetrics is not compressed.
    expect(calls).toBe(2);
    expect(unzip(await store.gzipped(false))).toBe(p.text.toString());
    store.close();
  });

  it("serves the previous compressed snapshot while the latest compresses, never a mix", async () => {
    let release: () => void = () => {};
    let hold = false;
    const store = new SampleStore({
      publishDelayMs: 1,
      gzipEveryMs: 0,
      compress: async (body) => {
        if (hold) await new Promise<void>((r) => (release = r));
        return deflateHead(body);
      },
    });
    put(store, "a", 1);
    const first = await store.publishNow();
    await store.gzipped(false);
    hold = true;
    put(store, "b", 2);
    await new Promise((r) => setTimeout(r, 30)); // the background publish and its compression start
    expect(store.latest().version).toBeGreaterThan(first.version);
    // Concurrent gzip scrapes during the compression: all get the whole previous snapshot.
    const during = await Promise.all([1, 2, 3].map(() => store.gzipped(false)));
    for (const head of during) expect(unzip(head)).toBe(first.text.toString());
    release();
    hold = false;
    const latest = await store.publishNow();
    expect(unzip(await store.gzipped(false))).toBe(latest.text.toString());
    store.close();
  });

  it("after a failed compression, rejects instead of serving an older form", async () => {
    let failing = false;
    const errors: unknown[] = [];
    const store = new SampleStore({
      onError: (_where, err) => errors.push(err),
      compress: (body) => (failing ? Promise.reject(new Error("boom")) : deflateHead(body)),
    });
    put(store, "a", 1);
    await store.publishNow();
    await store.gzipped(false);
    failing = true;
    put(store, "b", 2);
    await expect(store.publishNow()).rejects.toThrow("boom");
    expect(errors.length).toBeGreaterThanOrEqual(1);
    await expect(store.gzipped(false)).rejects.toThrow("boom");
    failing = false;
    const p = await store.publishNow();
    expect(unzip(await store.gzipped(false))).toBe(p.text.toString());
    store.close();
  });

  it("drops a format's compressed form after it was not asked for within the idle time", async () => {
    let now = 0;
    let calls = 0;
    const store = new SampleStore({
      now: () => now,
      gzipIdleMs: 1000,
      compress: (body) => {
        calls++;
        return deflateHead(body);
      },
    });
    put(store, "a", 1);
    await store.publishNow();
    await store.gzipped(false);
    now += 2000;
    put(store, "b", 2);
    await store.publishNow();
    expect(calls).toBe(1);
    // Asked again: compressed anew (nothing kept), of the latest snapshot.
    expect(unzip(await store.gzipped(false))).toContain('cluster_id="b"');
    expect(calls).toBe(2);
    store.close();
  });
});
