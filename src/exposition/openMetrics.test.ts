import { describe, expect, it } from "vitest";
import { textToOpenMetrics } from "./openMetrics.js";

describe("textToOpenMetrics", () => {
  it.each([
    {
      name: "counter loses _total in HELP and TYPE, keeps it on samples",
      text: '# HELP a_total Things.\n# TYPE a_total counter\na_total{x="1"} 3\n\n',
      want: '# HELP a Things.\n# TYPE a counter\na_total{x="1"} 3\n',
    },
    {
      name: "gauge named _total is left alone",
      text: "# HELP g_total Handles.\n# TYPE g_total gauge\ng_total 2\n",
      want: "# HELP g_total Handles.\n# TYPE g_total gauge\ng_total 2\n",
    },
    {
      name: "blank lines between families are removed",
      text: "# HELP a A.\n# TYPE a gauge\na 1\n\n# HELP b B.\n# TYPE b gauge\nb 2\n",
      want: "# HELP a A.\n# TYPE a gauge\na 1\n# HELP b B.\n# TYPE b gauge\nb 2\n",
    },
    {
      name: "histogram is unchanged",
      text: '# HELP h H.\n# TYPE h histogram\nh_bucket{le="+Inf"} 1\nh_sum 2\nh_count 1\n',
      want: '# HELP h H.\n# TYPE h histogram\nh_bucket{le="+Inf"} 1\nh_sum 2\nh_count 1\n',
    },
    { name: "empty input", text: "", want: "" },
  ])("$name", ({ text, want }) => {
    expect(textToOpenMetrics(text)).toBe(want);
  });
});
