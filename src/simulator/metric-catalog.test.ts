import { describe, expect, it } from "vitest";
import { DESIGN_SECOND_FORM_NAMES } from "../upstream/namesTestkit.js";
import { FIRST_FORM_NAMES, resolveMetricQuery, SECOND_FORM_NAMES } from "./metric-catalog.js";

describe("metric catalog", () => {
  it("knows every second-form name of docs/design.md section 7", () => {
    expect(DESIGN_SECOND_FORM_NAMES).toHaveLength(40);
    expect([...SECOND_FORM_NAMES].sort()).toEqual([...DESIGN_SECOND_FORM_NAMES].sort());
  });

  it("adds the first-form names and drops the suffixed latency names there", () => {
    for (const n of [
      "REQ_BULK_INSERT_LATENCY",
      "REQ_SEARCH_LATENCY",
      "REQ_SUCCESS_RATE",
      "REQ_FAIL_RATE",
      "ENTITIES_INSERT_RATE",
    ]) {
      expect(FIRST_FORM_NAMES).toContain(n);
    }
    expect(FIRST_FORM_NAMES).toContain("CU_COMPUTATION");
    expect(FIRST_FORM_NAMES).not.toContain("REQ_SEARCH_LATENCY_P99");
  });

  it.each([
    ["CU_COMPUTATION", undefined, { stat: "AVG", firstForm: false, unit: "percent" }],
    ["REQ_QUERY_LATENCY_P99", undefined, { stat: "P99", firstForm: false, unit: "ms" }],
    ["REQ_QUERY_LATENCY", "P99", { stat: "P99", firstForm: true, unit: "ms" }],
    ["STORAGE_USE", "AVG", { stat: "AVG", firstForm: true, unit: "GB" }],
    ["ENTITIES_INSERT_RATE", "AVG", { stat: "AVG", firstForm: true, unit: "count/s" }],
    ["FLUSH_COUNT", undefined, { stat: "AVG", firstForm: false, unit: "count/min" }],
  ])("resolves %s with stat %s", (name, stat, expected) => {
    const r = resolveMetricQuery(name, stat);
    if (typeof r === "string") throw new Error(r);
    expect({ stat: r.stat, firstForm: r.firstForm, unit: r.def.unit }).toEqual(expected);
  });

  it.each([
    ["NOPE", undefined, /unknown metric name/],
    ["NOPE", "AVG", /unknown metric name/],
    ["REQ_SEARCH_LATENCY", undefined, /requires stat/],
    ["REQ_SEARCH_LATENCY_AVG", "AVG", /does not take a stat/],
    ["CU_COMPUTATION", "P99", /only supported for latency/],
    ["CU_COMPUTATION", "MAX", /invalid stat/],
  ])("refuses %s with stat %s", (name, stat, message) => {
    expect(resolveMetricQuery(name, stat)).toMatch(message);
  });
});
