import { describe, expect, it } from "vitest";
import { counter, FamilyDeclarationError, gauge, histogram, isFixedFamily, unitOfName } from "./define.js";
import type { MetricType } from "./sample.js";

const SPEC = {
  help: "A test family (source: a test).",
  labels: ["target"],
  source: "a test",
  absent: "never",
};

describe("the unit a family's name implies", () => {
  it.each<[string, MetricType, string | undefined]>([
    ["vdbcloud_x_info", "gauge", "1 (info)"],
    ["vdbcloud_x_created_timestamp_seconds", "gauge", "Unix seconds"],
    ["vdbcloud_x_duration_seconds", "gauge", "seconds"],
    ["vdbcloud_x_duration_seconds", "histogram", "seconds"],
    ["vdbcloud_x_requests_total", "counter", "count"],
    ["vdbcloud_x_size_bytes", "gauge", "bytes"],
    ["vdbcloud_x_used_ratio", "gauge", "ratio (0..1)"],
    ["vdbcloud_x_status", "gauge", "1 (state set)"],
    // _total on a gauge is not a count the name vouches for (the Node.js defaults misuse it).
    ["vdbcloud_x_total", "gauge", undefined],
    ["vdbcloud_x_rows", "gauge", undefined],
  ])("%s (%s) -> %s", (name, type, unit) => {
    expect(unitOfName(name, type)).toBe(unit);
  });
});

describe("declaring a family", () => {
  it("fills the reference entry's unit from the name where the spec gives none", () => {
    expect(counter("vdbcloud_define_test_calls_total", SPEC).doc).toEqual({
      labels: ["target"],
      unit: "count",
      source: "a test",
      absent: "never",
    });
  });

  it("keeps a unit the spec gives over the one the name implies", () => {
    expect(gauge("vdbcloud_define_test_info", { ...SPEC, unit: "1" }).doc?.unit).toBe("1");
  });

  it("refuses a family whose name implies no unit and whose spec gives none, naming it", () => {
    expect(() => gauge("vdbcloud_define_test_rows", SPEC)).toThrow(FamilyDeclarationError);
    expect(() => gauge("vdbcloud_define_test_rows", SPEC)).toThrow(/vdbcloud_define_test_rows/);
    expect(isFixedFamily("vdbcloud_define_test_rows")).toBe(false);
  });

  it("remembers each declared name, and keeps a histogram's buckets", () => {
    const h = histogram("vdbcloud_define_test_seconds", { ...SPEC, buckets: [0.1, 1] });
    expect(h).toMatchObject({ type: "histogram", buckets: [0.1, 1], doc: { unit: "seconds" } });
    expect(isFixedFamily("vdbcloud_define_test_seconds")).toBe(true);
  });
});
