import { describe, expect, it } from "vitest";
import { escapeLabelValue, formatValue, renderChunks, renderHeader, renderSample } from "./render.js";

describe("escapeLabelValue", () => {
  it.each([
    ["plain", "plain"],
    ['say "hi"', 'say \\"hi\\"'],
    ["back\\slash", "back\\\\slash"],
    ["line\nbreak", "line\\nbreak"],
    ['all\\"\n', 'all\\\\\\"\\n'],
    ["unicode ✓", "unicode ✓"],
  ])("%j -> %j", (input, want) => {
    expect(escapeLabelValue(input)).toBe(want);
  });
});

describe("formatValue", () => {
  it.each([
    [1, "1"],
    [0.25, "0.25"],
    [1e21, "1e+21"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "+Inf"],
    [Number.NEGATIVE_INFINITY, "-Inf"],
  ])("%d -> %s", (v, want) => {
    expect(formatValue(v)).toBe(want);
  });
});

describe("renderSample and renderHeader", () => {
  it("keeps label order and omits braces without labels", () => {
    expect(renderSample({ family: "m", labels: { b: "2", a: "1" }, value: 3 })).toBe('m{b="2",a="1"} 3\n');
    expect(renderSample({ family: "m", labels: {}, value: 3 })).toBe("m 3\n");
  });
  it("names OpenMetrics counters without _total", () => {
    const def = { name: "x_total", help: "X.", type: "counter" as const };
    expect(renderHeader(def, false)).toBe("# HELP x_total X.\n# TYPE x_total counter\n");
    expect(renderHeader(def, true)).toBe("# HELP x X.\n# TYPE x counter\n");
  });
  it("groups by family and skips undeclared families", () => {
    const chunks = renderChunks(
      [{ name: "a", help: "A", type: "gauge" }],
      [
        { family: "a", labels: { k: "1" }, value: 1 },
        { family: "zzz", labels: {}, value: 9 },
        { family: "a", labels: { k: "2" }, value: 2 },
      ],
    );
    expect([...chunks.entries()]).toEqual([["a", { text: 'a{k="1"} 1\na{k="2"} 2\n', series: 2 }]]);
  });
});
