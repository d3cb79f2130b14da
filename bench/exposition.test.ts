import { describe, expect, it } from "vitest";
import { parseExposition, parseLabels } from "./exposition.js";

const TEXT = [
  "# HELP vdbcloud_cu_computation_ratio CU computation (upstream CU_COMPUTATION).",
  "# TYPE vdbcloud_cu_computation_ratio gauge",
  'vdbcloud_cu_computation_ratio{cluster_id="in01-a"} 0.25',
  'vdbcloud_cu_computation_ratio{cluster_id="in01-b"} 1e-7',
  "# TYPE vdbcloud_api_retries_total counter",
  "vdbcloud_api_retries_total 3",
  'odd{v="a\\"b\\\\c\\nd"} +Inf',
  "not a sample line",
  "",
].join("\n");

describe("parseExposition", () => {
  const parsed = parseExposition(TEXT);

  it("reads every sample line with its identity, labels and value", () => {
    expect(parsed.samples.map((s) => [s.id, s.value])).toEqual([
      ['vdbcloud_cu_computation_ratio{cluster_id="in01-a"}', 0.25],
      ['vdbcloud_cu_computation_ratio{cluster_id="in01-b"}', 1e-7],
      ["vdbcloud_api_retries_total", 3],
      ['odd{v="a\\"b\\\\c\\nd"}', Number.POSITIVE_INFINITY],
    ]);
    expect(parsed.samples[0]?.labels).toEqual({ cluster_id: "in01-a" });
  });

  it("unescapes label values", () => {
    expect(parsed.samples[3]?.labels).toEqual({ v: 'a"b\\c\nd' });
  });

  it("keeps HELP and TYPE per family", () => {
    expect(parsed.families.get("vdbcloud_cu_computation_ratio")).toEqual({
      type: "gauge",
      help: "CU computation (upstream CU_COMPUTATION).",
    });
    expect(parsed.families.get("vdbcloud_api_retries_total")).toEqual({ type: "counter", help: "" });
  });
});

describe("parseLabels", () => {
  it.each([
    { body: "", want: {} },
    { body: 'a="1",b="x,y"', want: { a: "1", b: "x,y" } },
    { body: 'a="say \\"hi\\""', want: { a: 'say "hi"' } },
  ])("parses {$body}", ({ body, want }) => {
    expect(parseLabels(body)).toEqual(want);
  });
});
