import { describe, expect, it } from "vitest";
import { renderChunks, renderHeader } from "../exposition/render.js";
import { MappingBuilder } from "./builder.js";
import { histogram } from "./define.js";

const H = histogram("test_probe_duration_seconds", {
  help: "Probe durations in seconds (source: a test).",
  buckets: [0.1, 1],
  labels: ["target"],
  unit: "seconds (histogram)",
  source: "a test",
  absent: "never",
});

describe("a histogram family", () => {
  it("is declared with its buckets and type", () => {
    expect(H).toMatchObject({ type: "histogram", buckets: [0.1, 1] });
    expect(renderHeader(H, false)).toBe(
      "# HELP test_probe_duration_seconds Probe durations in seconds (source: a test).\n# TYPE test_probe_duration_seconds histogram\n",
    );
    expect(renderHeader(H, true)).toContain("# TYPE test_probe_duration_seconds histogram\n");
  });

  it("renders cumulative buckets, +Inf, sum and count per label set, in that order", () => {
    const out = new MappingBuilder();
    // Three observations: 0.05, 0.5, 3 (the last above every bound).
    out.addHistogram(H, { target: "a" }, { counts: [1, 1], sum: 3.55, count: 3 });
    out.addHistogram(H, { target: "b" }, { counts: [0, 0], sum: 0, count: 0 });
    // The same label set again is ignored, as any repeated series.
    out.addHistogram(H, { target: "a" }, { counts: [9, 9], sum: 9, count: 9 });
    const result = out.result();
    expect(result.families).toEqual([H]);
    expect(renderChunks(result.families, result.samples).get(H.name)?.text).toBe(
      [
        'test_probe_duration_seconds_bucket{target="a",le="0.1"} 1',
        'test_probe_duration_seconds_bucket{target="a",le="1"} 2',
        'test_probe_duration_seconds_bucket{target="a",le="+Inf"} 3',
        'test_probe_duration_seconds_sum{target="a"} 3.55',
        'test_probe_duration_seconds_count{target="a"} 3',
        'test_probe_duration_seconds_bucket{target="b",le="0.1"} 0',
        'test_probe_duration_seconds_bucket{target="b",le="1"} 0',
        'test_probe_duration_seconds_bucket{target="b",le="+Inf"} 0',
        'test_probe_duration_seconds_sum{target="b"} 0',
        'test_probe_duration_seconds_count{target="b"} 0',
        "",
      ].join("\n"),
    );
  });
});
