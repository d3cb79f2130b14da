import { describe, expect, it } from "vitest";
import { medianByPart, percentile, slope, summarize } from "./stats.js";

describe("percentile", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted

  it.each([
    { p: 50, want: 50 },
    { p: 99, want: 99 },
    { p: 100, want: 100 },
    { p: 1, want: 1 },
    { p: 0.1, want: 1 },
  ])("nearest rank p$p of 1..100 is $want", ({ p, want }) => {
    expect(percentile(hundred, p)).toBe(want);
  });

  it("takes the value at the rank, not an interpolation", () => {
    expect(percentile([10, 20, 30, 40], 50)).toBe(20);
    expect(percentile([10, 20, 30, 40], 99)).toBe(40);
  });

  it("is NaN for no values and leaves the input unsorted", () => {
    expect(percentile([], 50)).toBeNaN();
    const input = [3, 1, 2];
    percentile(input, 50);
    expect(input).toEqual([3, 1, 2]);
  });
});

describe("summarize", () => {
  it("reports count, p50, p99, max and mean", () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ count: 4, p50: 2, p99: 4, max: 4, mean: 2.5 });
  });

  it("is NaN but countable for no values", () => {
    const s = summarize([]);
    expect(s.count).toBe(0);
    expect(s.max).toBeNaN();
    expect(s.mean).toBeNaN();
  });
});

describe("slope", () => {
  it.each([
    { name: "a line", points: [0, 1, 2, 3].map((x) => ({ x, y: 2 * x + 5 })), from: undefined, want: 2 },
    { name: "flat", points: [0, 1, 2].map((x) => ({ x, y: 7 })), from: undefined, want: 0 },
    {
      name: "noise around a line",
      points: [
        { x: 0, y: 1 },
        { x: 1, y: 2 },
        { x: 2, y: 2 },
        { x: 3, y: 4 },
      ],
      from: undefined,
      want: 0.9,
    },
    {
      name: "only the points from fromX (a warm-up climb ignored)",
      points: [
        { x: 0, y: 0 },
        { x: 1, y: 100 },
        { x: 2, y: 100 },
        { x: 3, y: 100 },
      ],
      from: 1,
      want: 0,
    },
  ])("$name", ({ points, from, want }) => {
    expect(slope(points, from)).toBeCloseTo(want, 10);
  });

  it("is NaN without two distinct x", () => {
    expect(slope([{ x: 1, y: 1 }])).toBeNaN();
    expect(
      slope([
        { x: 1, y: 1 },
        { x: 1, y: 2 },
      ]),
    ).toBeNaN();
  });
});

describe("medianByPart", () => {
  const pts = (ys: number[], step = 1) => ys.map((y, i) => ({ x: i * step, y }));
  it.each([
    {
      name: "a rise that levels off",
      points: pts([1, 2, 3, 9, 10, 10, 11, 10]),
      span: 8,
      parts: 4,
      want: [1, 3, 10, 10],
    },
    { name: "one part", points: pts([5, 1, 3]), span: 3, parts: 1, want: [3] },
    {
      name: "a point at the end of the span goes to the last part",
      points: [{ x: 10, y: 7 }],
      span: 10,
      parts: 2,
      want: [Number.NaN, 7],
    },
    {
      name: "an empty slice is NaN",
      points: pts([4, 4], 1),
      span: 6,
      parts: 3,
      want: [4, Number.NaN, Number.NaN],
    },
  ])("$name", ({ points, span, parts, want }) => {
    expect(medianByPart(points, span, parts)).toEqual(want);
  });
});
