import { describe, expect, it } from "vitest";
import { z } from "zod";
import { itemsOf, pageSizeAsked, VALIDATION_SLICE, validateData } from "./boundedRead.js";

describe("pageSizeAsked", () => {
  it.each([
    [{ pageSize: 100, currentPage: 1 }, 100],
    [{ pageSize: 0 }, undefined],
    [{ pageSize: "100" }, undefined],
    [{ clusterId: "in01-a" }, undefined],
    ["in01-a", undefined],
    [undefined, undefined],
  ])("%j -> %j", (args, want) => {
    expect(pageSizeAsked(args)).toBe(want);
  });
});

describe("itemsOf", () => {
  it.each([
    [[1, 2, 3], 3],
    [{ count: 9, clusters: [1, 2], other: [1, 2, 3, 4] }, 4],
    [{ count: 9 }, 0],
    [null, 0],
    ["text", 0],
  ])("%j -> %d", (data, want) => {
    expect(itemsOf(data)).toBe(want);
  });
});

describe("validateData", () => {
  const element = z.object({ a: z.string(), b: z.number().transform((n) => n * 2) });

  it("stops at the first issue: one issue for 200,000 bad elements, the first named", async () => {
    const bad = new Array(200_000).fill(0);
    for (const schema of [z.array(element), z.object({ items: z.array(element) })]) {
      const data = schema instanceof z.ZodArray ? bad : { items: bad };
      const started = performance.now();
      const out = await validateData(schema as z.ZodType, data);
      expect(out.ok).toBe(false);
      if (out.ok) return;
      expect(out.summary).toMatch(/^data(\.items)?\[0\]: /);
      expect(out.summary).not.toMatch(/more\)/);
      // One issue per element would be a cost out of all proportion (docs/performance.md).
      expect(performance.now() - started).toBeLessThan(200);
    }
  });

  it("validates a long array element by element, a turn between slices, with the schema's transforms", async () => {
    const data = Array.from({ length: 4 * VALIDATION_SLICE + 1 }, (_, i) => ({ a: `x${i}`, b: i }));
    let turns = 0;
    const out = await validateData(z.array(element), data, () => {
      turns++;
      return Promise.resolve();
    });
    expect(turns).toBe(4);
    expect(out).toEqual({ ok: true, data: data.map((d) => ({ a: d.a, b: d.b * 2 })) });
  });

  it("names the first bad element of a long array by its index", async () => {
    const data = Array.from({ length: 3 * VALIDATION_SLICE }, (_, i) => ({ a: `x${i}`, b: i }));
    data[1234] = { a: "x", b: "two" as unknown as number };
    const out = await validateData(z.array(element), data);
    expect(out).toEqual({ ok: false, summary: expect.stringMatching(/^data\[1234\]\.b: /) });
  });

  it("runs an array schema with checks of its own whole (they see the whole array)", async () => {
    const data = Array.from({ length: VALIDATION_SLICE + 1 }, () => ({ a: "x", b: 1 }));
    const out = await validateData(z.array(element).max(VALIDATION_SLICE), data);
    expect(out.ok).toBe(false);
  });
});
